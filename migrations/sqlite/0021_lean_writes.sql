-- Fewer pages written per order (issue 21). A plain order wrote eight pages to the
-- write-ahead log; two of them go:
-- - `orders` and `outbox` lose AUTOINCREMENT, so an insert no longer rewrites the
--   `sqlite_sequence` page. A new row takes the largest id left plus one, so ids still
--   grow with time. An order's id never leaves the store. An outbox id is a Discord nonce
--   and must not come round again: retention keeps the outbox's newest row.
-- - The outbox's two indexes of undelivered rows become one, by race and coalescing key:
--   the coalescing trigger looks rows up by it, and delivery scans it (the undelivered rows
--   are few) rather than ordering by `not_before`.
CREATE TABLE orders_lean (
    id              INTEGER PRIMARY KEY,
    campaign_id     INTEGER NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
    step            INTEGER NOT NULL,
    seat            INTEGER NOT NULL,
    text            TEXT    NOT NULL,
    parsed          TEXT    NOT NULL,
    source          TEXT    NOT NULL,
    nonce           TEXT    NOT NULL,
    receipt         TEXT    NOT NULL,
    by_user         TEXT,
    submitted_at    INTEGER NOT NULL,
    superseded      INTEGER NOT NULL DEFAULT 0
);
INSERT INTO orders_lean (id, campaign_id, step, seat, text, parsed, source, nonce, receipt,
                         by_user, submitted_at, superseded)
    SELECT id, campaign_id, step, seat, text, parsed, source, nonce, receipt,
           by_user, submitted_at, superseded
    FROM orders;
DROP TABLE orders;
ALTER TABLE orders_lean RENAME TO orders;
CREATE UNIQUE INDEX orders_one_live ON orders (campaign_id, step, seat) WHERE superseded = 0;
CREATE INDEX orders_by_seat ON orders (campaign_id, step, seat, id);

CREATE TABLE outbox_lean (
    id              INTEGER PRIMARY KEY,
    campaign_id     INTEGER NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
    target          TEXT    NOT NULL,
    payload         TEXT    NOT NULL,
    coalesce_key    TEXT,
    created_at      INTEGER NOT NULL,
    not_before      INTEGER NOT NULL,
    attempts        INTEGER NOT NULL DEFAULT 0,
    delivered_at    INTEGER,
    external_id     TEXT,
    failed          TEXT,
    last_error      TEXT,
    create_attempts INTEGER NOT NULL DEFAULT 0,
    attempted_at    INTEGER
);
INSERT INTO outbox_lean (id, campaign_id, target, payload, coalesce_key, created_at,
                         not_before, attempts, delivered_at, external_id, failed,
                         last_error, create_attempts, attempted_at)
    SELECT id, campaign_id, target, payload, coalesce_key, created_at,
           not_before, attempts, delivered_at, external_id, failed,
           last_error, create_attempts, attempted_at
    FROM outbox;
DROP TABLE outbox;
ALTER TABLE outbox_lean RENAME TO outbox;
CREATE INDEX outbox_pending ON outbox (campaign_id, coalesce_key)
    WHERE delivered_at IS NULL AND failed IS NULL;
CREATE TRIGGER outbox_coalesce AFTER INSERT ON outbox
WHEN NEW.coalesce_key IS NOT NULL
BEGIN
    UPDATE outbox SET failed = 'superseded'
    WHERE campaign_id = NEW.campaign_id
      AND coalesce_key = NEW.coalesce_key
      AND id < NEW.id
      AND delivered_at IS NULL
      AND failed IS NULL;
END;
DELETE FROM sqlite_sequence WHERE name IN ('orders', 'outbox');
