package harvesttest

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/harvest"
	"github.com/tenderbase/tenderbase/internal/importer"
	"github.com/tenderbase/tenderbase/internal/postgres/pgtest"
)

// Suite is what the fault suite and the kills need of one source's
// tests: a recorded service holding a run's worth of the source's data,
// the source over it, and where each fault falls. Every source runs the
// same suite (Suite.Faults, Suite.Kills); docs/sync.md has the table of
// sources and faults, and says why a cell is empty.
type Suite struct {
	Decoders []importer.Decoder
	Now      time.Time // the runs' clock
	Scope    harvest.Scope
	// Serve starts a recorded service of its own, holding the data, and
	// returns its faults and the address a source is configured with.
	Serve func(t *testing.T) (*Faults, string)
	// Source returns the source over the service at address, which
	// retries at once (Quick) and waits for nothing.
	Source func(address string) harvest.Source

	// Answer is the prefix of a request that a run sends once and whose
	// answer it must have: the faults of the wire fall on it.
	Answer string
	// Cut is how the answer at Answer begins: a body cut short sends it
	// and drops the connection.
	Cut string
	// Corrupt answers at Answer with a 200 that is not the answer asked:
	// a page of HTML, a document cut, an archive without its directory.
	// The source asks again.
	Corrupt func(http.ResponseWriter, *http.Request)
	// Archive is the prefix of a request answered with an archive, and
	// CorruptArchive that archive damaged; "" for a source that reads no
	// archive.
	Archive        string
	CorruptArchive func(http.ResponseWriter, *http.Request)
	// Blocked answers as the publisher does a download it refuses for a
	// while, which the source waits out; nil where the publisher has no
	// such answer.
	Blocked func(http.ResponseWriter, *http.Request)
	// Failing is the prefix of the requests of one partition that fails
	// every attempt of every run, answered with FailingAnswer. A record
	// whose "kind/key" holds one of Holds is the partition's, missing
	// while it fails; every other record is stored.
	Failing       string
	FailingAnswer func(http.ResponseWriter, *http.Request)
	Holds         []string
	// Whole says the failing partition is all that a run loads (a
	// release of the whole register): while it fails there is no rest to
	// go on, and the data stays current to what was loaded before it.
	Whole bool
}

// Snapshot is what a store holds, as a user reads it: each record,
// "kind/key", in its canonical JSON with the number of its versions.
type Snapshot map[string]string

var serviceAddress = regexp.MustCompile(`http://127\.0\.0\.1:[0-9]+`)

// Snapshot returns what r's store holds.
func (r *Rig) Snapshot(t *testing.T) Snapshot {
	t.Helper()
	ctx := context.Background()
	snap := Snapshot{}
	for _, kind := range tenderbase.Kinds {
		search := tenderbase.Search{Kind: kind, PageSize: 100}
		for {
			page, err := r.Store.Search(ctx, search)
			if err != nil {
				t.Fatal(err)
			}
			for _, rec := range page.Items {
				versions, err := r.Store.Versions(ctx, kind, rec.Key())
				if err != nil {
					t.Fatal(err)
				}
				raw, err := json.Marshal(rec)
				if err != nil {
					t.Fatal(err)
				}
				// Each test's recorded service listens on a port of its
				// own, and records link to it.
				raw = serviceAddress.ReplaceAll(raw, []byte("http://service"))
				snap[string(kind)+"/"+rec.Key()] = fmt.Sprintf("%d versions %s", len(versions), raw)
			}
			if page.Next == "" {
				break
			}
			search.Cursor = page.Next
		}
	}
	return snap
}

// without returns the snapshot less the records whose "kind/key" holds
// one of gone.
func (s Snapshot) without(gone []string) Snapshot {
	rest := Snapshot{}
	for k, v := range s {
		if !slices.ContainsFunc(gone, func(g string) bool { return strings.Contains(k, g) }) {
			rest[k] = v
		}
	}
	return rest
}

