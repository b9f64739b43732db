package sqlite

import "github.com/tenderbase/tenderbase"

// ftsTable holds the statements of one kind's full-text table. Table names
// come from tenderbase.Kinds, never from a caller, so building SQL from them
// is safe.
type ftsTable struct {
	name   string
	insert string
	delete string
}

// ftsTables maps every kind to its full-text table (migration 0001).
var ftsTables = func() map[tenderbase.Kind]ftsTable {
	m := map[tenderbase.Kind]ftsTable{}
	for _, k := range tenderbase.Kinds {
		name := "fts_" + string(k)
		m[k] = ftsTable{
			name:   name,
			insert: "INSERT INTO " + name + " (rowid, s, e, f) VALUES (?, ?, ?, ?)",
			delete: "DELETE FROM " + name + " WHERE rowid = ?",
		}
	}
	return m
}()

// searchable reports whether records of kind k have search text.
func searchable(k tenderbase.Kind) bool {
	r, err := tenderbase.NewRecord(k)
	return err == nil && r.SearchText() != nil
}
