-- facts holds what each current tender, contract and protocol contributes
-- to an aggregation (tenderbase.Facts, internal/analytics): the values of
-- its dimensions and its money in minor units, NULL where the record says
-- none. Put writes the row with the record, in its transaction; Go fills
-- it for the records stored before (fillFacts, internal/postgres/facts.go).
-- A contract or protocol finds its tender's row by purchase number. One
-- row a record, so the foreign key's check costs one probe a record
-- (lookups, of many rows a record, do without one: 0012).
CREATE TABLE facts (
    rid            bigint PRIMARY KEY REFERENCES records (rid) ON UPDATE CASCADE ON DELETE CASCADE,
    kind           text   NOT NULL,
    doc            bigint,
    purchase       text,
    customer_inn   text,
    customer_name  text,
    supplier_inn   text,
    supplier_name  text,
    organizer_inn  text,
    organizer_name text,
    region         text,
    okpd2          text,
    method_code    text,
    method         text,
    law            text,
    published      bigint NOT NULL,
    amount         bigint,
    currency       text,
    base           bigint,
    bids           integer,
    outcome        text
);
CREATE INDEX facts_purchase ON facts (kind, purchase);
-- The record's doc (records.doc), which a reindex gives anew to both:
-- the matches of words and flags come from the postings as docs, and are
-- joined to their facts here rather than through the records table's
-- wide rows.
CREATE INDEX facts_doc ON facts (kind, doc);