// eachDriver runs test for SQLite and for PostgreSQL, with a maker of
// fresh stores of that driver.
func (s Suite) eachDriver(t *testing.T, test func(t *testing.T, fresh func(t *testing.T) *Rig)) {
	for _, driver := range []string{"sqlite", "postgres"} {
		t.Run(driver, func(t *testing.T) {
			test(t, func(t *testing.T) *Rig {
				dsn := filepath.Join(t.TempDir(), "store.db")
				if driver == "postgres" {
					dsn = pgtest.URL(t)
				}
				r := NewRig(t, driver, dsn, s.Decoders)
				r.Runner.Now = func() time.Time { return s.Now }
				return r
			})
		})
	}
}

// clean is an uninterrupted run without faults: what the store then
// holds, its state, and the requests it sent.
type clean struct {
	snap     Snapshot
	state    tenderbase.SyncState
	requests func(prefix string) int
}

func (s Suite) clean(t *testing.T, r *Rig) clean {
	t.Helper()
	faults, address := s.Serve(t)
	if err := r.Run(t, s.Scope, s.Source(address)); err != nil {
		t.Fatalf("a run without faults: %v", err)
	}
	snap := r.Snapshot(t)
	if len(snap) == 0 {
		t.Fatal("a run without faults stored nothing: the suite would test nothing")
	}
	return clean{snap: snap, state: r.State(t), requests: faults.Count}
}

// Faults runs the fault suite: each fault of the wire and of the bodies,
// once, is asked again and the run ends as an uninterrupted one does; a
// partition failing every day is set aside and the rest goes on. Each
// case runs on SQLite and on PostgreSQL.
func (s Suite) Faults(t *testing.T) {
	s.eachDriver(t, func(t *testing.T, fresh func(t *testing.T) *Rig) {
		ref := s.clean(t, fresh(t))
		once := []struct {
			name   string
			prefix string
			do     func(http.ResponseWriter, *http.Request)
		}{
			{"timeout", s.Answer, Slow},
			{"429", s.Answer, Status(http.StatusTooManyRequests)},
			{"500", s.Answer, Status(http.StatusInternalServerError)},
			{"502", s.Answer, Status(http.StatusBadGateway)},
			{"503", s.Answer, Unavailable},
			{"cut body", s.Answer, Truncated(s.Cut)},
			{"corrupt body", s.Answer, s.Corrupt},
			{"corrupt archive", s.Archive, s.CorruptArchive},
			{"blocked download", s.Archive, s.Blocked},
		}
		for _, c := range once {
			t.Run(c.name, func(t *testing.T) {
				t.Parallel()
				if c.prefix == "" || c.do == nil {
					t.Skip("the source has no such answer: docs/sync.md says why")
				}
				r := fresh(t)
				faults, address := s.Serve(t)
				faults.Inject(Fault{Prefix: c.prefix, Do: c.do})
				if err := r.Run(t, s.Scope, s.Source(address)); err != nil {
					t.Fatalf("run through one %s: %v", c.name, err)
				}
				// At least: on a busy machine another attempt may time out
				// too.
				if got, want := faults.Count(c.prefix), ref.requests(c.prefix)+1; got < want {
					t.Errorf("%s asked %d times, want %d: once more than without the fault", c.prefix, got, want)
				}
				if diff := cmp.Diff(ref.snap, r.Snapshot(t)); diff != "" {
					t.Errorf("the store after one %s (-uninterrupted +got):\n%s", c.name, diff)
				}
				if st := r.State(t); st.LastError != "" || !st.Through.Equal(ref.state.Through) || st.SetAside != 0 {
					t.Errorf("state %+v, want no error, nothing set aside, current to %s", st, ref.state.Through)
				}
			})
		}
		t.Run("partition failing every day", func(t *testing.T) {
			t.Parallel()
			s.failingEveryDay(t, fresh(t), ref)
		})
	})
}

