-- Reports of a contract's execution are records of their own kind; like
-- every kind they get a full-text table.
CREATE VIRTUAL TABLE fts_contract_execution USING fts5(s, e, f, content='', contentless_delete=1, detail=full, tokenize='unicode61 remove_diacritics 0');
