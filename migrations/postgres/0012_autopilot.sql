-- Autopilot per seat and absence (issues 16 and 17, docs/discord.md).

-- A seat's autopilot setting: ask | auto | bot.
ALTER TABLE seats ADD COLUMN autopilot TEXT NOT NULL DEFAULT 'auto';

-- A seat's absence in this race as JSON (referee::away::Away): until when, the time
-- booked so far against the race's away-cap=, and whether the channel and host were told.
ALTER TABLE seats ADD COLUMN away TEXT;
