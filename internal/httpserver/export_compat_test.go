package httpserver_test

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/export"
	"github.com/tenderbase/tenderbase/internal/httpserver"
	"github.com/tenderbase/tenderbase/internal/postgres"
	"github.com/tenderbase/tenderbase/internal/postgres/pgtest"
	"github.com/tenderbase/tenderbase/internal/tools"
)

// forEachStore runs test against a server of the demo dataset on each
// store: SQLite and PostgreSQL.
func forEachStore(t *testing.T, test func(t *testing.T, ts *httptest.Server)) {
	t.Run("sqlite", func(t *testing.T) { test(t, newDemoServer(t)) })
	t.Run("postgres", func(t *testing.T) {
		store, err := postgres.Open(t.Context(), pgtest.URL(t), nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { store.Close() })
		putDemo(t, store)
		srv := httpserver.New(httpserver.Config{Tools: tools.New(store, nil), Keys: fakeKeys{}, Limiter: fakeLimiter{}}, store, nil)
		ts := httptest.NewServer(srv.Handler())
		t.Cleanup(ts.Close)
		test(t, ts)
	})
}

// exportList requests query in JSON and returns the elements of the array.
func exportList(t *testing.T, ts *httptest.Server, query string) (exportAnswer, []map[string]any) {
	t.Helper()
	a := getExport(t, ts, query+"&dtype=json")
	if a.status != 200 {
		t.Fatalf("%s: status %d: %s", query, a.status, a.body)
	}
	var list []map[string]any
	if err := json.Unmarshal(a.body, &list); err != nil || list == nil {
		t.Fatalf("%s: the body is no JSON array: %v\n%s", query, err, a.body)
	}
	return a, list
}

// tgList requests query under TenderGuru's conventions in JSON, checks
// that the first element is the total, {"Total": N} with N the
// X-Total-Count, and returns the records after it.
func tgList(t *testing.T, ts *httptest.Server, query string) (exportAnswer, []map[string]any) {
	t.Helper()
	a, list := exportList(t, ts, query+"&compat=tg")
	total, err := strconv.Atoi(a.header.Get("X-Total-Count"))
	if err != nil || len(list) == 0 || !cmp.Equal(list[0], map[string]any{"Total": float64(total)}) {
		t.Fatalf("%s&compat=tg: X-Total-Count %q, first element %v; want {\"Total\": X-Total-Count}", query, a.header.Get("X-Total-Count"), list[:min(1, len(list))])
	}
	return a, list[1:]
}

// TestExportTenderGuruPaging pages through the complaints and the cases
// both ways: page N+1 under compat=tg is page N of the spec, record for
// record, and X-Page counts the way the request did. Without page, compat=tg
// gives the first page.
func TestExportTenderGuruPaging(t *testing.T) {
	forEachStore(t, func(t *testing.T, ts *httptest.Server) {
		for _, base := range []string{"mode=fasEIS&per_page=10&api_code=paid", "mode=fas&per_page=2", "mode=fasEIS&per_page=7&api_code=free"} {
			for page := range 3 {
				spec, records := exportList(t, ts, fmt.Sprintf("%s&page=%d", base, page))
				tg, tgRecords := tgList(t, ts, fmt.Sprintf("%s&page=%d", base, page+1))
				if len(records) == 0 && page < 2 {
					t.Fatalf("%s&page=%d: no records to compare", base, page)
				}
				if diff := cmp.Diff(keys(records), keys(tgRecords)); diff != "" {
					t.Errorf("%s: page %d of the spec and page %d of compat=tg differ (-spec +tg):\n%s", base, page, page+1, diff)
				}
				if spec.header.Get("X-Page") != strconv.Itoa(page) || tg.header.Get("X-Page") != strconv.Itoa(page+1) {
					t.Errorf("%s: X-Page %q and %q, want %d and %d", base, spec.header.Get("X-Page"), tg.header.Get("X-Page"), page, page+1)
				}
				if spec.header.Get("X-Total-Count") != tg.header.Get("X-Total-Count") {
					t.Errorf("%s: X-Total-Count %q by the spec, %q by compat=tg", base, spec.header.Get("X-Total-Count"), tg.header.Get("X-Total-Count"))
				}
			}
			_, first := tgList(t, ts, base+"&page=1")
			_, absent := tgList(t, ts, base)
			if diff := cmp.Diff(keys(first), keys(absent)); diff != "" {
				t.Errorf("%s&compat=tg: without page, not the first page (-page=1 +absent):\n%s", base, diff)
			}
		}
	})
}

