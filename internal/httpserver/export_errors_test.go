package httpserver_test

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/export"
	"github.com/tenderbase/tenderbase/internal/httpserver"
)

func TestExportErrors(t *testing.T) {
	ts := newDemoServer(t)
	const xmlError = "application/xml; charset=utf-8"
	const jsonError = "application/json; charset=utf-8"
	tests := []struct {
		query       string
		status      int
		contentType string
		body        string
		header      string // "Name: value", if any
	}{
		{"mode=fasEIS&tend_num=12a", 400, xmlError,
			`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<error code="invalid">tend_num must be a procurement number of digits, got "12a"</error>` + "\n", ""},
		{"mode=fasEIS&tend_num=12a&dtype=json", 400, jsonError,
			`{"error":{"code":"invalid","message":"tend_num must be a procurement number of digits, got \"12a\""}}` + "\n", ""},
		{"mode=fasEIS&dtype=yaml", 400, jsonError,
			`{"error":{"code":"invalid","message":"unknown dtype \"yaml\": the formats are xml (the default), json, xlsx and, with compat=tg, csv"}}` + "\n", ""},
		// Nor has XLSX: an error is never a broken or an empty spreadsheet.
		{"mode=fasEIS&tend_num=12a&dtype=xlsx", 400, jsonError,
			`{"error":{"code":"invalid","message":"tend_num must be a procurement number of digits, got \"12a\""}}` + "\n", ""},
		{"mode=bogus&dtype=xlsx", 400, jsonError,
			`{"error":{"code":"invalid","message":"unknown mode \"bogus\": the modes are fasEIS, fas, aggregate and flags"}}` + "\n", ""},
		{"mode=fasEIS&fasSupplierInn=1234567890&dtype=XLSX", 403, jsonError,
			`{"error":{"code":"forbidden","message":"fasSupplierInn selects complaint records by their field supplierInn, which only paid plans see (standard, guru, corporate); your plan is free"}}` + "\n", ""},
		{"mode=fasEIS&api_code=limited&dtype=xlsx", 429, jsonError,
			`{"error":{"code":"rate_limited","message":"rate limit of key k_limited exceeded (30 requests a minute, 10 at once): retry in 42 s"}}` + "\n",
			"Retry-After: 42"},
		{"mode=fasEIS&api_code=nobody&dtype=xlsx", 401, jsonError,
			`{"error":{"code":"unauthorized","message":"unknown key"}}` + "\n",
			`WWW-Authenticate: api_code realm="tenderbase"`},
		// CSV has no shape for an error: the errors of a CSV request are JSON.
		{"mode=fasEIS&dtype=csv", 400, jsonError,
			`{"error":{"code":"invalid","message":"dtype=csv is one of TenderGuru's conventions: add compat=tg, or ask for xml or json, the spec's formats"}}` + "\n", ""},
		{"mode=fasEIS&tend_num=12a&dtype=csv&compat=tg", 400, jsonError,
			`{"error":{"code":"invalid","message":"tend_num must be a procurement number of digits, got \"12a\""}}` + "\n", ""},
		{"mode=fasEIS&fasSupplierInn=1234567890&dtype=csv&compat=tg", 403, jsonError,
			`{"error":{"code":"forbidden","message":"fasSupplierInn selects complaint records by their field supplierInn, which only paid plans see (standard, guru, corporate); your plan is free"}}` + "\n", ""},
		{"mode=fasEIS&api_code=limited&dtype=csv&compat=tg", 429, jsonError,
			`{"error":{"code":"rate_limited","message":"rate limit of key k_limited exceeded (30 requests a minute, 10 at once): retry in 42 s"}}` + "\n",
			"Retry-After: 42"},
		{"mode=fasEIS&compat=tenderguru", 400, xmlError,
			`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<error code="invalid">unknown compat "tenderguru": the one value is tg (TenderGuru's conventions); leave it out for the spec's</error>` + "\n", ""},
		{"mode=fasEIS&compat=tg&page=0&dtype=json", 400, jsonError,
			`{"error":{"code":"invalid","message":"pages count from 1 with compat=tg: page=1 is the first page, got \"0\""}}` + "\n", ""},
		{"mode=fasEIS&fasSupplierInn=1234567890&dtype=csv&compat=tg&api_code=paid", 200, "text/csv; charset=utf-8",
			strings.Join(complaintFields(), ",") + "\r\n", "X-Total-Count: 0"},
		{"mode=fasEIS&api_code=nobody", 401, xmlError,
			`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<error code="unauthorized">unknown key</error>` + "\n",
			`WWW-Authenticate: api_code realm="tenderbase"`},
		{"mode=fasEIS&api_code=limited&dtype=json", 429, jsonError,
			`{"error":{"code":"rate_limited","message":"rate limit of key k_limited exceeded (30 requests a minute, 10 at once): retry in 42 s"}}` + "\n",
			"Retry-After: 42"},
		{"mode=fasEIS&fasSupplierInn=1234567890&dtype=json", 403, jsonError,
			`{"error":{"code":"forbidden","message":"fasSupplierInn selects complaint records by their field supplierInn, which only paid plans see (standard, guru, corporate); your plan is free"}}` + "\n", ""},
		{"mode=fasEIS&tend_num=1234&api_code=free", 403, xmlError,
			`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<error code="forbidden">tend_num selects complaint records by their field purchaseNumber, which only paid plans see (standard, guru, corporate); your plan is free</error>` + "\n", ""},
		{"mode=fasEIS&fasSupplierInn=1234567890&dtype=json&api_code=paid", 200, jsonError, "[]\n", "X-Total-Count: 0"},
		// A pair the query string cannot hold is refused, never dropped.
		{"mode=fas&kwords=%zz", 400, xmlError,
			`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<error code="invalid">the query string pair "kwords=%zz" is not URL-encoded: a % must be followed by two hex digits (%25 is a % itself)</error>` + "\n", ""},
		{"dtype=json&mode=fas;dtype=json", 400, jsonError,
			`{"error":{"code":"invalid","message":"the query string pair \"mode=fas;dtype=json\" holds a semicolon: separate parameters with & (and send a semicolon in a value as %3B)"}}` + "\n", ""},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			a := getExport(t, ts, tt.query)
			if a.status != tt.status {
				t.Errorf("status %d, want %d", a.status, tt.status)
			}
			if ct := a.header.Get("Content-Type"); ct != tt.contentType {
				t.Errorf("Content-Type %q, want %q", ct, tt.contentType)
			}
			if diff := cmp.Diff(tt.body, string(a.body)); diff != "" {
				t.Errorf("body (-want +got):\n%s", diff)
			}
			if tt.header != "" && !hasHeader(a, tt.header) {
				t.Errorf("no header %s in %v", tt.header, a.header)
			}
			if cd := a.header.Get("Content-Disposition"); a.status != 200 && cd != "" {
				t.Errorf("an error saved as a file: Content-Disposition %q", cd)
			}
		})
	}
}

