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
