-- The positions of the text of tariff fields, which only paid plans may
-- match, are labelled with the weight A in tsv; every other position keeps
-- the default weight D, which the lexemes of a free caller's query ask for
-- ('word':D). tariff marks the records that have such text: a kind none of
-- whose records has any is searched without weights, which the index
-- answers without reading a tsvector. The tsvectors written before hold
-- every text unlabelled: Go writes them anew from the current versions of
-- the records in the same transaction (reindex, internal/postgres/migrate.go).
ALTER TABLE records ADD COLUMN tariff boolean NOT NULL DEFAULT false;
CREATE INDEX records_tariff ON records (kind) WHERE tariff;
COMMENT ON COLUMN records.tsv IS 'stems and =forms of the record''s texts; positions of tariff text weighted A';
