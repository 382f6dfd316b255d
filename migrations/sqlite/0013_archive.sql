-- The archive (issue 19): `/race archive` lists a server's races, newest first, a page
-- at a time; without this it would read every race of every server.
CREATE INDEX campaigns_by_guild ON campaigns (guild, id);
