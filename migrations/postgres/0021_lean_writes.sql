-- Fewer index pages written per order (issue 21), as in SQLite's migration 21: the
-- outbox's two indexes of undelivered rows become one, by race and coalescing key. The
-- coalescing trigger looks rows up by it, and delivery scans it (the undelivered rows are
-- few) rather than ordering by `not_before`. (Ids come from sequences here, never reused.)
DROP INDEX outbox_undelivered;
ALTER INDEX outbox_coalesce RENAME TO outbox_pending;
