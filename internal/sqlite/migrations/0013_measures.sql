-- measures holds the price in roubles and the deadline (unix seconds) of
-- every current record of a kind that has them (tenderbase.Measures), NULL
-- where a record has none, so that a search bounds and sorts by them
-- through an index. A tender's deadline is the one its date changes give
-- (tenderbase.TenderStanding), which Put keeps current. Go fills the table
-- for the records stored before, adds the lookups that came with it
-- (okpd2, cpv, placing_method, platform) and derives the participants of
-- every tender (fillMeasures, internal/sqlite/measures.go).
CREATE TABLE measures (
    rid      INTEGER PRIMARY KEY REFERENCES records (rid) ON UPDATE CASCADE ON DELETE CASCADE,
    kind     TEXT    NOT NULL,
    price    REAL,
    deadline INTEGER
);
CREATE INDEX measures_price ON measures (kind, price, rid);
CREATE INDEX measures_deadline ON measures (kind, deadline, rid);
