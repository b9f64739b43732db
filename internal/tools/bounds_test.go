package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tenderbase/tenderbase"
)

// repeated returns a JSON array of n copies of v.
func repeated(v string, n int) string {
	return "[" + strings.TrimSuffix(strings.Repeat(v+",", n), ",") + "]"
}

// countryList returns a JSON array of the distinct codes 1..n.
func countryList(n int) string {
	codes := make([]string, n)
	for i := range codes {
		codes[i] = fmt.Sprint(i + 1)
	}
	return "[" + strings.Join(codes, ",") + "]"
}

// filterFlags returns a filters object of n distinct country flags.
func filterFlags(n int) string {
	flags := make([]string, n)
	for i := range flags {
		flags[i] = fmt.Sprintf(`"cr%d": 1`, i+1)
	}
	return "{" + strings.Join(flags, ", ") + "}"
}

// boundCases are arguments past a bound, with the message that names it.
var boundCases = []struct{ tool, args, want string }{
	{"ru.search", `{"query": "a", "regions": ` + repeated("77", 100_000) + `}`,
		`argument "regions" holds 100000 items; the limit is 99`},
	{"ru.search", `{"query": "a", "regions": ` + repeated("77", 100) + `}`,
		`argument "regions" holds 100 items; the limit is 99`},
	{"world.search", `{"query": "school", "countries": ` + countryList(250) + `}`,
		`argument "countries" holds 250 items; the limit is 249`},
	{"world.search", `{"query": "school", "filters": ` + filterFlags(250) + `}`,
		`argument "filters" holds 250 keys; the limit is 249`},
	{"docs.search", `{"query": "` + strings.Repeat("я", 1001) + `"}`,
		`argument "query" is 1001 characters long; the limit is 1000`},
	{"ru.detail", `{"id": "` + strings.Repeat("7", 5000) + `"}`,
		`argument "id" is 5000 characters long; the limit is 128`},
	{"ru.izm", `{"tend_num": "` + strings.Repeat("0", 33) + `"}`,
		`argument "tend_num" is 33 characters long; the limit is 32`},
	{"contragent.byInn", `{"inn": "` + strings.Repeat("ООО Ромашка ", 100) + `"}`,
		`argument "inn" is 1200 characters long; the limit is 12`},
	{"contragent.contacts", `{"inn": 1234567890123}`,
		`argument "inn" is 13 characters long; the limit is 12`},
}

// withinBounds are arguments within the bounds of each tool of boundCases.
var withinBounds = map[string]string{
	"ru.search":           `{"query": "a"}`,
	"world.search":        `{"query": "school"}`,
	"docs.search":         `{"query": "a"}`,
	"ru.detail":           `{"id": "0162307330524391275"}`,
	"ru.izm":              `{"tend_num": "0162307330524391275"}`,
	"contragent.byInn":    `{"inn": "160130329800"}`,
	"contragent.contacts": `{"inn": "160130329800"}`,
}

// TestBounds checks that every argument past its bound is refused before
// any work, the store never asked, with a message that names the argument
// and the bound and does not echo the value, and that the input schema
// refuses it too.
func TestBounds(t *testing.T) {
	store := &callCounter{Store: demoSet.store}
	set := New(store, nil)
	// Within their bounds, the tools of the cases ask the store: the count
	// sees the work a call does.
	for tool, args := range withinBounds {
		store.calls.Store(0)
		if _, err := call(t, set, asPlan(tenderbase.PlanStandard), tool, args); errorCode(err) == "argument" {
			t.Fatalf("%s %s: %v", tool, args, err)
		}
		if store.calls.Load() == 0 {
			t.Fatalf("%s %s asked the store nothing: the count does not see its work", tool, args)
		}
	}
	for _, c := range boundCases {
		if withinBounds[c.tool] == "" {
			t.Fatalf("%s: no arguments within its bounds to check the count by", c.tool)
		}
		store.calls.Store(0)
		_, err := call(t, set, asPlan(tenderbase.PlanStandard), c.tool, c.args)
		if errorCode(err) != "argument" || err.Error() != c.want {
			t.Errorf("%s %.60s...: got %v (%s), want the argument error %q", c.tool, c.args, err, errorCode(err), c.want)
			continue
		}
		if n := store.calls.Load(); n != 0 {
			t.Errorf("%s %.60s...: refused after %d calls of the store; a bound is checked before any work", c.tool, c.args, n)
		}
		if validateArgs(t, c.tool, c.args) == nil {
			t.Errorf("%s %.60s...: the input schema accepts what the tool refuses", c.tool, c.args)
		}
	}
}

