-- Reliability (docs/reliability.md): races stopped for a stored row that does not decode,
-- format versions of stored state and events, deadline retries that back off, delivery
-- errors kept for the operator, the workers' supervision, and interaction ids claimed once
-- across processes.

-- A race stopped because one of its rows does not decode (or carries a format this binary
-- does not know). Deadlines of a quarantined race are not claimed; its host and channel
-- are told once (`told_at`). No foreign key: the campaign row may be the unreadable one.
CREATE TABLE quarantine (
    campaign_id     BIGINT  PRIMARY KEY,
    reason          TEXT    NOT NULL,               -- table, row and the underlying error
    at              BIGINT  NOT NULL,
    told_at         BIGINT                          -- when the notice was queued
);

-- The format of the stored game state and events; a row newer than the binary knows is
-- quarantined, not misread. Rows written before this migration are format 1.
ALTER TABLE campaigns ADD COLUMN state_format BIGINT  NOT NULL DEFAULT 1;
ALTER TABLE events ADD COLUMN format BIGINT  NOT NULL DEFAULT 1;

-- A deadline that failed to fire for a passing reason is tried again later, each time
-- later (capped), instead of at once.
ALTER TABLE deadlines ADD COLUMN failures BIGINT  NOT NULL DEFAULT 0;

-- The last reason a delivery was retried.
ALTER TABLE outbox ADD COLUMN last_error TEXT;

-- Each process's supervised workers, for `photofinish health`.
CREATE TABLE workers (
    instance        TEXT    NOT NULL,
    worker          TEXT    NOT NULL,               -- deadlines | delivery | heartbeat ...
    state           TEXT    NOT NULL,               -- running | down | stopped
    restarts        BIGINT  NOT NULL DEFAULT 0,
    last_panic      TEXT,
    at              BIGINT  NOT NULL,               -- when the state last changed (system clock)
    PRIMARY KEY (instance, worker)
);

-- Interaction ids handled, so that two processes never apply one interaction twice.
CREATE TABLE interactions (
    id              TEXT    PRIMARY KEY,
    expires_at      BIGINT  NOT NULL
);
CREATE INDEX interactions_expiry ON interactions (expires_at);
