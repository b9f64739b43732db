-- generation counts the Puts that changed anything. A search reads it in its
-- own read transaction, before it counts, so that a total cached under a
-- generation is served only while no process has written since: an import
-- run by another process while the server runs is seen at once.
CREATE TABLE generation (
    one INTEGER PRIMARY KEY CHECK (one = 1),
    n   INTEGER NOT NULL
);
INSERT INTO generation (one, n) VALUES (1, 0);
