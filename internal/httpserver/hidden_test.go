package httpserver_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/export"
	"github.com/tenderbase/tenderbase/internal/httpserver"
	"github.com/tenderbase/tenderbase/internal/postgres"
	"github.com/tenderbase/tenderbase/internal/postgres/pgtest"
	"github.com/tenderbase/tenderbase/internal/sqlite"
	"github.com/tenderbase/tenderbase/internal/textproc"
	"github.com/tenderbase/tenderbase/internal/tools"
)

// TestHiddenEverywhere is the matrix of what a plan hides. The records of
// testdata/hidden.ndjson carry a unique marker in every tariff field of
// every kind (and, for contrast, markers in visible fields). A free caller,
// through MCP, the debug endpoints and the export in JSON, XML and CSV
// (compat=tg), with a free key or none, must never get a marker back (a
// date marker in the form compat=tg writes dates too), never find a record
// by one (total 0), be refused (403) a lookup by a hidden value, and get
// null for the counts that hidden fields make. A paid caller making the
// same calls finds and sees every marker, and the export shows it in each
// of its formats, so that the checks can fail.
func TestHiddenEverywhere(t *testing.T) {
	t.Run("sqlite", func(t *testing.T) {
		store, err := sqlite.Open(t.Context(), t.TempDir()+"/hidden.db", nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { store.Close() })
		checkHidden(t, store)
	})
	t.Run("postgres", func(t *testing.T) {
		store, err := postgres.Open(t.Context(), pgtest.URL(t), nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { store.Close() })
		checkHidden(t, store)
	})
}

// checkHidden loads the marked records into store, serves it and runs the
// matrix.
func checkHidden(t *testing.T, store tenderbase.Store) {
	recs := readRecords(t, "testdata/hidden.ndjson")
	if _, err := store.Put(t.Context(), recs); err != nil {
		t.Fatal(err)
	}
	srv := httpserver.New(httpserver.Config{Tools: tools.New(store, nil), Keys: fakeKeys{}, Limiter: fakeLimiter{}}, store, nil)
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(ts.Close)
	m := newMatrix(t, recs)
	for _, c := range m.calls() {
		m.check(c, c.send(t, ts, "free"), c.send(t, ts, "paid"))
		if c.surface == surfaceExport {
			m.check(c, c.send(t, ts, ""), hiddenAnswer{})
		}
	}
	for _, p := range m.problems() {
		t.Error(p)
	}
}

// distinctLeaks returns the leaks once each, whatever the surface, the
// format and the key they were seen through.
func (m *matrix) distinctLeaks() []string {
	seen := map[string]bool{}
	for _, l := range m.leaks {
		l = strings.TrimPrefix(strings.TrimPrefix(l, surfaceMCP+" "), surfaceDebug+" ")
		l = strings.NewReplacer("&dtype=json", "", "&dtype=xml", "", "&dtype=csv&compat=tg", "").Replace(l)
		seen[l] = true
	}
	return slices.Sorted(mapKeys(seen))
}

// The surfaces a call goes through.
const (
	surfaceMCP    = "mcp"
	surfaceDebug  = "debug"
	surfaceExport = "export"
)

// matrixCall is one request of the matrix, and what a free caller must get.
type matrixCall struct {
	surface string
	tool    string // a tool's name; the export's parameters are in args
	args    string // the tool's arguments, or the export's query without api_code
	format  string // the export's format: json, xml or csv
	search  string // the marker a search looks for, if it looks for one
	// refused is set when a free caller must be refused (403); notFound
	// when it must be told that nothing is known, and unknown when a paid
	// caller must be told so too.
	refused, notFound, unknown bool
	// counts returns the members of the hiddenAnswer that hidden fields make:
	// null for a free caller, a value for a paid one.
	counts func(v map[string]any) map[string]any
}

func (c matrixCall) String() string {
	if c.surface == surfaceExport {
		return "export " + c.args
	}
	return c.surface + " " + c.tool + " " + c.args
}

// hiddenAnswer is what a call got.
type hiddenAnswer struct {
	status int    // HTTP, or for MCP 200, or 403/404 when the tool failed so
	body   string // everything the caller reads: headers and body
	value  map[string]any
	total  int // the search's total, or -1
}

