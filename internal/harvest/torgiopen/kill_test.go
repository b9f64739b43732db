package torgiopen

import (
	"net/http"
	"slices"
	"testing"

	"github.com/tenderbase/tenderbase/internal/harvest"
	"github.com/tenderbase/tenderbase/internal/harvest/harvesttest"
)

// TestSyncChild is the sync that TestSyncSurvivesKill runs in a process of
// its own, and kills.
func TestSyncChild(t *testing.T) {
	harvesttest.Child(t, decoders, noon, scope, func(service string) harvest.Source { return New(Config{DataSet: service, Fetch: quick}, nil) })
}

func TestSyncSurvivesKill(t *testing.T) {
	eachStore(t, func(t *testing.T, r *harvesttest.Rig) {
		s, files := dayOfNotices(t)
		reached := make(chan struct{})
		s.Inject(fault("docs/"+files[2], func(w http.ResponseWriter, req *http.Request) {
			close(reached)
			<-req.Context().Done()
		}))
		harvesttest.Kill(t, "TestSyncChild", r, s.URL(), reached)
		if err := r.Run(t, scope, source(s)); err != nil {
			t.Fatal(err)
		}
		checkLots(t, r, lotsOf(notice1, notice2, notice3))
		if got := []int{s.Served(files[0]), s.Served(files[1]), s.Served(files[2])}; !slices.Equal(got, []int{1, 1, 1}) {
			t.Errorf("notices downloaded %v times, want each once", got)
		}
		asked := s.Requests("")
		if err := r.Run(t, scope, source(s)); err != nil {
			t.Fatal(err)
		}
		if n := s.Requests("") - asked; n != 0 {
			t.Errorf("a run after the day was completed sent %d requests, want 0", n)
		}
	})
}
