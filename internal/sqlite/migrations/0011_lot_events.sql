-- Events of auction lots (cancellations of fedresurs messages) are records
-- of their own kind; like every kind they get a full-text table.
CREATE VIRTUAL TABLE fts_lot_event USING fts5(s, e, ts, te, f, content='', contentless_delete=1, detail=full, tokenize='unicode61 remove_diacritics 0');
