-- Every write rewrites the last chunk of each of its terms. With pages
-- left a third empty, the new row of a chunk fits beside the old one,
-- and PostgreSQL updates it in place of an index entry (a HOT update)
-- instead of adding one to the index for every chunk of every write.
ALTER TABLE postings SET (fillfactor = 65);
