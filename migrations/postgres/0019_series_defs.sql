-- Series opened ahead (issue 19, `/race series new`): a channel's series by name, with
-- how many races it runs and how its points are counted. `folded` is the name in lower
-- case, so "autumn cup" and "Autumn Cup" are one series. A series named only by
-- `/race new series:` has no row here: it runs open-ended on places 10-6-4-3-2-1.
CREATE TABLE series_defs (
    channel     TEXT    NOT NULL,
    folded      TEXT    NOT NULL,
    name        TEXT    NOT NULL,
    races       BIGINT  NOT NULL,
    points      TEXT    NOT NULL,
    host        TEXT    NOT NULL,
    opened_at   BIGINT  NOT NULL,
    PRIMARY KEY (channel, folded)
);
