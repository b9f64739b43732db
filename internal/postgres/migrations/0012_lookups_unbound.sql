-- lookups no longer refers to records by a foreign key. Its check ran a
-- trigger and a query for every lookup, which made the lookups of an
-- import cost twice what their rows cost; the two writes that move a
-- record's rid or remove the record (Replace of a record whose date
-- moved, Withdraw) move or delete its lookups themselves.
ALTER TABLE lookups DROP CONSTRAINT IF EXISTS lookups_rid_fkey;
