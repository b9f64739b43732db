-- The end of a contract's term (unix seconds; tenderbase.Measures.Ends),
-- NULL for a record without one, so that a search bounds and sorts
-- contracts by it through an index, as by price. Go fills it for the
-- contracts stored before (fillEnds, internal/sqlite/measures.go).
ALTER TABLE measures ADD COLUMN ends INTEGER;
CREATE INDEX measures_ends ON measures (kind, ends, rid);
