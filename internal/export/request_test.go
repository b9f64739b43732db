package export

import (
	"net/url"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/tenderbase/tenderbase"
)

func TestParse(t *testing.T) {
	tests := []struct {
		query string
		want  Request
	}{
		{"mode=fasEIS", Request{Mode: ModeFasEIS}},
		{"mode=fasEIS&dtype=json&api_code=k&page=2&per_page=50", Request{Mode: ModeFasEIS, Format: JSON, APICode: "k", Page: 2, PerPage: 50}},
		{"mode=fasEIS&fasSupplierInn=0536521083", Request{Mode: ModeFasEIS, SupplierINN: "0536521083"}},
		{"mode=fasEIS&fasCustomerInn=773400211252", Request{Mode: ModeFasEIS, CustomerINN: "773400211252"}},
		{"mode=fasEIS&tend_num=0772324477523073048&complaint_regNumber=202307701000001",
			Request{Mode: ModeFasEIS, TendNum: "0772324477523073048", ComplaintRegNum: "202307701000001"}},
		{"mode=fasEIS&complaintID=19468444&result=1", Request{Mode: ModeFasEIS, ComplaintID: "19468444", Result: true}},
		{"mode=fasEIS&complaintID=19468444", Request{Mode: ModeFasEIS, ComplaintID: "19468444"}},
		{"mode=fas&id=3100091", Request{Mode: ModeFas, ID: 3100091}},
		{"mode=fas&kwords=7404840216", Request{Mode: ModeFas, INN: "7404840216"}},
		{"mode=FASEIS&dtype=JSON", Request{Mode: ModeFasEIS, Format: JSON}},
		{"mode=fasEIS&tend_num=&dtype=", Request{Mode: ModeFasEIS}},
		// The integer forms of the spec's types lost their leading zeros.
		{"mode=fasEIS&tend_num=772324477523073048", Request{Mode: ModeFasEIS, TendNum: "0772324477523073048"}},
		{"mode=fasEIS&tend_num=32413456789", Request{Mode: ModeFasEIS, TendNum: "32413456789"}},
		{"mode=fasEIS&fasSupplierInn=536521083", Request{Mode: ModeFasEIS, SupplierINN: "0536521083"}},
		{"mode=fasEIS&fasCustomerInn=73400211252", Request{Mode: ModeFasEIS, CustomerINN: "073400211252"}},
		// TenderGuru's pages count from 1; the request holds them from 0.
		{"mode=fasEIS&compat=tg", Request{Mode: ModeFasEIS, Compat: CompatTG}},
		{"mode=fasEIS&compat=tg&page=1", Request{Mode: ModeFasEIS, Compat: CompatTG}},
		{"mode=fasEIS&compat=tg&page=3&dtype=json", Request{Mode: ModeFasEIS, Compat: CompatTG, Format: JSON, Page: 2}},
		{"mode=fasEIS&compat=tg&page=1000000", Request{Mode: ModeFasEIS, Compat: CompatTG, Page: 999_999}},
		{"mode=fasEIS&compat=TG&dtype=CSV", Request{Mode: ModeFasEIS, Compat: CompatTG, Format: CSV}},
		{"mode=fasEIS&compat=&page=0", Request{Mode: ModeFasEIS}},
	}
	for _, tt := range tests {
		got, err := Parse(mustQuery(t, tt.query))
		if err != nil {
			t.Errorf("%s: %v", tt.query, err)
			continue
		}
		if diff := cmp.Diff(tt.want, got, cmpopts.IgnoreFields(Request{}, "Kwords")); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.query, diff)
		}
	}
}

