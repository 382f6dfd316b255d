-- Beyond one race (issue 19): series, hidden statistics and rematches.

-- A race counts toward at most one series, named in its channel (`/race new series:`);
-- a series is the channel's races under one name.
CREATE TABLE race_series (
    campaign    BIGINT  PRIMARY KEY,
    channel     TEXT    NOT NULL,
    name        TEXT    NOT NULL
);
CREATE INDEX race_series_by_name ON race_series (channel, name, campaign);

-- Players who hide their statistics from others (`/race archive hide:True`).
CREATE TABLE stats_hidden (
    user_id     TEXT    PRIMARY KEY,
    at          BIGINT  NOT NULL
);

-- The Rematch button's claim: one row per finished race, so that two presses (or two
-- processes) open one lobby. `rematch` is NULL while the lobby is being opened.
CREATE TABLE rematches (
    campaign    BIGINT  PRIMARY KEY,
    rematch     BIGINT,
    claimed_at  BIGINT  NOT NULL
);
