-- Quotas and limits (docs/reliability.md, "Quotas").

-- A seat the host offered to another member, until that member accepts it with the
-- offer's button; the seat stays as it was meanwhile.
ALTER TABLE seats ADD COLUMN offer_to TEXT;

-- The quotas count open races by host and by server.
CREATE INDEX campaigns_open_by_host ON campaigns (host) WHERE phase IN ('lobby', 'running', 'paused');
CREATE INDEX campaigns_open_by_guild ON campaigns (guild) WHERE phase IN ('lobby', 'running', 'paused');

-- A changed order keeps only the newest superseded rows of its seat and step: the
-- pruning looks them up here.
CREATE INDEX orders_by_seat ON orders (campaign_id, step, seat, id);
