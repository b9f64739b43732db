package relevance

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/importer"
	"github.com/tenderbase/tenderbase/internal/postgres"
	"github.com/tenderbase/tenderbase/internal/postgres/pgtest"
	"github.com/tenderbase/tenderbase/internal/query"
	"github.com/tenderbase/tenderbase/internal/source/eis"
	"github.com/tenderbase/tenderbase/internal/sqlite"
	"github.com/tenderbase/tenderbase/internal/tools"
)

// sharedData is the folder of real files beside the checkout; the judged
// records are the EIS ones among them.
var sharedData = filepath.Join("..", "..", "..", "shared", "data")

var eisFolders = []string{"eis44", "eis44-notices", "eis223", "eis44-unverified-templates"}

// toolKinds are the search tools the set is typed into and the kind of
// the records each returns.
var toolKinds = map[string]tenderbase.Kind{
	"ru.search":        tenderbase.KindTender,
	"contracts.search": tenderbase.KindContract,
	"docs.search":      tenderbase.KindDoc,
}

// Targets of the figures: a change that takes search below them fails the
// test, as a wrong answer would.
const (
	targetRecall    = 0.9
	targetPrecision = 0.9
)

func loadSet(t *testing.T) Set {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "judged.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s, err := Load(f)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// The set itself is sound: every query is read by the query language,
// typed into a search tool the set knows, and listed once.
func TestJudgedSet(t *testing.T) {
	s := loadSet(t)
	if len(s.Queries) < 80 {
		t.Errorf("the set holds %d queries; it needs at least 80 to measure", len(s.Queries))
	}
	seen := map[string]bool{}
	for _, j := range s.Queries {
		if _, ok := toolKinds[j.Tool]; !ok {
			t.Errorf("%q: no search tool %s among %v", j.Query, j.Tool, slices.Sorted(maps.Keys(toolKinds)))
		}
		if _, err := query.Parse(j.Query, query.MCP); err != nil {
			t.Errorf("%s %q: %v", j.Tool, j.Query, err)
		}
		if id := j.Tool + " " + j.Query; seen[id] {
			t.Errorf("%s %q is judged twice", j.Tool, j.Query)
		} else {
			seen[id] = true
		}
	}
}

// TestJudged imports the real EIS files into a fresh store of each kind,
// types every judged query into its MCP search tool as an agent with a
// corporate key does, and logs the figures of the first answer pages
// (go test -run TestJudged -v ./internal/relevance). It fails when the set
// is broken, a judged record not being in the store, and when the figures
// miss their targets.
func TestJudged(t *testing.T) {
	s := loadSet(t)
	if _, err := os.Stat(sharedData); err != nil {
		t.Skipf("no shared data folder at %s: the judged set is not measured", sharedData)
	}
	stores := []struct {
		name string
		open func(t *testing.T) (tenderbase.Store, error)
	}{
		{"sqlite", func(t *testing.T) (tenderbase.Store, error) {
			s, err := sqlite.Open(t.Context(), filepath.Join(t.TempDir(), "judged.db"), nil)
			if err == nil {
				t.Cleanup(func() { s.Close() })
			}
			return s, err
		}},
		{"postgres", func(t *testing.T) (tenderbase.Store, error) {
			s, err := postgres.Open(t.Context(), pgtest.URL(t), nil)
			if err == nil {
				t.Cleanup(func() { s.Close() })
			}
			return s, err
		}},
	}
	shown := map[string][]Result{}
	for _, st := range stores {
		t.Run(st.name, func(t *testing.T) {
			store, err := st.open(t)
			if err != nil {
				t.Fatal(err)
			}
			importShared(t, store)
			checkKeys(t, store, s)
			results := answer(t, tools.New(store, nil), s)
			report(t, results)
			shown[st.name] = results
		})
	}
	if a, b := shown["sqlite"], shown["postgres"]; len(a) > 0 && len(a) == len(b) {
		for i := range a {
			if !slices.Equal(slices.Sorted(slices.Values(a[i].Shown)), slices.Sorted(slices.Values(b[i].Shown))) {
				t.Logf("%s %q: SQLite shows %v, PostgreSQL %v", a[i].Tool, a[i].Query, a[i].Shown, b[i].Shown)
			}
		}
	}
}

// importShared imports the EIS folders of the shared data into store.
func importShared(t *testing.T, store tenderbase.Store) {
	t.Helper()
	var paths []string
	for _, f := range eisFolders {
		paths = append(paths, filepath.Join(sharedData, f))
	}
	sum, err := importer.Import(t.Context(), store, paths, importer.Options{Decoders: []importer.Decoder{eis.Format{}}})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("imported %d records from %d files", sum.Records, sum.Files)
}

// checkKeys fails the test for a judged record the store does not hold.
func checkKeys(t *testing.T, store tenderbase.Store, s Set) {
	t.Helper()
	for _, j := range s.Queries {
		for _, key := range slices.Sorted(maps.Keys(j.Relevant)) {
			_, err := store.Get(t.Context(), toolKinds[j.Tool], key)
			if tenderbase.ErrorCode(err) == tenderbase.ENOTFOUND {
				t.Errorf("%s %q: the judged record %s is not in the store", j.Tool, j.Query, key)
			} else if err != nil {
				t.Fatal(err)
			}
		}
	}
}

// answer types each query into its tool and returns what the first page
// showed.
func answer(t *testing.T, set *tools.Set, s Set) []Result {
	t.Helper()
	key := tenderbase.Key{ID: "k_judged", Account: "acct_judged", Plan: tenderbase.PlanCorporate, Status: tenderbase.KeyActive}
	ctx := tools.WithForm(tenderbase.NewContextWithKey(t.Context(), key), tools.BriefForm)
	var out []Result
	for _, j := range s.Queries {
		tool, ok := set.Lookup(j.Tool)
		if !ok {
			t.Fatalf("no tool %s", j.Tool)
		}
		args, err := json.Marshal(map[string]string{"query": j.Query})
		if err != nil {
			t.Fatal(err)
		}
		res, err := tool.Call(ctx, args)
		if err != nil {
			t.Errorf("%s %q: %v", j.Tool, j.Query, err)
			continue
		}
		shown, err := ShownKeys(res.Summary)
		if err != nil {
			t.Fatalf("%s %q: %v", j.Tool, j.Query, err)
		}
		out = append(out, Result{Judgment: j, Shown: shown})
	}
	return out
}

// report logs each query's figures and the totals, and fails the figures
// that miss their targets.
func report(t *testing.T, results []Result) {
	t.Helper()
	for _, r := range results {
		t.Logf("%-16s %-36q found %2d of %-2d shown %2d%s", r.Tool, r.Query, len(r.Found()), r.Wanted(), len(r.Shown), unwanted(r))
	}
	f := Measure(results)
	logGroups(t, "kind", results, func(r Result) string { return r.Kind })
	logGroups(t, "tool", results, func(r Result) string { return r.Tool })
	t.Logf("%d queries, %d of them wanting records: macro recall %.1f%%; %d answer nothing; %d show none of what they want; precision %.1f%% (%d of %d records shown; %.1f%% by query)",
		f.Queries, f.Judged, 100*f.Recall, len(f.Empty), len(f.Missed), 100*f.Precision, f.Right, f.Shown, 100*f.MacroPrecision)
	t.Logf("answering nothing: %s", names(f.Empty))
	if f.Recall < targetRecall {
		t.Errorf("macro recall %.1f%%, below the target of %.0f%%", 100*f.Recall, 100*targetRecall)
	}
	if len(f.Empty) > 0 {
		t.Errorf("%d queries that want records answer nothing: %s", len(f.Empty), names(f.Empty))
	}
	if f.Precision < targetPrecision {
		t.Errorf("precision %.1f%%, below the target of %.0f%%", 100*f.Precision, 100*targetPrecision)
	}
}

// logGroups logs the figures of results grouped by what of each group
// returns.
func logGroups(t *testing.T, what string, results []Result, of func(Result) string) {
	t.Helper()
	groups := map[string][]Result{}
	for _, r := range results {
		groups[of(r)] = append(groups[of(r)], r)
	}
	for _, g := range slices.Sorted(maps.Keys(groups)) {
		m := Measure(groups[g])
		t.Logf("%s %-16s %3d queries: recall %5.1f%%, %2d empty, precision %5.1f%%", what, g, m.Queries, 100*m.Recall, len(m.Empty), 100*m.Precision)
	}
}

// unwanted says which records a page showed that its query does not want.
func unwanted(r Result) string {
	u := r.Unwanted()
	if len(u) == 0 {
		return ""
	}
	if len(u) > 3 {
		return fmt.Sprintf(", unwanted %s and %d more", strings.Join(u[:3], " "), len(u)-3)
	}
	return ", unwanted " + strings.Join(u, " ")
}

// names lists the queries of rs.
func names(rs []Result) string {
	q := make([]string, len(rs))
	for i, r := range rs {
		q[i] = fmt.Sprintf("%s %q", r.Tool, r.Query)
	}
	return strings.Join(q, ", ")
}
