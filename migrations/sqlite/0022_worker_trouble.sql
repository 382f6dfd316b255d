-- Why a worker whose work keeps failing is `failing` (the store's own error), for
-- `photofinish health`; NULL while its work succeeds.
ALTER TABLE workers ADD COLUMN trouble TEXT;
