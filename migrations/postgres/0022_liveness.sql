-- Why a worker whose work keeps failing is `failing` (the store's own error), for
-- `photofinish health`; NULL while its work succeeds.
ALTER TABLE workers ADD COLUMN trouble TEXT;

-- When each process was last alive, on the referee's clock (written by its deadline tick
-- at most once a minute). A process that starts after every process was silent for
-- longer than an outage holds the deadlines that fell due meanwhile.
CREATE TABLE alive (
    instance        TEXT    PRIMARY KEY,
    at              BIGINT NOT NULL
);
