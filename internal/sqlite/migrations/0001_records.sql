-- Records, every version of them, the keys they are found by, and one
-- contentless full-text table per kind.

-- versions holds the canonical JSON of every version ever stored; a body is
-- stored once, here, and the current record points at it.
CREATE TABLE versions (
    id       INTEGER PRIMARY KEY,
    kind     TEXT    NOT NULL,
    key      TEXT    NOT NULL,
    revision INTEGER NOT NULL,
    hash     BLOB    NOT NULL, -- SHA-256 of body
    body     BLOB    NOT NULL,
    UNIQUE (kind, key, revision)
);

-- records holds the current version of each record under its date-ordered
-- key rid (unix seconds of its date << 22 | sequence), so that newest first
-- is ORDER BY rid DESC and the full-text tables can use rid as their rowid.
CREATE TABLE records (
    rid     INTEGER PRIMARY KEY,
    kind    TEXT    NOT NULL,
    key     TEXT    NOT NULL,
    version INTEGER NOT NULL REFERENCES versions (id),
    UNIQUE (kind, key)
);
CREATE INDEX records_kind_rid ON records (kind, rid);

-- lookups holds the exact keys of every version a record ever had, pointing
-- at its current rid; the cascade follows a record whose date changed. The
-- primary key lists one key's records in rid order, newest first backwards.
CREATE TABLE lookups (
    kind  TEXT    NOT NULL,
    field TEXT    NOT NULL,
    value TEXT    NOT NULL,
    rid   INTEGER NOT NULL REFERENCES records (rid) ON UPDATE CASCADE,
    PRIMARY KEY (kind, field, value, rid)
) WITHOUT ROWID;
CREATE INDEX lookups_rid ON lookups (rid);

-- kinds counts the records of each kind, so that the total of an
-- unfiltered listing costs nothing.
CREATE TABLE kinds (
    kind    TEXT    PRIMARY KEY,
    records INTEGER NOT NULL
) WITHOUT ROWID;

-- One full-text table per kind, rowid = rid. Column s holds stems, e the
-- exact forms at the same positions, f the filter flags. Text is analyzed in
-- Go (internal/textproc); unicode61 only splits on the spaces Go put there.
-- Kinds without search text still get a table, for their flags, so that
-- filters work the same way for every kind.
CREATE VIRTUAL TABLE fts_tender USING fts5(s, e, f, content='', contentless_delete=1, detail=full, tokenize='unicode61 remove_diacritics 0');
CREATE VIRTUAL TABLE fts_doc USING fts5(s, e, f, content='', contentless_delete=1, detail=full, tokenize='unicode61 remove_diacritics 0');
CREATE VIRTUAL TABLE fts_contract USING fts5(s, e, f, content='', contentless_delete=1, detail=full, tokenize='unicode61 remove_diacritics 0');
CREATE VIRTUAL TABLE fts_world_tender USING fts5(s, e, f, content='', contentless_delete=1, detail=full, tokenize='unicode61 remove_diacritics 0');
CREATE VIRTUAL TABLE fts_org USING fts5(s, e, f, content='', contentless_delete=1, detail=full, tokenize='unicode61 remove_diacritics 0');
CREATE VIRTUAL TABLE fts_lot USING fts5(s, e, f, content='', contentless_delete=1, detail=full, tokenize='unicode61 remove_diacritics 0');
CREATE VIRTUAL TABLE fts_complaint USING fts5(s, e, f, content='', contentless_delete=1, detail=full, tokenize='unicode61 remove_diacritics 0');
CREATE VIRTUAL TABLE fts_complaint_result USING fts5(s, e, f, content='', contentless_delete=1, detail=full, tokenize='unicode61 remove_diacritics 0');
CREATE VIRTUAL TABLE fts_fas_case USING fts5(s, e, f, content='', contentless_delete=1, detail=full, tokenize='unicode61 remove_diacritics 0');
