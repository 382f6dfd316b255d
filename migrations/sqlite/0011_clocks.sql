-- Clocks: a time bank per seat (issue 17, docs/time.md).

-- Each seat's bank and whether it runs in the open step, as JSON (`store::Clocks`).
ALTER TABLE campaigns ADD COLUMN clocks TEXT NOT NULL DEFAULT '{}';
