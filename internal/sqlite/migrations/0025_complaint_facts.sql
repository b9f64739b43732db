-- Complaints and the results of their checks have facts too, so that an
-- aggregate counts the complaints lodged against its purchases, and their
-- outcomes, in the store (tenderbase.Complaints): a complaint's row names
-- its purchase and its number; a result's names the purchase, the number
-- of the complaint it decides and its outcome (upheld, partly_upheld,
-- dismissed). Go fills the rows of the records stored before, and the
-- facts of every kind for a database whose 0023 wrote none (fillFacts).
ALTER TABLE facts ADD COLUMN complaint TEXT;