// keys returns the key fields of records, which tell them apart.
func keys(records []map[string]any) []string {
	var out []string
	for _, r := range records {
		out = append(out, fmt.Sprint(r["complaintNumber"], r["checkResultNumber"], r["id"], r["versionNumber"]))
	}
	return out
}

// tgDate is a date as TenderGuru writes it.
var tgDate = regexp.MustCompile(`^\d{2}-\d{2}-\d{4}$`)

// TestExportTenderGuruDates reads every form under both conventions: the
// records hold the same values, but that a date of the spec's,
// 2023-02-07T15:00:00+03:00, is 07-02-2023 under compat=tg, the day in
// Moscow. The empty page has its total too: [{"Total":0}].
func TestExportTenderGuruDates(t *testing.T) {
	forEachStore(t, func(t *testing.T, ts *httptest.Server) {
		dates := 0
		for _, form := range exportForms {
			if form.name == "error" {
				continue
			}
			_, records := exportList(t, ts, form.query+"&api_code=paid")
			_, tgRecords := tgList(t, ts, tgPaged(t, form.query)+"&api_code=paid")
			if len(records) != len(tgRecords) {
				t.Fatalf("%s: %d records by the spec, %d by compat=tg", form.name, len(records), len(tgRecords))
			}
			for i, r := range records {
				dates += checkTGRecord(t, form.name, r, tgRecords[i])
			}
		}
		if dates == 0 {
			t.Error("no date compared")
		}
		a := getExport(t, ts, "mode=fasEIS&fasCustomerInn=7700000000&dtype=json&compat=tg")
		if string(a.body) != `[{"Total":0}]`+"\n" || a.header.Get("X-Total-Count") != "0" {
			t.Errorf("empty page: %s, X-Total-Count %q; want [{\"Total\":0}]", a.body, a.header.Get("X-Total-Count"))
		}
	})
}

// tgPaged returns query with its page, if any, numbered as compat=tg
// numbers pages: from 1.
func tgPaged(t *testing.T, query string) string {
	t.Helper()
	values, err := url.ParseQuery(query)
	if err != nil {
		t.Fatal(err)
	}
	page := values.Get("page")
	if page == "" {
		return query
	}
	n, err := strconv.Atoi(page)
	if err != nil {
		t.Fatal(err)
	}
	values.Set("page", strconv.Itoa(n+1))
	return values.Encode()
}

// checkTGRecord checks that tg, a record under compat=tg, holds the values
// of r, the same record by the spec, its dates as DD-MM-YYYY, and returns
// how many dates it compared.
func checkTGRecord(t *testing.T, form string, r, tg map[string]any) int {
	t.Helper()
	dates := 0
	for name, v := range r {
		s, ok := v.(string)
		d, err := time.Parse(time.RFC3339, s)
		if !ok || err != nil {
			if !cmp.Equal(v, tg[name]) {
				t.Errorf("%s: %s is %v by the spec, %v by compat=tg", form, name, v, tg[name])
			}
			continue
		}
		want := d.In(tenderbase.Moscow).Format("02-01-2006")
		if got, _ := tg[name].(string); got != want || !tgDate.MatchString(got) {
			t.Errorf("%s: %s %s is %v under compat=tg, want %s", form, name, s, tg[name], want)
		}
		dates++
	}
	if len(r) != len(tg) {
		t.Errorf("%s: %d fields by the spec, %d by compat=tg", form, len(r), len(tg))
	}
	return dates
}