// failingEveryDay runs a day after day while one partition fails every
// attempt: it is set aside, asked again once a day, named in the status,
// and the rest of the data is stored and current as without it; once the
// publisher answers, it is mended.
func (s Suite) failingEveryDay(t *testing.T, r *Rig, ref clean) {
	faults, address := s.Serve(t)
	faults.Inject(Fault{Prefix: s.Failing, Do: s.FailingAnswer, Every: true})
	now := s.Now
	r.Runner.Now = func() time.Time { return now }
	want := ref.snap.without(s.Holds)
	for day := range 3 {
		asked := faults.Count(s.Failing)
		err := r.Run(t, s.Scope, s.Source(address))
		if day == 0 && (err == nil || !strings.Contains(err.Error(), "set aside")) {
			t.Fatalf("first run: %v, want the partition's failure, set aside", err)
		}
		if faults.Count(s.Failing) == asked {
			t.Errorf("day %d: the failing partition was not asked again", day)
		}
		st := r.State(t)
		if st.SetAside != 1 || st.LastSetAside == "" {
			t.Errorf("day %d: state %+v, want the partition set aside and named", day, st)
		}
		if !s.Whole && st.Through.Before(ref.state.Through) {
			t.Errorf("day %d: current to %s, want %s as without the failure: the rest went on", day, st.Through, ref.state.Through)
		}
		if diff := cmp.Diff(want, r.Snapshot(t)); diff != "" {
			t.Errorf("day %d: the store (-uninterrupted less the failing partition +got):\n%s", day, diff)
		}
		now = now.Add(24 * time.Hour)
	}
	faults.Clear()
	if err := r.Run(t, s.Scope, s.Source(address)); err != nil {
		t.Fatalf("the run after the publisher mended the partition: %v", err)
	}
	if diff := cmp.Diff(ref.snap, r.Snapshot(t)); diff != "" {
		t.Errorf("the store once mended (-uninterrupted +got):\n%s", diff)
	}
	if st := r.State(t); st.SetAside != 0 || st.LastError != "" {
		t.Errorf("state once mended %+v, want nothing set aside", st)
	}
}

// KillRounds is how many times in a row Kills kills a sync.
const KillRounds = 10

// Kills kills a sync with SIGKILL KillRounds times in a row, each run
// resumed by the next and killed at a request drawn at random, then lets
// one run end; the store then holds what an uninterrupted run stores,
// each record once, and the state is that run's. child names the test of
// the same binary that calls s.Child. Run on SQLite and on PostgreSQL.
func (s Suite) Kills(t *testing.T, child string) {
	s.eachDriver(t, func(t *testing.T, fresh func(t *testing.T) *Rig) {
		ref := s.clean(t, fresh(t))
		r := fresh(t)
		faults, address := s.Serve(t)
		seed := uint64(time.Now().UnixNano())
		rng := rand.New(rand.NewPCG(seed, 0))
		// The first kill falls at a request drawn from all of an
		// uninterrupted run's; each next one from the first half of those
		// the run before sent, as a run resumed sends fewer. A run that
		// sends fewer than drawn ends: the point fell at its end.
		span, killed, points := ref.requests(""), 0, []int{}
		for range KillRounds {
			at := rng.IntN(max(span, 1)) + 1
			before := faults.Count("")
			if kill(t, child, r, address, faults.HoldAt(at), true) {
				killed++
				points = append(points, at)
			} else {
				points = append(points, -at)
			}
			faults.Clear()
			span = faults.Count("") - before - 1
		}
		t.Logf("seed %d: %d of %d runs killed, at the requests %v of each run (negative: the run ended first)", seed, killed, KillRounds, points)
		if err := r.Run(t, s.Scope, s.Source(address)); err != nil {
			t.Fatalf("the run after the kills: %v", err)
		}
		if diff := cmp.Diff(ref.snap, r.Snapshot(t)); diff != "" {
			t.Errorf("the store after the kills (-uninterrupted +got):\n%s", diff)
		}
		if st := r.State(t); st.LastError != "" || !st.Through.Equal(ref.state.Through) || st.SetAside != 0 {
			t.Errorf("state after the kills %+v, want no error, current to %s", st, ref.state.Through)
		}
	})
}

// Child is the body of the test that Kills runs in a process of its
// own.
func (s Suite) Child(t *testing.T) {
	child(t, s.Decoders, s.Now, s.Scope, s.Source, true)
}
