-- changes is the feed of changes (tenderbase.ChangeFeed): a row for each
-- record a write inserted, replaced, corrected or withdrew, and for each
-- tender whose derived state or deadline it changed, in the order the
-- writes committed. seq is its place; one writer at a time makes it the
-- order of commits. Records stored before have no rows.
CREATE TABLE changes (
    seq      INTEGER PRIMARY KEY,
    change   TEXT    NOT NULL,
    kind     TEXT    NOT NULL,
    key      TEXT    NOT NULL,
    revision INTEGER NOT NULL DEFAULT 0,
    state    TEXT    NOT NULL DEFAULT '',
    deadline INTEGER,
    at       INTEGER NOT NULL
);
CREATE INDEX changes_kind_seq ON changes (kind, seq);
