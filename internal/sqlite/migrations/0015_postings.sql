-- postings holds, for each kind and term (a word's key or form in the open
-- or the tariff text, a flag, or every record), the roaring bitmap of the
-- docs that hold it, in chunks of 65,536 docs (internal/postings): the
-- exact total of a search is counted from them. A doc is a number of its
-- kind's, given to a record when it is first indexed (records.doc) from the
-- kind's counter (kinds.docs).
CREATE TABLE postings (
    kind  TEXT    NOT NULL,
    term  TEXT    NOT NULL,
    chunk INTEGER NOT NULL,
    bits  BLOB    NOT NULL,
    UNIQUE (kind, term, chunk)
);
ALTER TABLE records ADD COLUMN doc INTEGER;
ALTER TABLE kinds ADD COLUMN docs INTEGER NOT NULL DEFAULT 0;
-- The records stored before are indexed again when the store opens
-- (checkAnalysis), which gives them docs and fills postings.
DELETE FROM analysis;
