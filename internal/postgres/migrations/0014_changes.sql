-- changes is the feed of changes (tenderbase.ChangeFeed): a row for each
-- record a write inserted, replaced, corrected or withdrew, and for each
-- tender whose derived state or deadline it changed. seq is its place:
-- every Put holds the write lock while it takes its numbers, so their
-- order is the order of commits and a reader never sees a later number
-- before an earlier one. Records stored before have no rows.
CREATE TABLE changes (
    seq      bigserial PRIMARY KEY,
    change   text      NOT NULL,
    kind     text      NOT NULL,
    key      text      NOT NULL,
    revision integer   NOT NULL DEFAULT 0,
    state    text      NOT NULL DEFAULT '',
    deadline bigint,
    at       bigint    NOT NULL
);
CREATE INDEX changes_kind_seq ON changes (kind, seq);
