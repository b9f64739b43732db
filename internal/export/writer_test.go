package export

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/demo"
)

func TestWellFormed(t *testing.T) {
	tests := []struct {
		fragment, body string
		ok             bool
	}{
		{"<a><b>1</b>text<c/></a>", "<a><b>1</b>text<c/></a>", true},
		{"<a/><b/>", "<a/><b/>", true},
		{`<?xml version="1.0"?><a/>`, "<a/>", true},
		{`<p:a xmlns:p="urn:x"><p:b/></p:a>`, `<p:a xmlns:p="urn:x"><p:b/></p:a>`, true},
		{"plain text", "plain text", true},
		{"<a><!-- note --></a>", "<a><!-- note --></a>", true},
		{"<a>", "", false},
		{"<a></b>", "", false},
		{"</a>", "", false},
		{"<a>&nbsp;</a>", "", false},
		{"<a>1 < 2</a>", "", false},
		{`<a x="1" x="2"/>`, "", false},
		{"<ns2:a/>", "", false},
		{`<a ns2:x="1"/>`, "", false},
		{"<a><?xml version=\"1.0\"?></a>", "", false},
		{"<!DOCTYPE a><a/>", "", false},
		{"<a>]]></a>", "", false},
		{"<a>\x01</a>", "", false},
	}
	for _, tt := range tests {
		body, ok := wellFormed(tt.fragment)
		if ok != tt.ok || body != tt.body {
			t.Errorf("wellFormed(%q) = %q, %v; want %q, %v", tt.fragment, body, ok, tt.body, tt.ok)
		}
	}
}

// TestFieldsFollowTheRecords checks that the fields of every kind hold the
// fields of the canonical form of every demo record of that kind, in the
// same order, and that the tariff fields are tenderbase.TariffFields.
func TestFieldsFollowTheRecords(t *testing.T) {
	recs, err := demo.Records()
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		if Fields(r.Kind()) != nil {
			checkOrder(t, r)
		}
	}
	for _, e := range Kinds {
		var tariff []string
		for _, f := range Fields(e.Kind) {
			if f.Tariff {
				tariff = append(tariff, f.Name)
			}
		}
		if diff := cmp.Diff(tenderbase.TariffFields[e.Kind], tariff); diff != "" {
			t.Errorf("%s tariff fields (-want +got):\n%s", e.Kind, diff)
		}
	}
}

// checkOrder checks that the names of the canonical JSON of r come in the
// order of its kind's fields.
func checkOrder(t *testing.T, r tenderbase.Record) {
	t.Helper()
	body, err := tenderbase.MarshalRecord(r)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range Fields(r.Kind()) {
		names = append(names, f.Name)
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.Token() // {
	at := 0
	for dec.More() {
		tok, _ := dec.Token()
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
		i := slices.Index(names[at:], tok.(string))
		if i < 0 {
			t.Errorf("%s %s: field %v is not exported, or out of order", r.Kind(), r.Key(), tok)
			return
		}
		at += i + 1
	}
}

// TestWriterKeepsDocumentsWellFormed writes values that XML and JSON cannot
// hold as they are, and a malformed orgXML, and parses the results.
func TestWriterKeepsDocumentsWellFormed(t *testing.T) {
	c := &tenderbase.FASCase{ID: 1, Name: "a & b <c> \x01 \u2028 \"q\" \xff", OrgXML: "<org><inn>1</org>"}
	for _, f := range []Format{XML, JSON} {
		var buf bytes.Buffer
		w := NewWriter(&buf, f, tenderbase.PlanStandard, Meta{Mode: ModeFas, Total: 1})
		if err := w.Write(c); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		if f == JSON {
			var recs []map[string]any
			if err := json.Unmarshal(buf.Bytes(), &recs); err != nil || len(recs) != 1 || recs[0]["orgXML"] != c.OrgXML {
				t.Errorf("JSON %v: %s", err, buf.Bytes())
			}
			continue
		}
		var doc struct {
			Case struct {
				Name   string `xml:"name"`
				OrgXML string `xml:"orgXML"`
			} `xml:"fasCase"`
		}
		if err := xml.NewDecoder(&buf).Decode(&doc); err != nil || doc.Case.OrgXML != c.OrgXML {
			t.Errorf("XML %v: %+v", err, doc)
		}
	}
}

func TestEmptyDocuments(t *testing.T) {
	var header []string
	for _, f := range Fields(tenderbase.KindComplaint) {
		header = append(header, f.Name)
	}
	tests := []struct {
		format Format
		compat Compat
		want   string
	}{
		{JSON, CompatSpec, "[]\n"},
		{XML, CompatSpec, xmlHeader + `<export mode="fasEIS" page="3" per_page="10" total="0">` + "\n</export>\n"},
		{JSON, CompatTG, `[{"Total":0}]` + "\n"},
		{XML, CompatTG, xmlHeader + `<export mode="fasEIS" page="3" per_page="10" total="0">` + "\n</export>\n"},
		{CSV, CompatTG, strings.Join(header, ",") + "\r\n"},
	}
	for _, tt := range tests {
		var buf bytes.Buffer
		w := NewWriter(&buf, tt.format, tenderbase.PlanFree,
			Meta{Mode: ModeFasEIS, Page: 3, PerPage: 10, Kind: tenderbase.KindComplaint, Compat: tt.compat})
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tt.want, buf.String()); diff != "" {
			t.Errorf("format %v, compat %q (-want +got):\n%s", tt.format, tt.compat, diff)
		}
	}
}

