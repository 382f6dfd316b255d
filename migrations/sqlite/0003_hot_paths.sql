-- A new row with a coalesce key supersedes the older undelivered rows of its key inside
-- the INSERT itself: one statement (one trip to sqlx's SQLite worker thread) fewer per
-- order. PostgreSQL has the same trigger.
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

-- The deadline worker asks on every wake when the next deadline falls: the earliest
-- unclaimed one, and the claimed ones (few: in flight) at their claim's end. Each has its
-- own index, so the answer does not read every open deadline.
CREATE INDEX deadlines_open_due ON deadlines (due_at) WHERE fired_at IS NULL AND claim_until IS NULL;
CREATE INDEX deadlines_claimed ON deadlines (claim_until) WHERE fired_at IS NULL AND claim_until IS NOT NULL;
