-- A new row with a coalesce key supersedes the older undelivered rows of its key inside
-- the INSERT itself: one round trip fewer per order. (Commits of one campaign are
-- serialised by its version row, so `id` order is commit order here.)
CREATE FUNCTION outbox_coalesce() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE outbox SET failed = 'superseded'
    WHERE campaign_id = NEW.campaign_id
      AND coalesce_key = NEW.coalesce_key
      AND id < NEW.id
      AND delivered_at IS NULL
      AND failed IS NULL;
    RETURN NULL;
END;
$$;

CREATE TRIGGER outbox_coalesce AFTER INSERT ON outbox
FOR EACH ROW WHEN (NEW.coalesce_key IS NOT NULL)
EXECUTE FUNCTION outbox_coalesce();
