-- The price in roubles and the deadline (unix seconds) of each current
-- record of a kind that has them (tenderbase.Measures), NULL where it has
-- none, so that a search bounds and sorts by them through an index. A
-- tender's deadline is the one its date changes give
-- (tenderbase.TenderStanding), which Put keeps current. Go fills them for
-- the records stored before, adds the lookups that came with them (okpd2,
-- cpv, placing_method, platform) and derives the participants of every
-- tender (fillMeasures, internal/postgres/measures.go).
ALTER TABLE records ADD COLUMN price double precision, ADD COLUMN deadline bigint;
-- Each index is in the order of one sort (records without the measure
-- last, ties newest first), so that a listing in that order reads the
-- index and stops at its page; the ranges of price and deadline read them
-- too.
CREATE INDEX records_price_desc ON records (kind, price DESC NULLS LAST, rid DESC);
CREATE INDEX records_price_asc ON records (kind, price ASC NULLS LAST, rid DESC);
CREATE INDEX records_deadline ON records (kind, deadline ASC NULLS LAST, rid DESC);
