package versioning

import (
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"math"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/query"
)

// Cursor is the place of the last record of a page in its search's order:
// its rid and the key it is sorted by (a measure or a rank; Null for a
// record without the measure, and unused newest first). The next page
// holds the records after it, found through the index of the order as
// the first page is, instead of counting past every record before it.
type Cursor struct {
	RID  int64
	Key  float64
	Null bool
}

// cursorVersion is the first byte of an encoded cursor. Version 2: the
// key of an order by relevance is the postings' score (postings.Rank), no
// longer a store's BM25 or ts_rank, so a cursor of version 1 would point
// at another place.
const cursorVersion = 2

// cursorBytes is the length of an encoded cursor: version, fingerprint,
// rid, key and its null flag.
const cursorBytes = 1 + 8 + 8 + 8 + 1

// EncodeCursor writes c as the Next of a page of s: opaque text that holds
// a fingerprint of s, so that a cursor given with another search is
// refused rather than read as a place in it.
func EncodeCursor(s tenderbase.Search, c Cursor) string {
	b := make([]byte, 0, cursorBytes)
	b = append(b, cursorVersion)
	b = binary.BigEndian.AppendUint64(b, fingerprint(s))
	b = binary.BigEndian.AppendUint64(b, uint64(c.RID))
	b = binary.BigEndian.AppendUint64(b, math.Float64bits(c.Key))
	null := byte(0)
	if c.Null {
		null = 1
	}
	return base64.RawURLEncoding.EncodeToString(append(b, null))
}

// DecodeCursor reads the cursor of s, nil when it has none. A cursor that
// this service did not write, or wrote for another search, is an EINVALID
// error that says what to do.
func DecodeCursor(s tenderbase.Search) (*Cursor, error) {
	if s.Cursor == "" {
		return nil, nil
	}
	b, err := base64.RawURLEncoding.DecodeString(s.Cursor)
	if err == nil && len(b) == cursorBytes && b[0] > 0 && b[0] < cursorVersion {
		return nil, tenderbase.Errorf(tenderbase.EINVALID,
			"the cursor was given before this service was upgraded, and no longer points at a place: repeat the search from page 0")
	}
	if err != nil || len(b) != cursorBytes || b[0] != cursorVersion || b[cursorBytes-1] > 1 {
		return nil, tenderbase.Errorf(tenderbase.EINVALID,
			"cursor %s is not one this service gave: pass the next cursor of a page unchanged, or ask for page 0", tenderbase.Quote(s.Cursor))
	}
	if binary.BigEndian.Uint64(b[1:]) != fingerprint(s) {
		return nil, tenderbase.Errorf(tenderbase.EINVALID,
			"the cursor belongs to another search: repeat the search that gave it (the same query, filters and sort), or ask for page 0")
	}
	return &Cursor{
		RID:  int64(binary.BigEndian.Uint64(b[9:])),
		Key:  math.Float64frombits(binary.BigEndian.Uint64(b[17:])),
		Null: b[25] == 1,
	}, nil
}

// fingerprint hashes what decides the records of a search and their order,
// but not the page or its size.
func fingerprint(s tenderbase.Search) uint64 {
	h := fnv.New64a()
	q := ""
	if s.Query != nil {
		q = query.Format(s.Query)
	}
	fmt.Fprintf(h, "%s\x00%s\x00%q\x00%q\x00%v\x00%s\x00%v", s.Kind, q, s.Filters.Groups(), s.Where, s.Ranges, s.Order(), s.OpenTextOnly)
	return h.Sum64()
}

// After reports whether a record, with its rid and sort key (null when it
// lacks the measure), comes after the cursor in the order o, in which
// records without the measure come last and rids, newest first, break
// ties. A rank orders ascending when rankAscending is set (SQLite's BM25,
// lower for a better match) and descending otherwise.
func (c Cursor) After(o tenderbase.Sort, rankAscending bool, rid int64, key float64, null bool) bool {
	ascending := false
	switch o {
	case tenderbase.SortNewest:
		return rid < c.RID
	case tenderbase.SortRelevance:
		ascending = rankAscending
	case tenderbase.SortPriceAsc, tenderbase.SortDeadline, tenderbase.SortEnds:
		ascending = true
	}
	switch {
	case c.Null && null:
		return rid < c.RID
	case c.Null:
		return false
	case null:
		return true
	case key == c.Key:
		return rid < c.RID
	case ascending:
		return key > c.Key
	}
	return key < c.Key
}
