-- The game state in its own row (issue 21). An order changes the campaign's small columns
-- (version, updated_at, ...) but not the state, the largest column by far: kept in the
-- campaign row, every order rewrote it (its overflow pages too) in the write-ahead log.
-- Now an order writes the campaign's short row, and the state is written only when it
-- changes (a step resolving). A lobby has no state row.
CREATE TABLE campaign_states (
    campaign_id     BIGINT PRIMARY KEY REFERENCES campaigns (id) ON DELETE CASCADE,
    state           TEXT,                           -- JSON game state
    state_format    BIGINT  NOT NULL DEFAULT 1      -- see migration 4
);
INSERT INTO campaign_states (campaign_id, state, state_format)
    SELECT id, state, state_format FROM campaigns WHERE state IS NOT NULL;
ALTER TABLE campaigns DROP COLUMN state;
ALTER TABLE campaigns DROP COLUMN state_format;
