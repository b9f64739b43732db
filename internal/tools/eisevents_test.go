package tools

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/eis"
	"github.com/tenderbase/tenderbase/internal/importer"
)

// eisSet returns the tools over a new store holding recs and the EIS event
// fixtures files of internal/eis, imported as `tenderbase import` reads
// them.
func eisSet(t *testing.T, files []string, recs ...tenderbase.Record) *Set {
	t.Helper()
	store := storeOf(t, recs...)
	var paths []string
	for _, f := range files {
		paths = append(paths, filepath.Join("..", "eis", "testdata", "event", f))
	}
	sum, err := importer.Import(context.Background(), store, paths, importer.Options{Decoders: []importer.Decoder{eis.Format{}}})
	if err != nil || sum.Rejected != 0 || sum.Records == 0 {
		t.Fatalf("import of %v: %+v, %v", files, sum, err)
	}
	return New(store, nil)
}

// TestClosedCancellation: the cancellation of a closed procedure cancels
// the tender as an open one's does, and its failure undoes it.
func TestClosedCancellation(t *testing.T) {
	const number = "0373200041526000017"
	const cancel = "epClosedNotificationCancel_0373200041526000017_61455102.xml"
	const failure = "epClosedNotificationCancelFailure_0373200041526000017_61460388.xml"
	for _, c := range []struct {
		files       []string
		state, from string
	}{
		{[]string{cancel}, tenderbase.TenderCancelled, "tender_event epClosedNotificationCancel-61455102 (cancellation)"},
		{[]string{failure, cancel}, tenderbase.TenderActive, "tender " + number + " (version 1)"},
	} {
		got := detailState(t, eisSet(t, c.files, notice(number, tenderbase.TenderActive)), number)
		if got.State != c.state || got.StateFrom != c.from || len(got.Events) != len(c.files) {
			t.Errorf("%v: state %q from %q, %d events; want %q from %q, %d", c.files, got.State, got.StateFrom, len(got.Events), c.state, c.from, len(c.files))
		}
	}
}
