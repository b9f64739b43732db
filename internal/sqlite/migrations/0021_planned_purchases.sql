-- Positions of purchase plans are records of their own kind; like every
-- kind they get a full-text table.
CREATE VIRTUAL TABLE fts_planned_purchase USING fts5(s, e, ts, te, f, content='', contentless_delete=1, detail=full, tokenize='unicode61 remove_diacritics 0');
