package tenderbase

import (
	"context"
	"strings"
	"unicode/utf8"
)

// Store keeps records and answers searches. The embedded SQLite store and the
// PostgreSQL store implement it and pass the same behaviour suite
// (internal/storetest), so they give the same answers to the same questions.
//
// Errors: EINVALID for a bad search (unknown kind, bad paging, a query term
// that is not text) or a record that cannot be stored, ENOTFOUND for a key
// that is not stored or was withdrawn; anything else is an internal error.
// A call whose context is cancelled or times out stops promptly, whatever
// it was reading, and returns the context's error wrapped, so that
// errors.Is(err, context.Canceled) or context.DeadlineExceeded holds.
//
// Every store holds the same text: valid UTF-8 without NUL bytes, with keys
// and lookups of at most MaxKeyBytes (Holdable). A kind, key or lookup that
// is not Holdable is found nowhere, the same on every store: Get and
// Versions answer ENOTFOUND, and a Search with such a lookup an empty page.
// Put refuses a record that holds such a key or lookup, or a NUL byte or
// invalid UTF-8 in any of its texts: EINVALID, naming the record and the
// field. Text is never cleaned silently, so that Get returns what was put.
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

// MaxKeyBytes bounds the keys and lookups a store holds. Real keys (purchase
// numbers, INNs, registry numbers, document ids) are tens of bytes; the
// bound keeps every key well within PostgreSQL's limit of an index entry
// (about 2,700 bytes), which would otherwise refuse a longer one.
const MaxKeyBytes = 1000

// Holdable reports whether every store holds s alike as a kind, a key or a
// lookup: valid UTF-8 without NUL bytes, of at most MaxKeyBytes. PostgreSQL's
// text refuses a NUL byte and invalid UTF-8, while SQLite would keep them.
func Holdable(s string) bool {
	return len(s) <= MaxKeyBytes && utf8.ValidString(s) && strings.IndexByte(s, 0) < 0
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

// ManyGetter is a store that reads many records at once, as Get reads one:
// on PostgreSQL a Get is a round trip, and the mailings read every record
// an import stored since their last round.
type ManyGetter interface {
	// GetMany returns the current records of kind k among keys, by key;
	// a key without a current record (never stored, withdrawn, or text no
	// store can hold) is missing from the map.
	GetMany(ctx context.Context, k Kind, keys []string) (map[string]Record, error)
}

// Readier is a store that says whether it can serve now: reachable, with
// the schema and index of this build. GET /ready asks it.
type Readier interface {
	Ready(ctx context.Context) error
}

// StoreAs returns the store behind st as a T (a sync log, a store of
// subscriptions, one that reads many records at once), looking through
// the wrappers that say what they wrap with Unwrap (metrics.Store).
func StoreAs[T any](st Store) (T, bool) {
	for {
		if t, ok := st.(T); ok {
			return t, true
		}
		w, ok := st.(interface{ Unwrap() Store })
		if !ok {
			var none T
			return none, false
		}
		st = w.Unwrap()
	}
}