// complaintFields returns the names of the export's fields of a complaint.
func complaintFields() []string {
	var names []string
	for _, f := range export.Fields(tenderbase.KindComplaint) {
		names = append(names, f.Name)
	}
	return names
}

// hasHeader reports whether a carries the header "Name: value".
func hasHeader(a exportAnswer, header string) bool {
	name, value, _ := strings.Cut(header, ": ")
	return a.header.Get(name) == value
}

// cappedKeys knows the key "capped", a free key whose row cap is 7.
type cappedKeys struct{ tenderbase.KeyStore }

func (cappedKeys) Authenticate(ctx context.Context, secret string) (tenderbase.Key, error) {
	if secret == "capped" {
		return tenderbase.Key{ID: "k_capped", Plan: tenderbase.PlanFree, Status: tenderbase.KeyActive,
			Overrides: tenderbase.Limits{RowCap: 7}}, nil
	}
	return tenderbase.Key{}, tenderbase.Errorf(tenderbase.EUNAUTHORIZED, "unknown key")
}

// TestExportRowCap pages through the 25 current demo complaints with a key
// whose row cap is 7: per_page is lowered to the cap, a page that reaches
// over the cap is cut short, one past it is empty, and both say why.
func TestExportRowCap(t *testing.T) {
	store := demoStore(t)
	ts := httptest.NewServer(httpserver.New(httpserver.Config{Keys: cappedKeys{}}, store, nil).Handler())
	t.Cleanup(ts.Close)
	const notice = "row cap reached: the free plan pages through the first 7 of 25 rows; a larger plan raises the cap"
	tests := []struct {
		query           string
		records         int
		perPage, notice string
	}{
		{"mode=fasEIS&dtype=json&api_code=capped", 7, "7", ""},
		{"mode=fasEIS&dtype=json&api_code=capped&per_page=5", 5, "5", ""},
		{"mode=fasEIS&dtype=json&api_code=capped&per_page=5&page=1", 2, "5", notice},
		{"mode=fasEIS&dtype=json&api_code=capped&per_page=5&page=2", 0, "5", notice},
		{"mode=fasEIS&dtype=json&api_code=capped&page=1000000", 0, "7", notice},
	}
	for _, tt := range tests {
		a := getExport(t, ts, tt.query)
		got := len(jsonRecords(t, a.body))
		if got != tt.records || a.header.Get("X-Per-Page") != tt.perPage || a.header.Get("X-Notice") != tt.notice ||
			a.header.Get("X-Total-Count") != "25" || a.header.Get("X-Row-Cap") != "7" {
			t.Errorf("%s: %d records, headers %v; want %d records, X-Per-Page %s, X-Notice %q",
				tt.query, got, a.header, tt.records, tt.perPage, tt.notice)
		}
	}
}

