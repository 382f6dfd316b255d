-- Exactly once beyond Discord's nonce window, and missed DMs (issue 14, docs/reliability.md).

-- Each attempt to create a message is recorded before the request goes out: a row retried
-- after an attempt whose outcome is unknown first looks for its message in the channel.
ALTER TABLE outbox ADD COLUMN create_attempts INTEGER NOT NULL DEFAULT 0;
ALTER TABLE outbox ADD COLUMN attempted_at INTEGER;   -- the first attempt, ms

-- The newest DM message the bot has handled from each user, so that DMs missed while the
-- gateway could not resume are read once, and older ones never again.
CREATE TABLE dm_seen (
    user_id     TEXT    PRIMARY KEY,
    message_id  TEXT    NOT NULL,       -- a Discord snowflake, as text
    at          INTEGER NOT NULL
);
