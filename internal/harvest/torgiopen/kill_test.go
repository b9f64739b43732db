package torgiopen

import (
	"net/http"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/tenderbase/tenderbase/internal/harvest/harvesttest"
)

// The environment of the process TestSyncSurvivesKill starts: the store
// to sync into and the service to sync from.
const (
	childDriver  = "TORGIOPEN_TEST_DRIVER"
	childDSN     = "TORGIOPEN_TEST_DSN"
	childService = "TORGIOPEN_TEST_SERVICE"
)

// TestSyncChild is the sync that TestSyncSurvivesKill runs in a process of
// its own, and kills.
func TestSyncChild(t *testing.T) {
	driver := os.Getenv(childDriver)
	if driver == "" {
		t.Skip("run by TestSyncSurvivesKill")
	}
	r := harvesttest.NewRig(t, driver, os.Getenv(childDSN), decoders)
	r.Runner.Now = func() time.Time { return noon }
	src := New(Config{DataSet: os.Getenv(childService), Fetch: quick}, nil)
	err := r.Run(t, scope, src)
	t.Errorf("the sync ended before it was killed: %v", err)
}

func TestSyncSurvivesKill(t *testing.T) {
	eachStore(t, func(t *testing.T, r *harvesttest.Rig) {
		s, files := dayOfNotices(t)
		reached := make(chan struct{})
		s.Inject(fault("docs/"+files[2], func(w http.ResponseWriter, req *http.Request) {
			close(reached)
			<-req.Context().Done()
		}))
		harvesttest.KillChild(t, "TestSyncChild", []string{childDriver + "=" + r.Driver, childDSN + "=" + r.DSN, childService + "=" + s.URL()}, reached)
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
