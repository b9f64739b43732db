-- The text of tariff fields, which only paid plans may match, gets columns
-- of its own beside the text every plan sees: ts holds its stems and te its
-- exact forms, as s and e do for the rest. A search of a free caller reads
-- s and e only; a paid one reads both pairs through column filters
-- ({s ts}), within which a phrase still matches in one column, so never
-- across the two. FTS5 tables take no new columns, so every table is made
-- anew; Go fills them from the current versions of the records in the same
-- transaction (reindex, internal/sqlite/migrate.go).
DROP TABLE fts_tender;
DROP TABLE fts_doc;
DROP TABLE fts_contract;
DROP TABLE fts_world_tender;
DROP TABLE fts_org;
DROP TABLE fts_lot;
DROP TABLE fts_complaint;
DROP TABLE fts_complaint_result;
DROP TABLE fts_fas_case;
DROP TABLE fts_protocol;
DROP TABLE fts_tender_event;
DROP TABLE fts_withdrawal;
DROP TABLE fts_contract_execution;
CREATE VIRTUAL TABLE fts_tender USING fts5(s, e, ts, te, f, content='', contentless_delete=1, detail=full, tokenize='unicode61 remove_diacritics 0');
CREATE VIRTUAL TABLE fts_doc USING fts5(s, e, ts, te, f, content='', contentless_delete=1, detail=full, tokenize='unicode61 remove_diacritics 0');
CREATE VIRTUAL TABLE fts_contract USING fts5(s, e, ts, te, f, content='', contentless_delete=1, detail=full, tokenize='unicode61 remove_diacritics 0');
CREATE VIRTUAL TABLE fts_world_tender USING fts5(s, e, ts, te, f, content='', contentless_delete=1, detail=full, tokenize='unicode61 remove_diacritics 0');
CREATE VIRTUAL TABLE fts_org USING fts5(s, e, ts, te, f, content='', contentless_delete=1, detail=full, tokenize='unicode61 remove_diacritics 0');
CREATE VIRTUAL TABLE fts_lot USING fts5(s, e, ts, te, f, content='', contentless_delete=1, detail=full, tokenize='unicode61 remove_diacritics 0');
CREATE VIRTUAL TABLE fts_complaint USING fts5(s, e, ts, te, f, content='', contentless_delete=1, detail=full, tokenize='unicode61 remove_diacritics 0');
CREATE VIRTUAL TABLE fts_complaint_result USING fts5(s, e, ts, te, f, content='', contentless_delete=1, detail=full, tokenize='unicode61 remove_diacritics 0');
CREATE VIRTUAL TABLE fts_fas_case USING fts5(s, e, ts, te, f, content='', contentless_delete=1, detail=full, tokenize='unicode61 remove_diacritics 0');
CREATE VIRTUAL TABLE fts_protocol USING fts5(s, e, ts, te, f, content='', contentless_delete=1, detail=full, tokenize='unicode61 remove_diacritics 0');
CREATE VIRTUAL TABLE fts_tender_event USING fts5(s, e, ts, te, f, content='', contentless_delete=1, detail=full, tokenize='unicode61 remove_diacritics 0');
CREATE VIRTUAL TABLE fts_withdrawal USING fts5(s, e, ts, te, f, content='', contentless_delete=1, detail=full, tokenize='unicode61 remove_diacritics 0');
CREATE VIRTUAL TABLE fts_contract_execution USING fts5(s, e, ts, te, f, content='', contentless_delete=1, detail=full, tokenize='unicode61 remove_diacritics 0');
