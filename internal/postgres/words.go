package postgres

import (
	"context"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/postings"
	"github.com/tenderbase/tenderbase/internal/spelling"
)

var _ spelling.Source = (*Store)(nil)

// Words returns the forms of the words the records of kind k hold, as
// spelling.Source says: the postings' terms of forms, read from the
// primary key's index in one range a column (an index-only scan, without
// the bitmaps), in one statement. The ranges are of bytes ("e " to "e!"),
// which the index holds in that order only when the database's collation
// compares bytes (C, C.UTF-8, POSIX); under a language's collation, such
// as the en_US.utf8 of the official PostgreSQL image, spaces and signs are
// ignored at first, and the same range would miss nearly every term. There
// the ranges are compared in the "C" collation, which the index cannot
// serve: the kind's terms are read whole, once for each vocabulary built.
func (s *Store) Words(ctx context.Context, k tenderbase.Kind) (_ []string, err error) {
	defer classify(&err)
	var collation string
	if err := s.pool.QueryRow(ctx, `SELECT datcollate FROM pg_database WHERE datname = current_database()`).Scan(&collation); err != nil {
		return nil, fmt.Errorf("read the database's collation: %w", err)
	}
	return s.words(ctx, k, byteOrdered(collation))
}

// words reads the words of kind k by the ranges of FormRanges, compared as
// the index orders them when byteOrder is set, else in the "C" collation.
func (s *Store) words(ctx context.Context, k tenderbase.Kind, byteOrder bool) (_ []string, err error) {
	cond := `term COLLATE "C" >= r.low AND term COLLATE "C" < r.high`
	if byteOrder {
		cond = `term >= r.low AND term < r.high`
	}
	lows, highs := make([]string, len(postings.FormRanges)), make([]string, len(postings.FormRanges))
	for i, r := range postings.FormRanges {
		lows[i], highs[i] = r.Low, r.High
	}
	rows, _ := s.pool.Query(ctx, `
		SELECT DISTINCT p.term FROM unnest($2::text[], $3::text[]) AS r (low, high)
		CROSS JOIN LATERAL (SELECT term FROM postings WHERE kind = $1 AND `+cond+`) p`,
		string(k), lows, highs)
	var words []string
	var term string
	if _, err = pgx.ForEachRow(rows, []any{&term}, func() error {
		words = append(words, postings.WordOf(term))
		return nil
	}); err != nil {
		return nil, fmt.Errorf("read the words of %s: %w", k, err)
	}
	return words, nil
}

// byteOrdered reports whether a collation orders text as its bytes.
func byteOrdered(collation string) bool {
	switch strings.ToLower(collation) {
	case "c", "posix", "c.utf-8", "c.utf8", "ucs_basic":
		return true
	}
	return false
}
