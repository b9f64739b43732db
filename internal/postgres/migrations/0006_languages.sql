-- Texts are analyzed in the language their record says (a world tender's
-- notice language) and Latin letters are folded to plain Latin (Škoda is
-- skoda), so the tsvectors of the records concerned change: Go writes them
-- anew from the current versions of the records in the same transaction
-- (reindexWhere, internal/postgres/migrate.go). The table keeps its layout.
COMMENT ON COLUMN records.tsv IS 'keys and =forms of the record''s texts, analyzed in its language; positions of tariff text weighted A';