func TestParseKwords(t *testing.T) {
	q, err := Parse(mustQuery(t, "mode=fas&kwords=закупки+(жалоба+|+дело)"))
	if err != nil || q.Kwords == nil {
		t.Fatalf("got %v, %v", q.Kwords, err)
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct{ query, message string }{
		{"", "mode is required: fasEIS (complaints and their results), fas (FAS cases), aggregate (a search in groups) or flags (a tender's red flags)"},
		{"mode=fz44", `unknown mode "fz44": the modes are fasEIS, fas, aggregate and flags`},
		{"mode=aggregate&dtype=pdf", `unknown dtype "pdf": mode=aggregate answers json (the default), csv or xlsx`},
		{"mode=flags&dtype=xml", "mode=flags answers a table: dtype json (the default), csv or xlsx, not xml"},
		{"mode=aggregate&resource=ru&by=region&level=10", `level must be a whole number from 1 to 9, got "10"`},
		{"mode=aggregate&resource=ru&by=region&laws=44,", `laws must be whole numbers separated by commas, such as 77,50, got "44,"`},
		{"mode=aggregate&resource=ru&by=region&compat=tg", "compat is a parameter of mode=fasEIS or mode=fas, not of mode=aggregate; the parameters of mode=aggregate are " + namesOf(ModeAggregate)},
		{"mode=fasEIS&dtype=yaml", `unknown dtype "yaml": the formats are xml (the default), json, xlsx and, with compat=tg, csv`},
		{"mode=fasEIS&dtype=csv", "dtype=csv is one of TenderGuru's conventions: add compat=tg, or ask for xml or json, the spec's formats"},
		{"mode=fasEIS&compat=tenderguru", `unknown compat "tenderguru": the one value is tg (TenderGuru's conventions); leave it out for the spec's`},
		{"mode=fasEIS&compat=tg&compat=tg", "parameter compat is given 2 times; give it once"},
		{"mode=fasEIS&compat=tg&page=0", `pages count from 1 with compat=tg: page=1 is the first page, got "0"`},
		{"mode=fasEIS&compat=tg&page=1000001", `page must be a whole number from 1 to 1000000, got "1000001"`},
		{"mode=fasEIS&dtype=xml&dtype=json", "parameter dtype is given 2 times; give it once"},
		{"mode=fasEIS&tend_num=1&tend_num=2", "parameter tend_num is given 2 times; give it once"},
		{"mode=fasEIS&fasSupplierINN=7404840216&x=1", `unknown parameters "fasSupplierINN" (did you mean fasSupplierInn?), "x"; the parameters are ` + namesOf("")},
		{"mode=fasEIS&fasSupplierInn=74048402", `fasSupplierInn must be an INN of 10 or 12 digits (9 or 11 in its integer form), got "74048402"`},
		{"mode=fasEIS&fasCustomerInn=77O7227200", `fasCustomerInn must be an INN of 10 or 12 digits (9 or 11 in its integer form), got "77O7227200"`},
		{"mode=fasEIS&tend_num=12a", `tend_num must be a procurement number of digits, got "12a"`},
		{"mode=fasEIS&tend_num=10772324477523073048", `tend_num must be a procurement number of up to 19 digits, got "10772324477523073048"`},
		{"mode=fasEIS&complaint_regNumber=202307701000001", "complaint_regNumber narrows the complaints of a procurement: give tend_num too"},
		{"mode=fasEIS&result=1", "result=1 needs complaintID: the results of which complaint?"},
		{"mode=fasEIS&result=2&complaintID=1", `result takes only the value 1 (the results of the complaint complaintID), got "2"`},
		{"mode=fasEIS&result=1&complaintID=1&fasCustomerInn=7707227200", "result=1 takes the complaint by complaintID alone; leave out fasCustomerInn, fasSupplierInn and tend_num"},
		{"mode=fasEIS&kwords=школа", "kwords is a parameter of mode=fas or mode=aggregate, not of mode=fasEIS; the parameters of mode=fasEIS are " + namesOf(ModeFasEIS)},
		{"mode=fas&tend_num=1", "tend_num is a parameter of mode=fasEIS or mode=flags, not of mode=fas; the parameters of mode=fas are " + namesOf(ModeFas)},
		{"mode=fasEIS&page=-1", `page must be a whole number from 0 to 1000000, got "-1"`},
		{"mode=fasEIS&page=one", `page must be a whole number from 0 to 1000000, got "one"`},
		{"mode=fasEIS&page=1000001", `page must be a whole number from 0 to 1000000, got "1000001"`},
		{"mode=fasEIS&api_code=" + strings.Repeat("k", 257), "api_code is 257 characters long; the limit is 256"},
		{"mode=fasEIS&complaintID=" + strings.Repeat("1", 65), "complaintID is 65 characters long; the limit is 64"},
		{"mode=fasEIS&tend_num=" + strings.Repeat("1", 33), "tend_num is 33 characters long; the limit is 32"},
		{"mode=fasEIS&tend_num=1&complaint_regNumber=" + strings.Repeat("ж", 65), "complaint_regNumber is 65 characters long; the limit is 64"},
		{"mode=fasEIS&fasSupplierInn=" + strings.Repeat("7", 5000), "fasSupplierInn is 5000 characters long; the limit is 12"},
		{"mode=fas&kwords=" + strings.Repeat("ш", 1001), "kwords is 1001 characters long; the limit is 1000"},
		{"mode=fasEIS&per_page=0", `per_page must be a whole number from 1 to 1000, got "0"`},
		{"mode=fasEIS&per_page=1001", `per_page must be a whole number from 1 to 1000, got "1001"`},
		{"mode=fas&id=x1", `id must be a case id, a whole number from 1, got "x1"`},
		{"mode=fas&id=1&kwords=a", "give kwords or id, not both"},
		{"mode=fas&kwords=" + url.QueryEscape(`школа "ремонт`), "kwords: unbalanced quote: the quote at character 7 is never closed"},
	}
	for _, tt := range tests {
		_, err := Parse(mustQuery(t, tt.query))
		if tenderbase.ErrorCode(err) != tenderbase.EINVALID {
			t.Errorf("%s: error %v, want an EINVALID error", tt.query, err)
			continue
		}
		if diff := cmp.Diff(tt.message, err.Error()); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.query, diff)
		}
	}
}

