-- A page by relevance (postings.Rank) reads the rids of the records of a
-- few docs, through records_kind_doc, or walks the kind's records newest
-- first and keeps those of its docs, reading the index alone.
CREATE INDEX records_kind_doc ON records (kind, doc);
DROP INDEX records_kind_rid;
CREATE INDEX records_kind_rid ON records (kind, rid, doc);
