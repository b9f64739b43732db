-- postings holds, for each kind and term (a word's key or form in the open
-- or the tariff text, a flag, or every record), the roaring bitmap of the
-- docs that hold it, in chunks of 65,536 docs (internal/postings): the
-- exact total of a search is counted from them. A doc is a number of its
-- kind's, given to a record when it is first indexed (records.doc) from the
-- kind's counter (doc_counters).
CREATE TABLE postings (
    kind  text    NOT NULL,
    term  text    NOT NULL,
    chunk integer NOT NULL,
    bits  bytea   NOT NULL,
    PRIMARY KEY (kind, term, chunk)
);
CREATE TABLE doc_counters (
    kind text   PRIMARY KEY,
    next bigint NOT NULL
);
ALTER TABLE records ADD COLUMN doc bigint;
CREATE INDEX records_kind_doc ON records (kind, doc);
-- The records stored before are indexed again when the store opens
-- (checkAnalysis), which gives them docs and fills postings.
DELETE FROM analysis;
-- A listing newest first walks this index and keeps the rows whose doc is
-- among a search's matches, reading the index alone (pageByDocs).
DROP INDEX records_kind_rid;
CREATE INDEX records_kind_rid ON records (kind, rid) INCLUDE (doc);