// TestTenderGuruDocuments writes two complaints under TenderGuru's
// conventions: JSON begins with the total and has its dates as
// DD-MM-YYYY, and so has XML, whose shape stays the spec's.
func TestTenderGuruDocuments(t *testing.T) {
	date := time.Date(2023, 2, 7, 15, 0, 0, 0, tenderbase.Moscow)
	recs := []tenderbase.Record{
		&tenderbase.Complaint{ComplaintNumber: "2023077657397", DatePubl: date},
		&tenderbase.Complaint{ComplaintNumber: "2023077657398"},
	}
	docs := map[Format]string{}
	for _, f := range []Format{JSON, XML} {
		var buf bytes.Buffer
		w := NewWriter(&buf, f, tenderbase.PlanFree,
			Meta{Mode: ModeFasEIS, Page: 1, PerPage: 2, Total: 25, Kind: tenderbase.KindComplaint, Compat: CompatTG})
		for _, r := range recs {
			if err := w.Write(r); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		docs[f] = buf.String()
	}
	var list []map[string]any
	if err := json.Unmarshal([]byte(docs[JSON]), &list); err != nil {
		t.Fatalf("JSON: %v\n%s", err, docs[JSON])
	}
	if len(list) != 3 || !cmp.Equal(list[0], map[string]any{"Total": 25.0}) ||
		list[1]["complaintNumber"] != "2023077657397" || list[1]["date_publ"] != "07-02-2023" || list[2]["date_publ"] != nil {
		t.Errorf("JSON: %s", docs[JSON])
	}
	if !strings.HasPrefix(docs[JSON], `[{"Total":25},`+"\n"+`{"purchasePlacingDate":null,`) {
		t.Errorf("JSON does not begin with the total, then a record a line:\n%s", docs[JSON])
	}
	if !strings.Contains(docs[XML], `<export mode="fasEIS" page="1" per_page="2" total="25">`) ||
		!strings.Contains(docs[XML], "<date_publ>07-02-2023</date_publ>") || strings.Contains(docs[XML], "Total") {
		t.Errorf("XML:\n%s", docs[XML])
	}
}

// TestRevisionIsNoExportField writes a check result with a version number:
// spec 2.2 has no version field, so neither document carries one.
func TestRevisionIsNoExportField(t *testing.T) {
	r := &tenderbase.ComplaintResult{CheckResultNumber: "202000151400871", VersionNumber: 2}
	for _, f := range Fields(r.Kind()) {
		if f.Name == "versionNumber" {
			t.Fatalf("%s has export field versionNumber", r.Kind())
		}
	}
	for _, f := range []Format{XML, JSON} {
		var buf bytes.Buffer
		w := NewWriter(&buf, f, tenderbase.PlanStandard, Meta{Mode: ModeFasEIS, Total: 1})
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(buf.Bytes(), []byte("202000151400871")) || bytes.Contains(buf.Bytes(), []byte("versionNumber")) {
			t.Errorf("format %v: %s", f, buf.Bytes())
		}
	}
}