// TestExportBearer checks that the export takes its key in an
// Authorization: Bearer header as /mcp does, and never serves the free view
// to a request that carries a header it cannot use.
func TestExportBearer(t *testing.T) {
	ts := newDemoServer(t)
	const query = "mode=fasEIS&dtype=json&per_page=5"
	tests := []struct {
		name, authorization, apiCode string
		status                       int
		hidden                       bool   // fields are hidden: the free view
		header                       string // "Name: value", if any
		message                      string // of an error
	}{
		{"free view", "", "", 200, true, "", ""},
		{"paid key as Bearer", "Bearer paid", "", 200, false, "", ""},
		{"paid key in both", "Bearer paid", "paid", 200, false, "", ""},
		{"scheme in another case", "bearer paid", "", 200, false, "", ""},
		{"two keys", "Bearer paid", "free", 400, false, "",
			"api_code and the Authorization header carry different keys; send the key in one of them"},
		{"unknown Bearer key", "Bearer nobody", "", 401, false, `WWW-Authenticate: Bearer realm="tenderbase", error="invalid_token"`, "unknown key"},
		{"unknown api_code", "", "nobody", 401, false, `WWW-Authenticate: api_code realm="tenderbase"`, "unknown key"},
		{"not Bearer", "Basic cGFpZDo=", "", 401, false, `WWW-Authenticate: Bearer realm="tenderbase"`,
			"the Authorization header is not a Bearer token; send the header Authorization: Bearer <key>"},
		{"rate limited", "Bearer limited", "", 429, false, "Retry-After: 42", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := "/api2.3/export?" + query
			if tt.apiCode != "" {
				path += "&api_code=" + tt.apiCode
			}
			header := map[string]string{}
			if tt.authorization != "" {
				header["Authorization"] = tt.authorization
			}
			resp, body := send(t, ts, "GET", path, "", header)
			a := exportAnswer{status: resp.StatusCode, header: resp.Header, body: body}
			if a.status != tt.status {
				t.Errorf("status %d, want %d: %.200s", a.status, tt.status, body)
			}
			if hidden := a.header.Get("X-Restricted-Fields") != ""; a.status == 200 && hidden != tt.hidden {
				t.Errorf("X-Restricted-Fields %q: the free view is %v, want %v", a.header.Get("X-Restricted-Fields"), hidden, tt.hidden)
			}
			if tt.header != "" && !hasHeader(a, tt.header) {
				t.Errorf("no header %s in %v", tt.header, a.header)
			}
			if tt.message != "" && !strings.Contains(string(body), `"message":"`+tt.message+`"`) {
				t.Errorf("body %.200s, want the message %s", body, tt.message)
			}
		})
	}
}
