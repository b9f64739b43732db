-- facts holds what each current tender, contract and protocol contributes
-- to an aggregation (tenderbase.Facts, internal/analytics): the values of
-- its dimensions and its money in minor units, NULL where the record says
-- none. Put writes the row with the record, in its transaction; Go fills
-- it for the records stored before (fillFacts, internal/sqlite/facts.go).
-- A contract or protocol finds its tender's row by purchase number.
CREATE TABLE facts (
    rid            INTEGER PRIMARY KEY REFERENCES records (rid) ON UPDATE CASCADE ON DELETE CASCADE,
    kind           TEXT    NOT NULL,
    purchase       TEXT,
    customer_inn   TEXT,
    customer_name  TEXT,
    supplier_inn   TEXT,
    supplier_name  TEXT,
    organizer_inn  TEXT,
    organizer_name TEXT,
    region         TEXT,
    okpd2          TEXT,
    method_code    TEXT,
    method         TEXT,
    law            TEXT,
    published      INTEGER NOT NULL,
    amount         INTEGER,
    currency       TEXT,
    base           INTEGER,
    bids           INTEGER,
    outcome        TEXT
);
CREATE INDEX facts_purchase ON facts (kind, purchase);
