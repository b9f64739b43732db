-- Protocols and tender events are records of their own kinds; like every
-- kind they get a full-text table, which holds their flags.
CREATE VIRTUAL TABLE fts_protocol USING fts5(s, e, f, content='', contentless_delete=1, detail=full, tokenize='unicode61 remove_diacritics 0');
CREATE VIRTUAL TABLE fts_tender_event USING fts5(s, e, f, content='', contentless_delete=1, detail=full, tokenize='unicode61 remove_diacritics 0');
