-- generation counts the Puts that changed anything, so that a server can
-- cache the exact total of a search for as long as the generation it read
-- in the search's own snapshot stays the same, whichever server wrote.
CREATE TABLE generation (
    one boolean PRIMARY KEY DEFAULT true CHECK (one),
    n   bigint  NOT NULL
);
INSERT INTO generation (n) VALUES (0);
