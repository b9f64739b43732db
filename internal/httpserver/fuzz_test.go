package httpserver_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/demo"
	"github.com/tenderbase/tenderbase/internal/httpserver"
	"github.com/tenderbase/tenderbase/internal/postgres"
	"github.com/tenderbase/tenderbase/internal/postgres/pgtest"
	"github.com/tenderbase/tenderbase/internal/tools"
)

// The fuzz targets drive every interface of the server over a store
// holding the demo dataset. An input chooses the endpoint, the key, the
// headers, a raw query string (or path) and a raw body; fuzzAnswer.judge
// says which answers are wrong. `go test` runs the seeds of fuzzseeds_test.go;
// .ci/run fuzzes each target for a bounded time.

// FuzzHTTPSQLite fuzzes the server over the SQLite store.
func FuzzHTTPSQLite(f *testing.F) {
	fuzzHTTP(f, demoStore(f))
}

// FuzzHTTPPostgres fuzzes the server over the PostgreSQL store; it skips
// without PostgreSQL, unless TENDERBASE_REQUIRE_POSTGRES=1.
func FuzzHTTPPostgres(f *testing.F) {
	store, err := postgres.Open(f.Context(), pgtest.URL(f), nil)
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { store.Close() })
	putDemo(f, store)
	fuzzHTTP(f, store)
}

// keyedStore is a store that keeps the API keys too, as both stores do.
type keyedStore interface {
	tenderbase.Store
	tenderbase.KeyStore
}

// fuzzHTTP builds the server once, adds the seeds and fuzzes; when the
// target ends, the stored records must be those it started with.
func fuzzHTTP(f *testing.F, store keyedStore) {
	fz := newFuzzServer(f, store)
	before := countRecords(f, store)
	f.Cleanup(func() {
		if diff := cmp.Diff(before, countRecords(f, store)); diff != "" {
			f.Errorf("the requests changed the stored records (-before +after):\n%s", diff)
		}
	})
	fz.addSeeds(f)
	f.Fuzz(func(t *testing.T, route, key, header uint8, target string, body []byte) {
		fz.check(t, fuzzInput{route: route, key: key, header: header, target: target, body: body})
	})
}

// countRecords returns the number of current records of every kind.
func countRecords(tb testing.TB, store tenderbase.Store) map[tenderbase.Kind]int {
	tb.Helper()
	counts := map[tenderbase.Kind]int{}
	for _, k := range tenderbase.Kinds {
		// The test's context is done by the time its cleanup counts.
		page, err := store.Search(context.Background(), tenderbase.Search{Kind: k, PageSize: 1})
		if err != nil {
			tb.Fatalf("count %s records: %v", k, err)
		}
		counts[k] = page.Total
	}
	return counts
}

// fuzzInput is one input of the fuzz targets.
type fuzzInput struct {
	route  uint8 // an index into fuzzServer.routes
	key    uint8 // an index into fuzzKeys
	header uint8 // the bits below
	target string
	body   []byte
}

// The bits of fuzzInput.header: two bits for each header's choice of
// values, and two flags.
const (
	contentTypeBits = 0 // shift of the Content-Type choice
	originBits      = 2 // shift of the Origin choice
	versionBits     = 4 // shift of the MCP-Protocol-Version choice
	otherMethod     = 1 << 6
	secondAuth      = 1 << 7
)

var (
	fuzzContentTypes = []string{"", "application/json", "text/plain", "application/json; charset=utf-8"}
	fuzzOrigins      = []string{"", "http://localhost:8080", "https://evil.example", "null"}
	fuzzVersions     = []string{"", "2025-06-18", "2025-03-26", "1999-01-01"}
)

// fuzzKeys are the keys an input chooses from: none, one of every plan,
// one over its rate limit and one nobody issued.
var fuzzKeys = []string{"none", "free", "standard", "guru", "corporate", "limited", "bogus"}

// keyIndex returns the input's choice of the key named name.
func keyIndex(name string) uint8 {
	for i, k := range fuzzKeys {
		if k == name {
			return uint8(i)
		}
	}
	panic("no fuzz key " + name)
}

// fuzzRoute is an endpoint an input chooses; an empty path takes the path
// from the input's target.
type fuzzRoute struct{ method, path string }

const exportPath = "/api2.3/export"

// fuzzServer is the server a fuzz target drives, with what it needs to
// judge the answers.
type fuzzServer struct {
	handler http.Handler
	store   *workCounter
	tools   []*tools.Tool
	routes  []fuzzRoute
	secrets []string // by key choice; "" for none
	// hidden holds the texts of fields hidden from the free plan that no
	// free view shows.
	hidden map[string]bool
}

