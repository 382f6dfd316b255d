-- One channel post per round (issue 16): the sequential games tell a round of play in
-- one post. The steps told so far in the open round, as JSON (`referee::round`), are
-- written in the same commit as each step, so a restart mid-round loses none and posts
-- none twice. NULL between rounds.
ALTER TABLE campaigns ADD COLUMN round TEXT;