// TestExportTenderGuruXML checks the XML of compat=tg: the spec's document,
// its page counted from 1 and its dates as DD-MM-YYYY.
func TestExportTenderGuruXML(t *testing.T) {
	forEachStore(t, func(t *testing.T, ts *httptest.Server) {
		a := getExport(t, ts, "mode=fas&per_page=2&page=2&compat=tg")
		xmllint(t, a.body)
		recs := xmlRecords(t, a.body)
		if a.status != 200 || len(recs) != 2 || !strings.Contains(string(a.body), `<export mode="fas" page="2" per_page="2" total="`) ||
			!regexp.MustCompile(`<date>\d{2}-\d{2}-\d{4}</date>`).Match(a.body) || strings.Contains(string(a.body), "Total") {
			t.Errorf("status %d, %d records:\n%s", a.status, len(recs), a.body)
		}
	})
}

// TestExportCSV reads every form as CSV with encoding/csv, for a free and
// a paid key, and compares it with the same request in JSON: the header
// row names the fields of the JSON records in their order, and each row
// holds a record's values, a null as an empty cell. The headers but
// Content-Type are those of the JSON answer.
func TestExportCSV(t *testing.T) {
	forEachStore(t, func(t *testing.T, ts *httptest.Server) {
		for _, form := range exportForms {
			if form.name == "error" {
				continue
			}
			for _, key := range []string{"", "&api_code=free", "&api_code=paid"} {
				query := form.query + key + "&compat=tg"
				a := getExport(t, ts, query+"&dtype=csv")
				j := getExport(t, ts, query+"&dtype=json")
				if j.status != 200 {
					if a.status != j.status || a.header.Get("Content-Type") != "application/json; charset=utf-8" || string(a.body) != string(j.body) {
						t.Errorf("%s: CSV %d %q %s; want the JSON error %d %s", query, a.status, a.header.Get("Content-Type"), a.body, j.status, j.body)
					}
					continue
				}
				checkCSVAnswer(t, query, a, j)
			}
		}
	})
}

// checkCSVAnswer checks a, a CSV answer, against j, the JSON answer to the
// same request.
func checkCSVAnswer(t *testing.T, query string, a, j exportAnswer) {
	t.Helper()
	if a.status != 200 || a.header.Get("Content-Type") != "text/csv; charset=utf-8" {
		t.Fatalf("%s: status %d, Content-Type %q: %s", query, a.status, a.header.Get("Content-Type"), a.body)
	}
	for _, h := range exportHeaders {
		if h != "Content-Type" && a.header.Get(h) != j.header.Get(h) {
			t.Errorf("%s: %s %q in CSV, %q in JSON", query, h, a.header.Get(h), j.header.Get(h))
		}
	}
	rows, err := csv.NewReader(strings.NewReader(string(a.body))).ReadAll()
	if err != nil {
		t.Fatalf("%s: the body is no CSV: %v\n%s", query, err, a.body)
	}
	names, records := jsonFieldsInOrder(t, j.body)
	if len(rows) == 0 || len(rows)-1 != len(records) {
		t.Fatalf("%s: %d CSV rows for %d JSON records", query, len(rows), len(records))
	}
	if names != nil && !cmp.Equal(rows[0], names) {
		t.Errorf("%s: header %v, want the JSON fields %v", query, rows[0], names)
	}
	for i, r := range records {
		want := make([]string, len(rows[0]))
		for c, name := range rows[0] {
			want[c] = csvValue(r[name])
		}
		if diff := cmp.Diff(want, rows[i+1]); diff != "" {
			t.Errorf("%s: row %d (-JSON +CSV):\n%s", query, i+1, diff)
		}
	}
}