// send makes the call as the holder of key ("" for none: the export's
// anonymous caller).
func (c matrixCall) send(t *testing.T, ts *httptest.Server, key string) hiddenAnswer {
	t.Helper()
	var req *http.Request
	var err error
	switch c.surface {
	case surfaceExport:
		q := c.args
		if key != "" {
			q += "&api_code=" + key
		}
		req, err = http.NewRequest("GET", ts.URL+"/api2.3/export?"+q, nil)
	case surfaceDebug:
		group, op, _ := strings.Cut(c.tool, ".")
		req, err = http.NewRequest("POST", ts.URL+"/mcp/"+group+"/"+op, strings.NewReader(c.args))
	case surfaceMCP:
		body := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":%q,"arguments":%s}}`, c.tool, c.args)
		req, err = http.NewRequest("POST", ts.URL+"/mcp", strings.NewReader(body))
		if err == nil {
			req.Header.Set("Content-Type", "application/json")
		}
	}
	if err != nil {
		t.Fatal(err)
	}
	if c.surface != surfaceExport {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	resp, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	a := hiddenAnswer{status: resp.StatusCode, body: fmt.Sprint(resp.Header) + "\n" + string(raw), total: -1}
	if n, err := strconv.Atoi(resp.Header.Get("X-Total-Count")); err == nil {
		a.total = n
	}
	switch c.surface {
	case surfaceDebug:
		_ = json.Unmarshal(raw, &a.value)
	case surfaceMCP:
		a.readMCP(raw)
	}
	if n, ok := a.value["total"].(float64); ok {
		a.total = int(n)
	}
	return a
}

// readMCP reads a tools/call result: its structured content, or the error
// of a failed tool as the status a debug endpoint would give.
func (a *hiddenAnswer) readMCP(raw []byte) {
	var rpc struct {
		Result struct {
			Content           []struct{ Text string }
			StructuredContent map[string]any
			IsError           bool
		}
	}
	_ = json.Unmarshal(raw, &rpc)
	a.value = rpc.Result.StructuredContent
	for _, c := range rpc.Result.Content {
		a.body += "\n" + c.Text
	}
	if rpc.Result.IsError && len(rpc.Result.Content) > 0 {
		text := rpc.Result.Content[0].Text
		switch {
		case strings.Contains(text, "paid plan"):
			a.status = http.StatusForbidden
		case strings.HasPrefix(text, "no ") || strings.HasPrefix(text, "nothing "):
			a.status = http.StatusNotFound
		}
	}
}

// matrix holds the markers of the records and what the calls found.
type matrix struct {
	// hidden maps each marker of a tariff field to where it is
	// ("contract.suppliers"); searchable are those a paid search may find.
	hidden     map[string]string
	searchable map[string]bool
	visible    []string // a marker of each searched kind's visible text
	inns       []string
	// found collects what the paid calls found and showed; exportShown
	// what the paid export calls showed, by format.
	shown, matched map[string]bool
	exportShown    map[string]map[string]bool
	leaks          []string
	misses         []string
}

// newMatrix finds the markers of recs: every string of a tariff field that
// no visible field holds too. Every tariff field of the kinds in recs must
// hold one, or the matrix would miss it.
func newMatrix(t *testing.T, recs []tenderbase.Record) *matrix {
	t.Helper()
	m := &matrix{hidden: map[string]string{}, searchable: map[string]bool{}, shown: map[string]bool{}, matched: map[string]bool{},
		exportShown: map[string]map[string]bool{}}
	visible := map[string]bool{}
	inns := map[string]bool{}
	for _, r := range recs {
		for field, strs := range fieldStrings(t, r) {
			for _, s := range strs {
				if !slices.Contains(tenderbase.TariffFields[r.Kind()], field) {
					visible[s] = true
				}
				if len(s) == 10 && isDigits(s) {
					inns[s] = true
				}
			}
		}
	}
	covered := map[string]bool{}
	for _, r := range recs {
		for field, strs := range fieldStrings(t, r) {
			if !slices.Contains(tenderbase.TariffFields[r.Kind()], field) {
				continue
			}
			for _, s := range strs {
				if !visible[s] {
					m.hidden[s] = fmt.Sprintf("%s.%s", r.Kind(), field)
					covered[m.hidden[s]] = true
				}
			}
		}
		if !slices.Contains(searchedKinds, r.Kind()) {
			continue
		}
		for _, text := range tenderbase.TariffText(r) {
			for s := range m.hidden {
				if strings.Contains(text, searchWord(s)) && searchWord(s) != "" {
					m.searchable[s] = true
				}
			}
		}
	}
	for _, r := range recs {
		for _, f := range tenderbase.TariffFields[r.Kind()] {
			if !covered[fmt.Sprintf("%s.%s", r.Kind(), f)] {
				t.Errorf("no marker in tariff field %s of %s", f, r.Kind())
			}
		}
	}
	m.inns = slices.Sorted(mapKeys(inns))
	return m
}

// fieldStrings returns every string value of each top-level field of r's
// canonical JSON.
func fieldStrings(t *testing.T, r tenderbase.Record) map[string][]string {
	t.Helper()
	body, err := tenderbase.MarshalRecord(r)
	if err != nil {
		t.Fatal(err)
	}
	var fields map[string]any
	if err := json.Unmarshal(body, &fields); err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for name, v := range fields {
		out[name] = stringsIn(v, nil)
	}
	return out
}

func stringsIn(v any, out []string) []string {
	switch v := v.(type) {
	case string:
		if v != "" {
			out = append(out, v)
		}
	case []any:
		for _, e := range v {
			out = stringsIn(e, out)
		}
	case map[string]any:
		for _, e := range v {
			out = stringsIn(e, out)
		}
	}
	return out
}

// searchWord returns the word of a marker a search looks for: its word
// that begins with "hid", or the marker itself when it is a number.
func searchWord(marker string) string {
	if isDigits(marker) {
		return marker
	}
	for w := range textproc.Words(marker) {
		if strings.HasPrefix(w, "hid") {
			return w
		}
	}
	return ""
}

func isDigits(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}

func mapKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// searchedKinds are the kinds a tool or the export searches by text.
var searchedKinds = []tenderbase.Kind{
	tenderbase.KindTender, tenderbase.KindDoc, tenderbase.KindContract,
	tenderbase.KindWorldTender, tenderbase.KindLot, tenderbase.KindFASCase,
}

// searchTools are the tools that search, each with a visible marker of the
// records it finds.
var searchTools = []struct{ name, visible string }{
	{"ru.search", "vistendertitle"},
	{"docs.search", "visdocdescription"},
	{"contracts.search", "viscontractsubject"},
	{"world.search", "visworldtitle"},
	{"torgi.search", "vislottitle"},
}

// calls returns every call of the matrix: each search tool and the
// export's kwords for each marker and for a visible word, every lookup tool
// on the records, every INN, and the export's forms, in each of its formats.
func (m *matrix) calls() []matrixCall {
	var cs []matrixCall
	for _, surface := range []string{surfaceMCP, surfaceDebug} {
		for _, tool := range markedToolCalls(m.inns) {
			tool.surface = surface
			cs = append(cs, tool)
		}
		for _, st := range searchTools {
			cs = append(cs, matrixCall{surface: surface, tool: st.name, args: fmt.Sprintf(`{"query": %q}`, st.visible)})
			for _, marker := range slices.Sorted(mapKeys(m.hidden)) {
				if w := searchWord(marker); w != "" {
					cs = append(cs, matrixCall{surface: surface, tool: st.name, args: fmt.Sprintf(`{"query": %q}`, w), search: marker})
				}
			}
		}
	}
	for _, f := range exportFormats {
		for _, e := range markedExportCalls() {
			e.surface, e.args, e.format = surfaceExport, e.args+f.query, f.name
			cs = append(cs, e)
		}
		for _, marker := range slices.Sorted(mapKeys(m.hidden)) {
			if w := searchWord(marker); w != "" && !isDigits(w) {
				cs = append(cs, matrixCall{surface: surfaceExport, args: "mode=fas&kwords=" + url.QueryEscape(w) + f.query, format: f.name, search: marker})
			}
		}
	}
	return cs
}

// exportFormats are the export's formats, each with the parameters that
// ask for it: CSV comes with TenderGuru's conventions only.
var exportFormats = []struct{ name, query string }{
	{"json", "&dtype=json"},
	{"xml", "&dtype=xml"},
	{"csv", "&dtype=csv&compat=tg"},
}

// markerForms returns the forms a marker may take in an answer: itself,
// and for a date, the day compat=tg writes (11-11-2011), so that a date
// leaks in no form.
func markerForms(marker string) []string {
	d, err := time.Parse(time.RFC3339, marker)
	if err != nil {
		return []string{marker}
	}
	return []string{marker, d.In(tenderbase.Moscow).Format("02-01-2006")}
}

// holds reports whether body holds marker in any of its forms.
func holds(body, marker string) bool {
	for _, form := range markerForms(marker) {
		if strings.Contains(body, form) {
			return true
		}
	}
	return false
}

// toolCalls are the calls of the lookup tools on the marked records.
func markedToolCalls(inns []string) []matrixCall {
	cs := []matrixCall{
		{tool: "ru.detail", args: `{"id": "0173100000124000001"}`},
		{tool: "ru.izm", args: `{"tend_num": "0173100000124000001"}`, counts: timelineCounts},
		{tool: "ru.contractByNum", args: `{"tend_num": "0173100000124000001"}`},
		{tool: "contracts.detail", args: `{"id": "2770000000124000001"}`},
		{tool: "contracts.detail", args: `{"id": "2770000000124000002"}`},
		{tool: "world.detail", args: `{"id": "ted:vis-1"}`},
		{tool: "torgi.detail", args: `{"id": "vislot-1"}`},
		{tool: "contragent.contacts", args: `{"inn": "7700000031"}`, refused: true},
		{tool: "contragent.contacts", args: `{"inn": "7700000001"}`, refused: true},
		{tool: "contragent.byInn", args: `{"inn": "7700000031"}`, counts: innCounts},
	}
	// INNs named only in tariff fields: nothing is known of them to a free
	// caller; of those no lookup reads, to nobody.
	hiddenOnly := []string{"7700000021", "7700000041", "7700000053"}
	unknown := []string{"7700000012", "7700000051", "7700000061"}
	for _, inn := range inns {
		if inn != "7700000031" {
			cs = append(cs, matrixCall{
				tool: "contragent.byInn", args: fmt.Sprintf(`{"inn": %q}`, inn),
				notFound: slices.Contains(hiddenOnly, inn) || slices.Contains(unknown, inn),
				unknown:  slices.Contains(unknown, inn),
			})
		}
	}
	return cs
}

// exportCalls are the export's forms on the marked records, without dtype.
func markedExportCalls() []matrixCall {
	return []matrixCall{
		{args: "mode=fasEIS"},
		{args: "mode=fasEIS&fasCustomerInn=7700000031"},
		{args: "mode=fasEIS&fasCustomerInn=7700000001"},
		{args: "mode=fasEIS&complaintID=900000001"},
		{args: "mode=fasEIS&complaintID=900000001&result=1"},
		{args: "mode=fasEIS&fasSupplierInn=7700000053", refused: true},
		{args: "mode=fasEIS&fasSupplierInn=7700000031", refused: true},
		{args: "mode=fasEIS&tend_num=0173100000124000051", refused: true},
		{args: "mode=fasEIS&tend_num=0173100000124000051&complaint_regNumber=visregnumone", refused: true},
		{args: "mode=fas"},
		{args: "mode=fas&kwords=visfasname"},
		{args: "mode=fas&kwords=7700000071"},
		{args: "mode=fas&id=9000001"},
	}
}

// innCounts are the counts of contragent.byInn that hidden fields make.
func innCounts(v map[string]any) map[string]any {
	complaints, _ := v["complaints"].(map[string]any)
	return map[string]any{
		"as_supplier":            member(v, "as_supplier"),
		"as_participant":         member(v, "as_participant"),
		"complaints.as_supplier": member(complaints, "as_supplier"),
	}
}

// timelineCounts are the counts of participants and winners of the
// protocols in the timeline of ru.izm.
func timelineCounts(v map[string]any) map[string]any {
	out := map[string]any{}
	entries, _ := v["timeline"].([]any)
	for i, e := range entries {
		entry, _ := e.(map[string]any)
		if entry["kind"] == "protocol" {
			out[fmt.Sprintf("timeline[%d].participants", i)] = member(entry, "participants")
			out[fmt.Sprintf("timeline[%d].winners", i)] = member(entry, "winners")
		}
	}
	if len(out) == 0 {
		out["timeline protocol"] = absent{}
	}
	return out
}

// absent stands for a member that is not there at all.
type absent struct{}

func member(v map[string]any, name string) any {
	x, ok := v[name]
	if !ok {
		return absent{}
	}
	return x
}

// check judges the answers of a free caller and, when paid is not zero, of
// a paid one to call c.
func (m *matrix) check(c matrixCall, free, paid hiddenAnswer) {
	leak := func(what, format string, args ...any) {
		m.leaks = append(m.leaks, fmt.Sprintf("%s: %s (%s)", c, fmt.Sprintf(format, args...), what))
	}
	for marker, where := range m.hidden {
		if holds(free.body, marker) && !strings.Contains(c.args, marker) {
			leak("shown", "a free caller sees %s %q", where, marker)
		}
	}
	if c.search != "" && free.total != 0 {
		leak("matched", "a free search for %s %q finds %d", m.hidden[c.search], c.search, free.total)
	}
	switch {
	case c.refused && free.status != http.StatusForbidden:
		leak("filtered", "a free caller gets %d, want 403", free.status)
	case c.notFound && free.status != http.StatusNotFound:
		leak("counted", "a free caller gets %d, want 404: the INN is named only in tariff fields", free.status)
	case !c.refused && !c.notFound && free.status != http.StatusOK:
		m.misses = append(m.misses, fmt.Sprintf("%s: a free caller gets %d: %s", c, free.status, free.body))
	}
	if c.counts != nil && free.status == http.StatusOK {
		for name, v := range c.counts(free.value) {
			if v != nil {
				leak("counted", "a free caller gets %s = %v, want null", name, v)
			}
		}
	}
	if paid.status == 0 {
		return
	}
	m.judgePaid(c, paid)
}

// judgePaid notes what a paid caller found and saw, and that it is not
// refused what a free caller is.
func (m *matrix) judgePaid(c matrixCall, paid hiddenAnswer) {
	if c.unknown && paid.status == http.StatusNotFound {
		return
	}
	if paid.status != http.StatusOK {
		m.misses = append(m.misses, fmt.Sprintf("%s: a paid caller gets %d: %s", c, paid.status, paid.body))
		return
	}
	for marker := range m.hidden {
		if !holds(paid.body, marker) {
			continue
		}
		m.shown[marker] = true
		if c.surface == surfaceExport {
			if m.exportShown[c.format] == nil {
				m.exportShown[c.format] = map[string]bool{}
			}
			m.exportShown[c.format][marker] = true
		}
	}
	if c.search != "" && paid.total > 0 {
		m.matched[c.search] = true
	}
	if c.refused && paid.total == 0 {
		m.misses = append(m.misses, fmt.Sprintf("%s: a paid caller finds nothing", c))
	}
	if c.counts != nil {
		for name, v := range c.counts(paid.value) {
			if v == nil || v == (absent{}) {
				m.misses = append(m.misses, fmt.Sprintf("%s: a paid caller gets no %s", c, name))
			}
		}
	}
}

// problems returns the leaks, once each whatever the surface, the format
// and the key they were seen through, and what the paid calls failed to
// find or show: without that the checks could pass on nothing.
func (m *matrix) problems() []string {
	out := append(m.distinctLeaks(), m.misses...)
	for marker, where := range m.hidden {
		if !m.shown[marker] {
			out = append(out, fmt.Sprintf("no paid call shows %s %q", where, marker))
		}
		for _, f := range exportFormats {
			if exported(where) && !m.exportShown[f.name][marker] {
				out = append(out, fmt.Sprintf("no paid export in %s shows %s %q", f.name, where, marker))
			}
		}
		if m.searchable[marker] && !m.matched[marker] {
			out = append(out, fmt.Sprintf("no paid search finds %s %q", where, marker))
		}
	}
	slices.Sort(out)
	return out
}

// exported reports whether a marker's place ("complaint.text") is a field
// of a kind the export writes.
func exported(where string) bool {
	kind, _, _ := strings.Cut(where, ".")
	return export.Fields(tenderbase.Kind(kind)) != nil
}

// readRecords reads an NDJSON file of records.
func readRecords(t *testing.T, path string) []tenderbase.Record {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var recs []tenderbase.Record
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		r, err := tenderbase.DecodeEnvelope(sc.Bytes())
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		recs = append(recs, r)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return recs
}
