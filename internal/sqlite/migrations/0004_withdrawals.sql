-- withdrawn names the records a withdrawal record took back, by the key of
-- that withdrawal. A withdrawn record keeps its versions but has no row in
-- records, so no search or Get finds it; a row here may come before its
-- target is ever stored.
CREATE TABLE withdrawn (
    kind TEXT NOT NULL,
    key  TEXT NOT NULL,
    by   TEXT NOT NULL,
    PRIMARY KEY (kind, key, by)
) WITHOUT ROWID;

-- Withdrawals are records of their own kind; like every kind they get a
-- full-text table.
CREATE VIRTUAL TABLE fts_withdrawal USING fts5(s, e, f, content='', contentless_delete=1, detail=full, tokenize='unicode61 remove_diacritics 0');
