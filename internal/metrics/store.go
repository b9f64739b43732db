package metrics

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/harvest"
	"github.com/tenderbase/tenderbase/internal/spelling"
)

// Store times the operations of the store it wraps and counts the records
// it writes. It passes the tender standings through too, which the tools
// read from a store that keeps them.
type Store struct {
	tenderbase.Store
	m *Metrics
}

// Store returns s with its operations measured.
func (m *Metrics) Store(s tenderbase.Store) *Store { return &Store{Store: s, m: m} }

// observe records the time of operation op since start, and its failure.
func (s *Store) observe(op string, start time.Time, err error) {
	s.m.storeDuration.WithLabelValues(op).Observe(time.Since(start).Seconds())
	if err != nil && tenderbase.ErrorCode(err) != tenderbase.ENOTFOUND {
		s.m.storeErrors.WithLabelValues(op).Inc()
	}
}

func (s *Store) Put(ctx context.Context, records []tenderbase.Record) (tenderbase.PutResult, error) {
	start := time.Now()
	res, err := s.Store.Put(ctx, records)
	s.observe("put", start, err)
	s.m.written.WithLabelValues("inserted").Add(float64(res.Inserted))
	s.m.written.WithLabelValues("replaced").Add(float64(res.Replaced))
	s.m.written.WithLabelValues("unchanged").Add(float64(res.Unchanged))
	return res, err
}

func (s *Store) Get(ctx context.Context, k tenderbase.Kind, key string) (tenderbase.Record, error) {
	start := time.Now()
	rec, err := s.Store.Get(ctx, k, key)
	s.observe("get", start, err)
	return rec, err
}

func (s *Store) Versions(ctx context.Context, k tenderbase.Kind, key string) ([]tenderbase.Record, error) {
	start := time.Now()
	recs, err := s.Store.Versions(ctx, k, key)
	s.observe("versions", start, err)
	return recs, err
}

func (s *Store) Search(ctx context.Context, srch tenderbase.Search) (tenderbase.Page, error) {
	start := time.Now()
	page, err := s.Store.Search(ctx, srch)
	s.observe("search", start, err)
	return page, err
}

// SearchPartial finds partial matches through the wrapped store's index
// when it has one (tenderbase.PartialSearcher).
func (s *Store) SearchPartial(ctx context.Context, srch tenderbase.Search, want int) (tenderbase.PartialPage, error) {
	ix, ok := s.Store.(tenderbase.PartialSearcher)
	if !ok {
		return tenderbase.PartialPage{}, fmt.Errorf("%T finds no partial matches from an index: %w", s.Store, errors.ErrUnsupported)
	}
	start := time.Now()
	found, err := ix.SearchPartial(ctx, srch, want)
	s.observe("partial", start, err)
	return found, err
}

// Aggregate answers an aggregation from the wrapped store
// (tenderbase.Aggregator), which both stores of the project are.
func (s *Store) Aggregate(ctx context.Context, a tenderbase.Aggregation) (tenderbase.Aggregate, error) {
	ag, ok := s.Store.(tenderbase.Aggregator)
	if !ok {
		return tenderbase.Aggregate{}, fmt.Errorf("%T computes no aggregates", s.Store)
	}
	start := time.Now()
	got, err := ag.Aggregate(ctx, a)
	s.observe("aggregate", start, err)
	return got, err
}

// standingKeeper is the store's optional reading of kept tender standings.
type standingKeeper interface {
	TenderStandings(ctx context.Context, numbers []string) (map[string]tenderbase.TenderStanding, error)
}

// TenderStandings reads the kept standings when the wrapped store keeps
// them; otherwise it returns none, and the caller derives them as it does
// for any store that does not keep them.
func (s *Store) TenderStandings(ctx context.Context, numbers []string) (map[string]tenderbase.TenderStanding, error) {
	keeper, ok := s.Store.(standingKeeper)
	if !ok {
		return map[string]tenderbase.TenderStanding{}, nil
	}
	start := time.Now()
	standings, err := keeper.TenderStandings(ctx, numbers)
	s.observe("standings", start, err)
	return standings, err
}

// Changes reads the feed of changes of the wrapped store, which every
// store of the project keeps.
func (s *Store) Changes(ctx context.Context, q tenderbase.FeedQuery) (tenderbase.FeedPage, error) {
	feed, ok := s.Store.(tenderbase.ChangeFeed)
	if !ok {
		return tenderbase.FeedPage{}, fmt.Errorf("%T keeps no feed of changes", s.Store)
	}
	start := time.Now()
	page, err := feed.Changes(ctx, q)
	s.observe("feed", start, err)
	return page, err
}

// SyncProgress records a sync run's progress; it is a harvest.Runner's
// Progress.
func (m *Metrics) SyncProgress(source string, p harvest.Progress) {
	m.syncDone.WithLabelValues(source).Set(float64(p.Done))
	m.syncPlanned.WithLabelValues(source).Set(float64(p.Total))
	m.syncFiles.WithLabelValues(source).Set(float64(p.Files))
	m.syncRecords.WithLabelValues(source).Set(float64(p.Records))
	m.syncRejected.WithLabelValues(source).Set(float64(p.Rejected))
	m.syncThrottled.WithLabelValues(source).Set(float64(p.Throttled))
	m.syncSetAside.WithLabelValues(source).Set(float64(p.SetAside))
	m.syncAsideLast.DeletePartialMatch(prometheus.Labels{"source": source})
	if p.LastSetAside != "" {
		m.syncAsideLast.WithLabelValues(source, p.LastSetAside, p.LastSetAsideError).Set(1)
	}
}

// Unwrap returns the wrapped store, so that what it does not time, such
// as its subscriptions, can be reached through it.
func (s *Store) Unwrap() tenderbase.Store { return s.Store }

// Words lists the vocabulary of the wrapped store when it lists one
// (spelling.Source); otherwise it returns none, and no query word is
// corrected.
func (s *Store) Words(ctx context.Context, k tenderbase.Kind) ([]string, error) {
	src, ok := s.Store.(spelling.Source)
	if !ok {
		return nil, nil
	}
	start := time.Now()
	words, err := src.Words(ctx, k)
	s.observe("words", start, err)
	return words, err
}