// TestArgumentsAtTheirBounds checks that arguments at their bounds pass,
// in the decoder and in the input schema alike.
func TestArgumentsAtTheirBounds(t *testing.T) {
	for _, c := range []struct{ tool, args string }{
		{"ru.search", `{"query": "охраны", "regions": ` + countryList(99) + `}`},
		{"world.search", `{"query": "school", "countries": ` + countryList(249) + `}`},
		{"world.search", `{"query": "school", "filters": ` + filterFlags(249) + `}`},
		{"docs.search", `{"query": "` + strings.Repeat("я", 1000) + `"}`},
		{"contragent.byInn", `{"inn": "160130329800"}`},
	} {
		if err := validateArgs(t, c.tool, c.args); err != nil {
			t.Errorf("%s %.60s...: the input schema refuses: %v", c.tool, c.args, err)
		}
		if _, err := call(t, demoSet, asPlan(tenderbase.PlanStandard), c.tool, c.args); errorCode(err) == "argument" {
			t.Errorf("%s %.60s...: %v", c.tool, c.args, err)
		}
	}
}

// TestEveryArgumentBounded checks that the input schema of every tool
// bounds every argument, so that a client can read each bound.
func TestEveryArgumentBounded(t *testing.T) {
	for _, tool := range demoSet.List() {
		var in struct {
			Properties map[string]map[string]any
		}
		if err := json.Unmarshal(tool.InputSchema, &in); err != nil {
			t.Fatal(err)
		}
		for name, p := range in.Properties {
			bounded := p["type"] == "boolean"
			for _, k := range []string{"maxLength", "maxItems", "maxProperties", "maximum", "pattern", "enum"} {
				bounded = bounded || p[k] != nil
			}
			if !bounded {
				t.Errorf("%s: argument %s has no bound in the input schema: %v", tool.Name, name, p)
			}
			if p["maxItems"] != nil && p["uniqueItems"] != true {
				t.Errorf("%s: argument %s: an array of codes without uniqueItems", tool.Name, name)
			}
		}
	}
}

// callCounter is a store that counts the calls it is asked.
type callCounter struct {
	tenderbase.Store
	calls atomic.Int64
}

func (c *callCounter) Put(ctx context.Context, rs []tenderbase.Record) (tenderbase.PutResult, error) {
	c.calls.Add(1)
	return c.Store.Put(ctx, rs)
}

func (c *callCounter) Get(ctx context.Context, k tenderbase.Kind, key string) (tenderbase.Record, error) {
	c.calls.Add(1)
	return c.Store.Get(ctx, k, key)
}

func (c *callCounter) Versions(ctx context.Context, k tenderbase.Kind, key string) ([]tenderbase.Record, error) {
	c.calls.Add(1)
	return c.Store.Versions(ctx, k, key)
}

func (c *callCounter) Search(ctx context.Context, s tenderbase.Search) (tenderbase.Page, error) {
	c.calls.Add(1)
	return c.Store.Search(ctx, s)
}

// searchRecorder is a store that keeps the searches it is asked for.
type searchRecorder struct {
	tenderbase.Store
	mu       sync.Mutex
	searches []tenderbase.Search
}

func (r *searchRecorder) Search(ctx context.Context, s tenderbase.Search) (tenderbase.Page, error) {
	r.mu.Lock()
	r.searches = append(r.searches, s)
	r.mu.Unlock()
	return r.Store.Search(ctx, s)
}

// TestRepeatedCodesCountOnce checks that the store sees each flag once,
// however often the arguments repeat it.
func TestRepeatedCodesCountOnce(t *testing.T) {
	rec := &searchRecorder{Store: demoSet.store}
	set := New(rec, nil)
	for _, c := range []struct {
		tool, args string
		want       tenderbase.Filters
	}{
		{"ru.search", `{"query": "охраны", "regions": ` + repeated("16", 99) + `}`, tenderbase.Filters{Regions: []int{16}}},
		{"ru.search", `{"query": "охраны", "regions": [16, 77, 16], "filters": {"r16": 1, "r77": 1, "fz44": 1}}`,
			tenderbase.Filters{Regions: []int{16, 77}, Laws: []string{"44"}}},
		{"world.search", `{"query": "school", "countries": [40, 40, 276], "filters": {"cr40": 1}}`, tenderbase.Filters{Countries: []int{40, 276}}},
	} {
		rec.searches = nil
		if _, err := call(t, set, asPlan(tenderbase.PlanStandard), c.tool, c.args); err != nil {
			t.Fatalf("%s %s: %v", c.tool, c.args, err)
		}
		if len(rec.searches) == 0 {
			t.Fatalf("%s %s: no search reached the store", c.tool, c.args)
		}
		if diff := cmp.Diff(c.want, rec.searches[0].Filters); diff != "" {
			t.Errorf("%s %s: the store saw other filters (-want +got):\n%s", c.tool, c.args, diff)
		}
	}
}
