package httpserver_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tenderbase/tenderbase/internal/golden"
)

// exportForm is one request form of the export, without dtype and api_code.
type exportForm struct {
	name, query string
}

// exportForms are the request forms of spec 4.5 on the demo dataset, and an
// error.
var exportForms = []exportForm{
	{"registry", "mode=fasEIS&per_page=5"},
	{"supplier", "mode=fasEIS&fasSupplierInn=7404840216"},
	{"customer", "mode=fasEIS&fasCustomerInn=3617787496"},
	{"procurement", "mode=fasEIS&tend_num=0772042106623943123"},
	{"procurement-complaint", "mode=fasEIS&tend_num=0772324477523073048&complaint_regNumber=202307701000001"},
	{"results", "mode=fasEIS&complaintID=19468444&result=1"},
	{"fas-kwords", "mode=fas&kwords=" + url.QueryEscape(`"государственные закупки" заказчика`) + "&per_page=3"},
	{"fas-inn", "mode=fas&kwords=7404840216"},
	{"fas-id", "mode=fas&id=3100091"},
	{"fas-registry", "mode=fas&per_page=2&page=1"},
	{"error", "mode=fasEIS&result=2"},
}

// exportAnswer is a response of the export as a test sees it.
type exportAnswer struct {
	status int
	header http.Header
	body   []byte
}

// getExport requests the export with query.
func getExport(t *testing.T, ts *httptest.Server, query string) exportAnswer {
	t.Helper()
	resp, body := send(t, ts, "GET", "/api2.3/export?"+query, "", nil)
	return exportAnswer{status: resp.StatusCode, header: resp.Header, body: body}
}

// exportHeaders are the headers a golden file pins.
var exportHeaders = []string{"Content-Type", "Retry-After", "X-Notice", "X-Page", "X-Per-Page",
	"X-Restricted-Fields", "X-Row-Cap", "X-Total-Count"}

// String prints the status, the headers of exportHeaders and the body.
func (a exportAnswer) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d\n", a.status)
	for _, h := range exportHeaders {
		if v := a.header.Get(h); v != "" {
			fmt.Fprintf(&b, "%s: %s\n", h, v)
		}
	}
	b.WriteString("\n")
	b.Write(a.body)
	return b.String()
}

// goldenFormats are the formats the golden files pin, by the ending of
// their names: the spec's two, and TenderGuru's JSON and CSV (compat=tg).
var goldenFormats = []struct{ name, query string }{
	{"xml", "&dtype=xml"},
	{"json", "&dtype=json"},
	{"tg.json", "&dtype=json&compat=tg"},
	{"tg.csv", "&dtype=csv&compat=tg"},
}

// TestExportGolden pins the answer to every form in every format of
// goldenFormats for a free and a paid key in
// testdata/export/<form>.<format>.golden. Run with -update to rewrite the
// files after a deliberate change.
func TestExportGolden(t *testing.T) {
	ts := newDemoServer(t)
	for _, form := range exportForms {
		for _, format := range goldenFormats {
			t.Run(form.name+"."+format.name, func(t *testing.T) {
				query := form.query
				if strings.Contains(format.query, "compat=tg") {
					query = tgPaged(t, query)
				}
				var b strings.Builder
				for _, key := range []string{"free", "paid"} {
					q := query + format.query + "&api_code=" + key
					fmt.Fprintf(&b, "== GET /api2.3/export?%s\n", q)
					b.WriteString(getExport(t, ts, q).String())
					b.WriteString("\n")
				}
				golden.Check(t, filepath.Join("testdata", "export", form.name+"."+format.name+".golden"), b.String())
			})
		}
	}
}

// sortedKeys is used by the tests that walk records.
func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
