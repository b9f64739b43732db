-- Records, every version of them, the keys they are found by, and the
-- withdrawals that took records back.

-- versions holds the canonical JSON of every version ever stored; a body is
-- stored once, here, and the current record points at it. bytea keeps the
-- body byte for byte, which "unchanged" is judged by.
CREATE TABLE versions (
    id       bigserial PRIMARY KEY,
    kind     text   NOT NULL,
    key      text   NOT NULL,
    revision bigint NOT NULL,
    hash     bytea  NOT NULL, -- SHA-256 of body
    body     bytea  NOT NULL,
    UNIQUE (kind, key, revision)
);

-- records holds the current version of each record under its date-ordered
-- key rid (unix seconds of its date << 22 | sequence), so that newest first
-- is ORDER BY rid DESC, in the same order as the SQLite store. tsv holds the
-- stems and the exact forms ('=' and the form) at the same positions, written
-- by Go (internal/textproc); lossy marks a tsvector that lost positions to
-- PostgreSQL's limits (16383 positions, 256 per lexeme), whose phrase
-- matches are checked in Go.
CREATE TABLE records (
    rid     bigint   PRIMARY KEY,
    kind    text     NOT NULL,
    key     text     NOT NULL,
    version bigint   NOT NULL REFERENCES versions (id),
    flags   text[]   NOT NULL,
    tsv     tsvector NOT NULL,
    lossy   boolean  NOT NULL,
    UNIQUE (kind, key)
);
CREATE INDEX records_kind_rid ON records (kind, rid);
CREATE INDEX records_tsv ON records USING gin (tsv);
CREATE INDEX records_lossy ON records (kind) WHERE lossy;
-- With the default statistics target the planner walked the date index for
-- a rare word: 1.4 s instead of 0.36 ms (docs/SEARCH.md).
ALTER TABLE records ALTER COLUMN tsv SET STATISTICS 1000;

-- lookups holds the exact keys of every version a record ever had, pointing
-- at its current rid; the cascades follow a record whose date changed and
-- drop the keys of a withdrawn one.
CREATE TABLE lookups (
    kind  text   NOT NULL,
    field text   NOT NULL,
    value text   NOT NULL,
    rid   bigint NOT NULL REFERENCES records (rid) ON UPDATE CASCADE ON DELETE CASCADE,
    PRIMARY KEY (kind, field, value, rid)
);
CREATE INDEX lookups_rid ON lookups (rid);

-- withdrawn names the records a withdrawal record took back, by the key of
-- that withdrawal. A withdrawn record keeps its versions but has no row in
-- records, so no search or Get finds it; a row here may come before its
-- target is ever stored.
CREATE TABLE withdrawn (
    kind text NOT NULL,
    key  text NOT NULL,
    by   text NOT NULL,
    PRIMARY KEY (kind, key, by)
);