func newFuzzServer(tb testing.TB, store keyedStore) *fuzzServer {
	tb.Helper()
	counted := &workCounter{keyedStore: store}
	set := tools.New(counted, nil)
	fz := &fuzzServer{store: counted, tools: set.List(), secrets: make([]string, len(fuzzKeys))}
	limited := ""
	for i, name := range fuzzKeys {
		switch name {
		case "none":
		case "bogus":
			fz.secrets[i] = tenderbase.SecretPrefix + strings.Repeat("0", 43)
		default:
			plan := tenderbase.Plan(name)
			if name == "limited" {
				plan = tenderbase.PlanFree
			}
			k, secret, err := store.CreateKey(tb.Context(), tenderbase.Key{Name: "fuzz " + name, Plan: plan})
			if err != nil {
				tb.Fatal(err)
			}
			fz.secrets[i] = secret
			if name == "limited" {
				limited = k.ID
			}
		}
	}
	// The request deadline is past the fuzz target's own, so that a hang
	// fails the input rather than being answered as a timeout.
	srv := httpserver.New(httpserver.Config{Tools: set, Keys: store, Limiter: refuseKey(limited), RequestTimeout: 2 * fuzzHang},
		counted, nil)
	fz.handler = srv.Handler()
	fz.routes = fuzzRoutes(fz.tools)
	recs, err := demo.Records()
	if err != nil {
		tb.Fatal(err)
	}
	fz.hidden = hiddenTexts(tb, recs)
	return fz
}

// fuzzRoutes lists every endpoint: MCP, the debug endpoint of every tool,
// the export, the other GET endpoints, an unknown tool and any path.
func fuzzRoutes(list []*tools.Tool) []fuzzRoute {
	routes := []fuzzRoute{{"POST", "/mcp"}}
	for _, t := range list {
		routes = append(routes, fuzzRoute{"POST", "/mcp/" + t.Group + "/" + t.Operation})
	}
	return append(routes,
		fuzzRoute{"GET", exportPath},
		fuzzRoute{"GET", "/health"},
		fuzzRoute{"GET", "/search/syntax"},
		fuzzRoute{"GET", "/openapi.json"},
		fuzzRoute{"POST", "/mcp/ru/nope"},
		fuzzRoute{"GET", ""})
}

// route returns the input's choice of the route with path.
func (fz *fuzzServer) route(path string) uint8 {
	for i, r := range fz.routes {
		if r.path == path {
			return uint8(i)
		}
	}
	panic("no fuzz route " + path)
}

// refuseKey is a rate limiter that refuses the key with its id for 42 s and
// lets every other key through.
type refuseKey string

func (id refuseKey) Allow(ctx context.Context, k tenderbase.Key) (time.Duration, error) {
	if k.ID == string(id) {
		return 42 * time.Second, nil
	}
	return 0, nil
}

// Bounds of one request of the fuzz targets on the demo dataset. The work
// an input causes is counted, not timed, so that a busy machine cannot fail
// an input: a blow-up shows as calls of the store or records read, and
// only a hang the counts cannot see is left to a clock, a generous one.
const (
	// maxFuzzStoreCalls is far above the calls of the store any request
	// makes by design (a dozen at most over the seeds: contragent.byInn
	// asks each register), and far below what a loop over the results or
	// the input would make.
	maxFuzzStoreCalls = 100
	// maxFuzzRecords is the records a request may have the store read:
	// ten full pages, where the seeds read 20 at most.
	maxFuzzRecords = 10 * tenderbase.MaxPageSize
	// fuzzHang ends a request that runs so long that only a hang explains
	// it, on any machine: the demo dataset answers in milliseconds.
	fuzzHang = time.Minute
)

// check returns an error when w is over the bounds of one request.
func (w work) check() error {
	if w.calls > maxFuzzStoreCalls || w.records > maxFuzzRecords {
		return fmt.Errorf("the request called the store %d times and read %d records, over the bounds of %d calls and %d records",
			w.calls, w.records, maxFuzzStoreCalls, maxFuzzRecords)
	}
	return nil
}

