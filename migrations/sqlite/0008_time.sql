-- Time as players live it (issue 17, docs/time.md).

-- A race's calendar options as JSON: its zone, days=, quiet-cap=, nudge=.
ALTER TABLE campaigns ADD COLUMN calendar TEXT NOT NULL DEFAULT '{}';

-- A player's own zone and quiet hours (`/race me`), kept across races and servers.
CREATE TABLE user_time (
    user_id     TEXT    PRIMARY KEY,
    zone        TEXT,                   -- an IANA name or an offset; NULL: the server's
    quiet       TEXT,                   -- such as 23:00-07:00, in `zone`; NULL: none
    updated_at  INTEGER NOT NULL
);

-- A server's default zone (`/race config timezone:`).
CREATE TABLE guild_time (
    guild       TEXT    PRIMARY KEY,
    zone        TEXT    NOT NULL,
    updated_at  INTEGER NOT NULL
);