// jsonFieldsInOrder reads a JSON answer of compat=tg: the names of its
// records' fields in their order, and the records after the total.
func jsonFieldsInOrder(t *testing.T, body []byte) ([]string, []map[string]any) {
	t.Helper()
	var raw []json.RawMessage
	if err := json.Unmarshal(body, &raw); err != nil || len(raw) == 0 {
		t.Fatalf("JSON %v: %s", err, body)
	}
	var names []string
	var records []map[string]any
	for _, r := range raw[1:] {
		var m map[string]any
		if err := json.Unmarshal(r, &m); err != nil {
			t.Fatal(err)
		}
		records = append(records, m)
		if names == nil {
			names = objectNames(t, r)
		}
	}
	return names, records
}

// objectNames returns the member names of a JSON object in their order.
func objectNames(t *testing.T, object json.RawMessage) []string {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(string(object)))
	dec.Token() // {
	var names []string
	for dec.More() {
		name, _ := dec.Token()
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
		names = append(names, name.(string))
	}
	return names
}

// csvValue is the cell a JSON value is written as.
func csvValue(v any) string {
	switch v := v.(type) {
	case nil:
		return ""
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	case string:
		// A line break within a value goes out as CRLF and comes back as
		// LF; a CR alone does not go out.
		return strings.ReplaceAll(v, "\r", "")
	}
	return fmt.Sprint(v)
}

// TestExportCSVHidesTariffFields checks that a free caller's CSV has an
// empty cell in every tariff field, and names them in X-Restricted-Fields.
func TestExportCSVHidesTariffFields(t *testing.T) {
	forEachStore(t, func(t *testing.T, ts *httptest.Server) {
		for _, q := range []struct {
			query string
			kind  tenderbase.Kind
		}{
			{"mode=fasEIS", tenderbase.KindComplaint},
			{"mode=fasEIS&complaintID=19468444&result=1", tenderbase.KindComplaintResult},
			{"mode=fas", tenderbase.KindFASCase},
		} {
			for _, key := range []string{"", "&api_code=free"} {
				a := getExport(t, ts, q.query+key+"&dtype=csv&compat=tg")
				rows, err := csv.NewReader(strings.NewReader(string(a.body))).ReadAll()
				if err != nil || len(rows) < 2 {
					t.Fatalf("%s%s: %d rows, %v\n%s", q.query, key, len(rows), err, a.body)
				}
				tariff := tenderbase.TariffFields[q.kind]
				for c, name := range rows[0] {
					for _, row := range rows[1:] {
						if row[c] != "" && slices.Contains(tariff, name) {
							t.Errorf("%s%s: tariff field %s holds %q", q.query, key, name, row[c])
						}
					}
				}
				if got := a.header.Get("X-Restricted-Fields"); got == "" {
					t.Errorf("%s%s: no X-Restricted-Fields", q.query, key)
				}
			}
		}
	})
}

// TestExportFieldsOfCSV checks that the CSV header of each kind is the
// export's fields, exactly as the spec's tables name them.
func TestExportFieldsOfCSV(t *testing.T) {
	ts := newDemoServer(t)
	for query, kind := range map[string]tenderbase.Kind{
		"mode=fasEIS&per_page=1":                                    tenderbase.KindComplaint,
		"mode=fasEIS&complaintID=19468444&result=1":                 tenderbase.KindComplaintResult,
		"mode=fas&per_page=1":                                       tenderbase.KindFASCase,
		"mode=fasEIS&fasCustomerInn=7700000000":                     tenderbase.KindComplaint,
		"mode=fasEIS&complaintID=nothing&result=1":                  tenderbase.KindComplaintResult,
		"mode=fas&kwords=" + url.QueryEscape("несуществующееслово"): tenderbase.KindFASCase,
	} {
		a := getExport(t, ts, query+"&dtype=csv&compat=tg")
		header, _, _ := strings.Cut(string(a.body), "\r\n")
		var want []string
		for _, f := range export.Fields(kind) {
			want = append(want, f.Name)
		}
		if diff := cmp.Diff(strings.Join(want, ","), header); diff != "" {
			t.Errorf("%s: header (-want +got):\n%s", query, diff)
		}
	}
}
