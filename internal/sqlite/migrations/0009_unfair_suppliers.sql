-- Entries of the register of unfair suppliers are records of their own
-- kind; like every kind they get a full-text table.
CREATE VIRTUAL TABLE fts_unfair_supplier USING fts5(s, e, ts, te, f, content='', contentless_delete=1, detail=full, tokenize='unicode61 remove_diacritics 0');
