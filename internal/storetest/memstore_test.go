package storetest

import (
	"bytes"
	"cmp"
	"context"
	"slices"
	"sync"
	"testing"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/query"
	"github.com/tenderbase/tenderbase/internal/versioning"
)

// TestMemStore runs the suite against memStore, a store that answers every
// search by brute force with query.Match: it shows that the suite passes
// against a store that keeps the contract.
func TestMemStore(t *testing.T) {
	Run(t, func(t *testing.T) (tenderbase.Store, func(t *testing.T) tenderbase.Store) {
		m := &memStore{}
		return m, func(*testing.T) tenderbase.Store { return m }
	})
}

// memStore keeps records in memory. Records are stored as their canonical
// JSON, so that callers cannot change them afterwards and "identical" means
// byte for byte.
type memStore struct {
	mu      sync.Mutex
	seq     int
	gen     int64 // raised by every Put that changes something
	records map[tenderbase.Kind]map[string]*memRecord
	// withdrawn holds the kind and key of every record a withdrawal names.
	withdrawn map[[2]string]bool
}

type memRecord struct {
	versions [][]byte // canonical JSON, by revision, lowest first
	current  tenderbase.Record
	seq      int // when the current version was stored
}

var _ tenderbase.Store = (*memStore)(nil)

func (m *memStore) Put(ctx context.Context, rs []tenderbase.Record) (tenderbase.PutResult, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var res tenderbase.PutResult
	if m.records == nil {
		m.records = map[tenderbase.Kind]map[string]*memRecord{}
		m.withdrawn = map[[2]string]bool{}
	}
	lines := make([][]byte, len(rs))
	for i, r := range rs {
		if _, err := versioning.Encode(r); err != nil {
			return tenderbase.PutResult{}, err
		}
		var err error
		if lines[i], err = tenderbase.EncodeEnvelope(r); err != nil {
			return tenderbase.PutResult{}, err
		}
	}
	if err := ctx.Err(); err != nil {
		return tenderbase.PutResult{}, err
	}
	for i, r := range rs {
		if mr, ok := r.(tenderbase.Merger); ok {
			if e := m.records[r.Kind()][r.Key()]; e != nil && e.current != nil {
				r = mr.Merge(e.current)
				var err error
				if lines[i], err = tenderbase.EncodeEnvelope(r); err != nil {
					return res, err
				}
			}
		}
		res.Add(m.put(r, lines[i]))
	}
	if res.Changed() {
		m.gen++
	}
	return res, m.settleLots()
}

// settleLots applies every stored lot event to every stored lot.
func (m *memStore) settleLots() error {
	var events []*tenderbase.LotEvent
	for _, e := range m.records[tenderbase.KindLotEvent] {
		events = append(events, e.current.(*tenderbase.LotEvent))
	}
	for _, e := range m.records[tenderbase.KindLot] {
		applied, changed := tenderbase.ApplyLotEvents(e.current.(*tenderbase.Lot), events)
		if !changed {
			continue
		}
		line, err := tenderbase.EncodeEnvelope(applied)
		if err != nil {
			return err
		}
		m.store(applied, line)
	}
	return nil
}

// put stores r; a withdrawn record's versions are kept as history only.
func (m *memStore) put(r tenderbase.Record, line []byte) tenderbase.PutResult {
	if w, ok := r.(*tenderbase.Withdrawal); ok {
		m.withdrawn[[2]string{string(w.TargetKind), w.TargetKey}] = true
	}
	res := m.store(r, line)
	if m.isWithdrawn(r.Kind(), r.Key()) && res.Unchanged == 0 {
		return tenderbase.PutResult{Older: 1}
	}
	return res
}

func (m *memStore) isWithdrawn(k tenderbase.Kind, key string) bool {
	return m.withdrawn[[2]string{string(k), key}]
}

func (m *memStore) store(r tenderbase.Record, line []byte) tenderbase.PutResult {
	byKey := m.records[r.Kind()]
	if byKey == nil {
		byKey = map[string]*memRecord{}
		m.records[r.Kind()] = byKey
	}
	m.seq++
	e := byKey[r.Key()]
	if e == nil {
		byKey[r.Key()] = &memRecord{versions: [][]byte{line}, current: decode(line), seq: m.seq}
		return tenderbase.PutResult{Inserted: 1}
	}
	i, found := slices.BinarySearchFunc(e.versions, r.Revision(), func(v []byte, rev int) int {
		return cmp.Compare(decode(v).Revision(), rev)
	})
	switch {
	case found && bytes.Equal(e.versions[i], line):
		return tenderbase.PutResult{Unchanged: 1}
	case found:
		e.versions[i] = line
	default:
		e.versions = slices.Insert(e.versions, i, line)
	}
	if i < len(e.versions)-1 {
		return tenderbase.PutResult{Older: 1}
	}
	// A record keeps its place among those of its second, as a rid does,
	// and takes a new one when its date moves to another second.
	previous := e.current.Date().Unix()
	e.current = decode(line)
	if e.current.Date().Unix() != previous {
		e.seq = m.seq
	}
	return tenderbase.PutResult{Replaced: 1}
}

