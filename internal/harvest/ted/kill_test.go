package ted

import (
	"net/http"
	"testing"

	"github.com/tenderbase/tenderbase/internal/harvest"
	"github.com/tenderbase/tenderbase/internal/harvest/harvesttest"
	"github.com/tenderbase/tenderbase/internal/harvest/ted/tedtest"
)

// TestSyncChild is the sync that TestSyncSurvivesKill runs in a process of
// its own, and kills.
func TestSyncChild(t *testing.T) {
	harvesttest.Child(t, decoders, noon, scope, func(service string) harvest.Source {
		return New(Config{Search: service, PageSize: 3, Fetch: quick}, nil)
	})
}

// A sync killed with SIGKILL in the middle of a day, on the second page's
// first notice, is resumed by the next run: each notice downloaded once,
// stored once.
func TestSyncSurvivesKill(t *testing.T) {
	eachStore(t, func(t *testing.T, r *harvesttest.Rig) {
		s := tedtest.New(t)
		publish(t, s, theDay, dayOfNotices...)
		reached := make(chan struct{})
		s.Inject(fault("notice/"+tedCAN.number, func(w http.ResponseWriter, req *http.Request) {
			close(reached)
			<-req.Context().Done()
		}))
		harvesttest.Kill(t, "TestSyncChild", r, s.URL(), reached)
		if err := r.Run(t, scope, source(s)); err != nil {
			t.Fatal(err)
		}
		checkOnce(t, r, s, dayOfNotices...)
	})
}