func mustQuery(t *testing.T, s string) url.Values {
	t.Helper()
	v, err := url.ParseQuery(s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestParamsBounded checks that every parameter's value is bounded: by a
// list of values, a length or a maximum that the OpenAPI document shows.
func TestParamsBounded(t *testing.T) {
	for _, p := range Params {
		if len(p.Enum) == 0 && p.MaxLength == 0 && p.Maximum == 0 {
			t.Errorf("parameter %s has no bound", p.Name)
		}
	}
}

func TestParseQuery(t *testing.T) {
	for _, raw := range []string{"", "mode=fas&kwords=a+b%20c", "mode=fas&&id=", "mode", "a=1&a=2", "kwords=%D1%88%D0%BA%D0%BE%D0%BB%D0%B0"} {
		got, err := ParseQuery(raw)
		if err != nil {
			t.Errorf("%s: %v", raw, err)
			continue
		}
		if diff := cmp.Diff(mustQuery(t, raw), got); diff != "" {
			t.Errorf("%s (-url.ParseQuery +ParseQuery):\n%s", raw, diff)
		}
	}
	tests := []struct {
		raw, message string
		before       url.Values // the pairs read before the bad one
	}{
		{"dtype=json&kwords=%zz", `the query string pair "kwords=%zz" is not URL-encoded: a % must be followed by two hex digits (%25 is a % itself)`,
			url.Values{"dtype": {"json"}}},
		{"kw%2=a", `the query string pair "kw%2=a" is not URL-encoded: a % must be followed by two hex digits (%25 is a % itself)`, url.Values{}},
		{"mode=fas;dtype=json", `the query string pair "mode=fas;dtype=json" holds a semicolon: separate parameters with & (and send a semicolon in a value as %3B)`,
			url.Values{}},
	}
	for _, tt := range tests {
		got, err := ParseQuery(tt.raw)
		if tenderbase.ErrorCode(err) != tenderbase.EINVALID {
			t.Errorf("%s: error %v, want an EINVALID error", tt.raw, err)
			continue
		}
		if diff := cmp.Diff(tt.message, err.Error()); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.raw, diff)
		}
		if diff := cmp.Diff(tt.before, got); diff != "" {
			t.Errorf("%s: values (-want +got):\n%s", tt.raw, diff)
		}
	}
}
