-- Work that must happen once, claimed across processes (leases with expiry, in the
-- referee's clock; see src/store/mod.rs), and the processes' own reports for
-- `photofinish health`.

-- A deadline being handled: whoever holds an unexpired claim fires it; fired_at still
-- decides whether it was handled.
ALTER TABLE deadlines ADD COLUMN claimed_by TEXT;
ALTER TABLE deadlines ADD COLUMN claim_until INTEGER;

-- Who is delivering a campaign's outbox, until when. One holder per campaign keeps its
-- announcements in order; a holder that dies is replaced once `lease_until` has passed.
CREATE TABLE outbox_leases (
    campaign_id     INTEGER PRIMARY KEY REFERENCES campaigns (id) ON DELETE CASCADE,
    holder          TEXT    NOT NULL,
    lease_until     INTEGER NOT NULL
);

-- Each running bot process's latest report (its gateway's state), for `photofinish health`.
CREATE TABLE processes (
    instance        TEXT    PRIMARY KEY,            -- the process's name (default: host name)
    gateway         TEXT    NOT NULL,               -- connecting | connected | resuming | disconnected | ...
    shards          TEXT    NOT NULL,               -- e.g. "0-1 of 4"
    detail          TEXT    NOT NULL DEFAULT '',
    started_at      INTEGER NOT NULL,
    beat_at         INTEGER NOT NULL                -- when it last reported (system clock)
);