// check sends the input's request and fails if the answer is wrong.
func (fz *fuzzServer) check(t *testing.T, in fuzzInput) {
	req, ok := fz.request(in)
	if !ok {
		return
	}
	ctx, cancel := context.WithTimeout(t.Context(), fuzzHang)
	defer cancel()
	rec := httptest.NewRecorder()
	fz.store.reset()
	fz.handler.ServeHTTP(rec, req.WithContext(ctx))
	work := fz.store.done()
	a := fuzzAnswer{status: rec.Code, header: rec.Header(), body: rec.Body.Bytes()}
	err := work.check()
	if ctx.Err() != nil {
		err = fmt.Errorf("the request was still running after %s: a hang, or a blow-up of work the store's counts do not see", fuzzHang)
	}
	if err == nil {
		err = a.judge(fz.hidden, fuzzExpect{freeView: fz.freeView(in), refuse: mustRefuse(req, in.body)})
	}
	if err != nil {
		t.Fatalf("%v\nrequest %s %s\n%s\nbody %s\nanswer %d\n%s\nbody %s",
			err, req.Method, shorten(req.RequestURI), headerLines(req.Header), shorten(string(in.body)),
			a.status, headerLines(a.header), shorten(string(a.body)))
	}
}

// request returns the request of an input, and false for an input that no
// handler can see: net/http answers a target that is not a request URI
// itself, and a space would end the request line.
func (fz *fuzzServer) request(in fuzzInput) (*http.Request, bool) {
	rt := fz.routes[int(in.route)%len(fz.routes)]
	secret := fz.secrets[int(in.key)%len(fz.secrets)]
	query := in.target
	if rt.path == exportPath && secret != "" {
		query = strings.TrimPrefix(query+"&api_code="+url.QueryEscape(secret), "&")
	}
	uri := rt.path
	switch {
	case rt.path == "":
		uri = "/" + in.target
	case query != "":
		uri += "?" + query
	}
	u, err := url.ParseRequestURI(uri)
	if err != nil || strings.Contains(uri, " ") {
		return nil, false
	}
	method := rt.method
	if in.header&otherMethod != 0 {
		method = map[string]string{"GET": "POST", "POST": "GET"}[method]
	}
	var body io.Reader = http.NoBody
	if method == "POST" {
		body = bytes.NewReader(in.body)
	}
	req := httptest.NewRequest(method, "/", body)
	req.URL, req.RequestURI = u, uri
	fz.setHeaders(req.Header, in.header, rt.path != exportPath, secret)
	return req, true
}

// setHeaders sets the headers the bits choose, and the key as a Bearer
// token unless the route takes it as api_code.
func (fz *fuzzServer) setHeaders(h http.Header, bits uint8, bearer bool, secret string) {
	for _, c := range []struct {
		name   string
		shift  uint8
		values []string
	}{
		{"Content-Type", contentTypeBits, fuzzContentTypes},
		{"Origin", originBits, fuzzOrigins},
		{"MCP-Protocol-Version", versionBits, fuzzVersions},
	} {
		if v := c.values[bits>>c.shift&3]; v != "" {
			h.Set(c.name, v)
		}
	}
	if bearer && secret != "" {
		h.Set("Authorization", "Bearer "+secret)
	}
	if bits&secondAuth != 0 {
		h.Add("Authorization", "Bearer "+tenderbase.SecretPrefix+"second")
	}
}

// freeView reports whether the input's caller sees what the free plan
// sees: no key (where none is needed), a free key or the limited one,
// which is a free key too.
func (fz *fuzzServer) freeView(in fuzzInput) bool {
	switch fuzzKeys[int(in.key)%len(fuzzKeys)] {
	case "none", "free", "limited":
		return true
	}
	return false
}

// mustRefuse says why the request must be answered with an error, or "":
// an export's query string that does not parse would be read in part, and
// a body with a member twice would be read as one of them.
func mustRefuse(req *http.Request, body []byte) string {
	if req.Method == "GET" && req.URL.Path == exportPath {
		if _, err := url.ParseQuery(req.URL.RawQuery); err != nil {
			return "its query string does not parse"
		}
	}
	if req.Method == "POST" && strings.HasPrefix(req.URL.Path, "/mcp") && json.Valid(body) && hasDuplicateMember(body) {
		return "its body has a member twice"
	}
	return ""
}

// shorten cuts s for a failure message.
func shorten(s string) string {
	const max = 160
	if len(s) <= max {
		return fmt.Sprintf("%q", s)
	}
	return fmt.Sprintf("%q... (%d bytes)", s[:max], len(s))
}

func headerLines(h http.Header) string {
	var b strings.Builder
	for name, values := range h {
		for _, v := range values {
			fmt.Fprintf(&b, "  %s: %s\n", name, shorten(v))
		}
	}
	return strings.TrimSuffix(b.String(), "\n")
}
