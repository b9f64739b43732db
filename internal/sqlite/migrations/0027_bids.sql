-- bids holds the participants of every current protocol that names them
-- by INN (tenderbase.BidsOf), one row each, for a supplier's profile: the
-- procedures (purchase and lot) it took part in, who else did and who
-- won. Put writes the rows with the protocol's facts, in its
-- transaction; Go fills them for the protocols stored before (fillBids,
-- internal/sqlite/bids.go), and rewrites the facts of contracts, whose
-- outcome column now keeps the contract's status.
CREATE TABLE bids (
    rid       INTEGER NOT NULL REFERENCES records (rid) ON UPDATE CASCADE ON DELETE CASCADE,
    purchase  TEXT    NOT NULL,
    lot       INTEGER NOT NULL,
    inn       TEXT    NOT NULL,
    name      TEXT,
    offer     INTEGER,
    won       INTEGER NOT NULL,
    published INTEGER NOT NULL
);
CREATE INDEX bids_inn ON bids (inn, published);
CREATE INDEX bids_procedure ON bids (purchase, lot);
CREATE INDEX bids_rid ON bids (rid);
