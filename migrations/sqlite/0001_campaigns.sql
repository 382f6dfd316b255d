-- Campaigns and everything a race needs to survive a restart.
-- Times are Unix milliseconds (UTC). JSON columns hold serde data.

CREATE TABLE campaigns (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    kind            TEXT    NOT NULL,               -- game slug
    options         TEXT    NOT NULL,               -- JSON, the game's options
    host            TEXT    NOT NULL,               -- user id of the host
    channel         TEXT    NOT NULL,               -- where the race is announced
    guild           TEXT,                           -- server, when there is one
    phase           TEXT    NOT NULL,               -- lobby | running | paused | finished | cancelled
    turn_secs       INTEGER NOT NULL,
    reminders       TEXT    NOT NULL,               -- JSON array of seconds before a deadline
    resolve_early   INTEGER NOT NULL,               -- 1: resolve once every order is in
    seed            TEXT    NOT NULL,               -- hex; secret until the race ends
    commitment      TEXT    NOT NULL,               -- SHA-256 of the seed, public from the start
    state           TEXT,                           -- JSON game state; NULL in the lobby
    step            INTEGER NOT NULL DEFAULT 0,     -- steps resolved so far
    step_open       INTEGER NOT NULL DEFAULT 0,     -- 1 once the current step has been opened
    deadline_at     INTEGER,                        -- the current step's deadline
    paused_left_ms  INTEGER,                        -- time left on the clock while paused
    version         INTEGER NOT NULL DEFAULT 0,     -- optimistic concurrency
    status_message  TEXT,                           -- adapter's id of the status message
    lobby_message   TEXT,                           -- adapter's id of the lobby message
    created_at      INTEGER NOT NULL,
    updated_at      INTEGER NOT NULL,
    ended_at        INTEGER
);

-- At most one race in play per channel.
CREATE UNIQUE INDEX campaigns_one_per_channel
    ON campaigns (channel) WHERE phase IN ('lobby', 'running', 'paused');

CREATE TABLE seats (
    campaign_id     INTEGER NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
    seat            INTEGER NOT NULL,
    user_id         TEXT,                           -- NULL for a bot
    name            TEXT    NOT NULL,
    bot             TEXT,                           -- bot level when a program plays the seat
    choice          TEXT,                           -- the seat's pre-race choice
    dm_ok           INTEGER NOT NULL DEFAULT 1,     -- 0 once a DM to the player failed
    view_hash       TEXT,                           -- hash of the private view last sent
    PRIMARY KEY (campaign_id, seat)
);
CREATE INDEX seats_by_user ON seats (user_id);

-- One row per step (a turn, a decision, a pick) once it opens.
CREATE TABLE turns (
    campaign_id     INTEGER NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
    step            INTEGER NOT NULL,
    label           TEXT    NOT NULL,
    pending         TEXT    NOT NULL,               -- JSON engine::Pending
    opened_at       INTEGER NOT NULL,
    deadline_at     INTEGER,
    resolved_at     INTEGER,
    late            INTEGER NOT NULL DEFAULT 0,     -- resolved after the deadline had long passed
    PRIMARY KEY (campaign_id, step)
);

-- Every order, submitted or played by default. A changed order supersedes the old row.
CREATE TABLE orders (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    campaign_id     INTEGER NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
    step            INTEGER NOT NULL,
    seat            INTEGER NOT NULL,
    text            TEXT    NOT NULL,               -- canonical order text
    parsed          TEXT    NOT NULL,               -- JSON engine::AnyOrder
    source          TEXT    NOT NULL,               -- player | bot | default
    nonce           TEXT    NOT NULL,
    receipt         TEXT    NOT NULL,
    by_user         TEXT,
    submitted_at    INTEGER NOT NULL,
    superseded      INTEGER NOT NULL DEFAULT 0
);
CREATE UNIQUE INDEX orders_one_live
    ON orders (campaign_id, step, seat) WHERE superseded = 0;

-- A seat's standing preferences, in the order they were set (replayed by verify).
CREATE TABLE preferences (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    campaign_id     INTEGER NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
    step            INTEGER NOT NULL,               -- the open step when it was set
    seat            INTEGER NOT NULL,
    text            TEXT    NOT NULL,
    set_at          INTEGER NOT NULL
);

CREATE TABLE events (
    campaign_id     INTEGER NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
    step            INTEGER NOT NULL,
    idx             INTEGER NOT NULL,
    event           TEXT    NOT NULL,               -- JSON engine::AnyEvent
    PRIMARY KEY (campaign_id, step, idx)
);

-- Deadlines and reminders of the open step. Handled once: fired_at is set in the
-- same transaction as what the firing did.
CREATE TABLE deadlines (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    campaign_id     INTEGER NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
    step            INTEGER NOT NULL,
    kind            TEXT    NOT NULL,               -- deadline | reminder
    due_at          INTEGER NOT NULL,
    fired_at        INTEGER
);
CREATE INDEX deadlines_due ON deadlines (due_at) WHERE fired_at IS NULL;

-- Announcements waiting for an adapter to deliver them.
CREATE TABLE outbox (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    campaign_id     INTEGER NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
    target          TEXT    NOT NULL,               -- JSON referee::Target
    payload         TEXT    NOT NULL,               -- JSON referee::Announcement
    coalesce_key    TEXT,                           -- a newer row with the same key replaces this one
    created_at      INTEGER NOT NULL,
    not_before      INTEGER NOT NULL,
    attempts        INTEGER NOT NULL DEFAULT 0,
    delivered_at    INTEGER,
    external_id     TEXT,                           -- the adapter's message id
    failed          TEXT                            -- why it was given up, if it was
);
CREATE INDEX outbox_undelivered ON outbox (not_before) WHERE delivered_at IS NULL AND failed IS NULL;

-- Coalescing a status edit looks up the older undelivered rows of the same key.
CREATE INDEX outbox_coalesce ON outbox (campaign_id, coalesce_key) WHERE delivered_at IS NULL AND failed IS NULL;
