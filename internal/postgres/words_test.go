package postgres

import (
	"slices"
	"testing"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/postgres/pgtest"
	"github.com/tenderbase/tenderbase/internal/storetest"
)

// TestWordsInAnyCollation reads the vocabulary both ways, by the index's
// byte ranges and by the "C" collation that a database of a language's
// collation needs: both give the same words.
func TestWordsInAnyCollation(t *testing.T) {
	s, err := Open(t.Context(), pgtest.URL(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Put(t.Context(), storetest.MorphologyRecords()); err != nil {
		t.Fatal(err)
	}
	byIndex, err := s.words(t.Context(), tenderbase.KindTender, true)
	if err != nil {
		t.Fatal(err)
	}
	byCollation, err := s.words(t.Context(), tenderbase.KindTender, false)
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(byIndex)
	slices.Sort(byCollation)
	if len(byIndex) == 0 || !slices.Equal(byIndex, byCollation) {
		t.Errorf("by the index %d words, by the C collation %d: %v / %v", len(byIndex), len(byCollation), byIndex, byCollation)
	}
	for collation, want := range map[string]bool{"C": true, "C.UTF-8": true, "C.utf8": true, "POSIX": true, "en_US.utf8": false, "ru_RU.UTF-8": false} {
		if byteOrdered(collation) != want {
			t.Errorf("byteOrdered(%q) = %v, want %v", collation, !want, want)
		}
	}
}
