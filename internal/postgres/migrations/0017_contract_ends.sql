-- The end of a contract's term (unix seconds; tenderbase.Measures.Ends),
-- NULL for a record without one, so that a search bounds and sorts
-- contracts by it through an index in the order of the sort (soonest
-- first, none last, ties newest first), as by deadline. Go fills it for
-- the contracts stored before (fillEnds, internal/postgres/measures.go).
ALTER TABLE records ADD COLUMN ends bigint;
CREATE INDEX records_ends ON records (kind, ends ASC NULLS LAST, rid DESC);