func decode(line []byte) tenderbase.Record {
	r, err := tenderbase.DecodeEnvelope(line)
	if err != nil {
		panic(err) // the line was encoded by EncodeEnvelope
	}
	return r
}

func (m *memStore) Get(_ context.Context, k tenderbase.Kind, key string) (tenderbase.Record, error) {
	if err := versioning.CheckKey(k, key); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.isWithdrawn(k, key) {
		return nil, tenderbase.Errorf(tenderbase.ENOTFOUND, "%s %q was withdrawn", k, key)
	}
	e := m.records[k][key]
	if e == nil {
		return nil, versioning.NotFound(k, key)
	}
	return decode(e.versions[len(e.versions)-1]), nil
}

func (m *memStore) Versions(_ context.Context, k tenderbase.Kind, key string) ([]tenderbase.Record, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	e := m.records[k][key]
	if e == nil {
		return nil, tenderbase.Errorf(tenderbase.ENOTFOUND, "no %s %q", k, key)
	}
	var vs []tenderbase.Record
	for _, v := range e.versions {
		vs = append(vs, decode(v))
	}
	return vs, nil
}

func (m *memStore) Search(ctx context.Context, s tenderbase.Search) (tenderbase.Page, error) {
	if _, _, err := versioning.CheckSearch(s); err != nil {
		return tenderbase.Page{}, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	var hits []*memRecord
	for key, e := range m.records[s.Kind] {
		if err := ctx.Err(); err != nil {
			return tenderbase.Page{}, err
		}
		if !m.isWithdrawn(s.Kind, key) && m.admits(s, e) {
			hits = append(hits, e)
		}
	}
	slices.SortFunc(hits, func(a, b *memRecord) int {
		if c := b.current.Date().Compare(a.current.Date()); c != 0 {
			return c
		}
		return cmp.Compare(b.seq, a.seq)
	})
	// A cursor is the date (as the key) and seq (as the rid) of the last
	// record of its page.
	after, err := versioning.DecodeCursor(s)
	if err != nil {
		return tenderbase.Page{}, err
	}
	start := min(len(hits), s.Page*s.Size())
	if after != nil {
		start = slices.IndexFunc(hits, func(e *memRecord) bool {
			d := float64(e.current.Date().Unix())
			return d < after.Key || d == after.Key && int64(e.seq) < after.RID
		})
		if start < 0 {
			start = len(hits)
		}
	}
	end := min(len(hits), start+s.Size())
	p := tenderbase.Page{Total: len(hits), Page: s.Page, PageSize: s.Size(), Items: []tenderbase.Record{}, Generation: m.gen}
	for _, e := range hits[start:end] {
		p.Items = append(p.Items, e.current)
	}
	if end < len(hits) && end > start {
		last := hits[end-1]
		p.Next = versioning.EncodeCursor(s, versioning.Cursor{RID: int64(last.seq), Key: float64(last.current.Date().Unix())})
	}
	return p, nil
}

// admits applies the query and filters to the current version and the
// lookups to every version.
func (m *memStore) admits(s tenderbase.Search, e *memRecord) bool {
	r := e.current
	if s.Query != nil && !query.MatchRecord(s.Query, r, s.OpenTextOnly) {
		return false
	}
	for _, group := range s.Filters.Groups() {
		if !slices.ContainsFunc(group, func(f string) bool { return slices.Contains(r.Flags(), f) }) {
			return false
		}
	}
	var lookups []tenderbase.Lookup
	for _, v := range e.versions {
		lookups = append(lookups, decode(v).Lookups()...)
	}
	for _, l := range s.Where {
		if !slices.Contains(lookups, l) {
			return false
		}
	}
	return true
}

func (m *memStore) Close() error { return nil }

// Aggregate answers by the reference: every current record read, every
// figure computed from the records themselves.
func (m *memStore) Aggregate(ctx context.Context, a tenderbase.Aggregation) (tenderbase.Aggregate, error) {
	if err := a.Validate(); err != nil {
		return tenderbase.Aggregate{}, err
	}
	ref, err := referenceOf(ctx, m)
	if err != nil {
		return tenderbase.Aggregate{}, err
	}
	matches, err := matchesOf(ctx, m, a.Matches())
	if err != nil {
		return tenderbase.Aggregate{}, err
	}
	return ref.aggregate(a, matches), nil
}

// Rivalry answers by the reference: every current protocol and contract
// read, every figure counted from the records themselves.
func (m *memStore) Rivalry(ctx context.Context, p tenderbase.Profiling) (tenderbase.Rivalry, error) {
	if err := p.Validate(); err != nil {
		return tenderbase.Rivalry{}, err
	}
	ref, err := referenceOf(ctx, m)
	if err != nil {
		return tenderbase.Rivalry{}, err
	}
	return ref.rivalry(p), nil
}
