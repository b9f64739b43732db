package tenderbase

import "context"

// Store keeps records and answers searches. The embedded SQLite store and the
// PostgreSQL store implement it and pass the same behaviour suite
// (internal/storetest), so they give the same answers to the same questions.
//
// Errors: EINVALID for a bad search (unknown kind, bad paging), ENOTFOUND for
// a key that is not stored or was withdrawn; anything else is an internal
// error.
//
// Every reader sees every committed write, whoever wrote it: another
// process importing into the same file or database, or another server.
type Store interface {
	// Put stores records in one transaction: all of them or, on error, none.
	// A record whose kind and key are new is inserted. One with a higher
	// Revision than the stored current version replaces it; one with a lower
	// Revision is kept as an older version and changes nothing else; one equal
	// to a stored version byte for byte changes nothing at all; one with the
	// same Revision but other content replaces that version (a correction).
	//
	// A Withdrawal is stored like any record and withdraws its target: the
	// target keeps every version (Versions returns them) but is no longer
	// returned by Search or Get. A version of a withdrawn record put later,
	// before or after its withdrawal came, is kept as history only and
	// counted as Older (or Unchanged); it never becomes current.
	Put(ctx context.Context, records []Record) (PutResult, error)

	// Get returns the current version of the record of kind k with key key,
	// or ENOTFOUND, saying so, for a withdrawn record.
	Get(ctx context.Context, k Kind, key string) (Record, error)

	// Versions returns every stored version of a record, oldest first.
	Versions(ctx context.Context, k Kind, key string) ([]Record, error)

	// Search returns a page of current records, newest first by Date (records
	// of equal date: the later stored first), with the exact total. A Where
	// lookup matches the lookups of any stored version of a record, so that
	// an id an earlier version carried still finds it; the page holds the
	// current version.
	Search(ctx context.Context, s Search) (Page, error)

	// Close releases the store.
	Close() error
}

// PutResult counts what Put did with each record.
type PutResult struct {
	Inserted  int `json:"inserted"`  // new records
	Replaced  int `json:"replaced"`  // a newer version or a correction replaced the current one
	Older     int `json:"older"`     // kept as an older version only
	Unchanged int `json:"unchanged"` // already stored exactly so
}

// Changed reports whether a Put stored anything new: a record, a version
// or the lookups of one.
func (p PutResult) Changed() bool { return p.Inserted+p.Replaced+p.Older > 0 }

// Add adds the counts of r to p.
func (p *PutResult) Add(r PutResult) {
	p.Inserted += r.Inserted
	p.Replaced += r.Replaced
	p.Older += r.Older
	p.Unchanged += r.Unchanged
}
