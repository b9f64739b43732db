package versioning

import (
	"slices"
	"time"

	"github.com/tenderbase/tenderbase"
)

// CheckFeed refuses a query of the feed no store can answer: no kinds, an
// unknown kind, a negative position or a limit out of 1..MaxFeedPage.
func CheckFeed(q tenderbase.FeedQuery) error {
	if len(q.Kinds) == 0 {
		return tenderbase.Errorf(tenderbase.EINVALID, "the feed is read for at least one kind")
	}
	for _, k := range q.Kinds {
		if !slices.Contains(tenderbase.Kinds, k) {
			return tenderbase.Errorf(tenderbase.EINVALID, "unknown kind %s", tenderbase.Quote(string(k)))
		}
	}
	if q.After < 0 {
		return tenderbase.Errorf(tenderbase.EINVALID, "a position in the feed is never negative")
	}
	if q.Limit < 1 || q.Limit > tenderbase.MaxFeedPage {
		return tenderbase.Errorf(tenderbase.EINVALID, "a page of the feed holds 1 to %d changes, not %d", tenderbase.MaxFeedPage, q.Limit)
	}
	return nil
}

// FeedKinds returns the kinds of q as one text, for a store's query.
func FeedKinds(q tenderbase.FeedQuery) []string {
	out := make([]string, len(q.Kinds))
	for i, k := range q.Kinds {
		out[i] = string(k)
	}
	return out
}

// FeedRow is an entry of the feed as both stores keep it.
type FeedRow struct {
	Seq      int64
	Change   string
	Kind     string
	Key      string
	Revision int
	State    string
	Deadline *int64 // unix seconds, or none
	At       int64  // unix seconds
}

// Row returns the row that keeps e, recorded at.
func Row(e tenderbase.FeedEntry, at time.Time) FeedRow {
	r := FeedRow{Change: string(e.Type), Kind: string(e.Kind), Key: e.Key, Revision: e.Revision, State: e.State, At: at.Unix()}
	if !e.Deadline.IsZero() {
		d := e.Deadline.Unix()
		r.Deadline = &d
	}
	return r
}

// Entry returns the entry r keeps.
func (r FeedRow) Entry() tenderbase.FeedEntry {
	e := tenderbase.FeedEntry{Seq: r.Seq, Type: tenderbase.FeedChange(r.Change), Kind: tenderbase.Kind(r.Kind), Key: r.Key,
		Revision: r.Revision, State: r.State, At: time.Unix(r.At, 0).UTC()}
	if r.Deadline != nil {
		e.Deadline = time.Unix(*r.Deadline, 0).UTC()
	}
	return e
}

// FeedPage returns the page of rows read for q, which asked for one row
// more than its limit to tell whether more follow.
func FeedPage(q tenderbase.FeedQuery, rows []FeedRow) tenderbase.FeedPage {
	p := tenderbase.FeedPage{Last: q.After, More: len(rows) > q.Limit}
	rows = rows[:min(len(rows), q.Limit)]
	for _, r := range rows {
		p.Entries = append(p.Entries, r.Entry())
		p.Last = r.Seq
	}
	return p
}

// FeedNotes holds the entries of the feed that a write transaction notes
// (Tx.Changed), for its store to write just before it commits.
type FeedNotes struct{ Entries []tenderbase.FeedEntry }

// Add notes entries, after those noted before.
func (n *FeedNotes) Add(e ...tenderbase.FeedEntry) { n.Entries = append(n.Entries, e...) }

// Take returns the entries noted and forgets them.
func (n *FeedNotes) Take() []tenderbase.FeedEntry {
	e := n.Entries
	n.Entries = nil
	return e
}
