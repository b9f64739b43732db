-- Texts are analyzed in the language their record says (a world tender's
-- notice language) and Latin letters are folded to plain Latin (Škoda is
-- skoda), so the full-text rows of the records concerned change: Go writes
-- them anew from the current versions of the records in the same
-- transaction (reindexLanguages, internal/sqlite/migrate.go). The tables
-- keep their layout.
SELECT 1;
