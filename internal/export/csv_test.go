package export

import (
	"bytes"
	"encoding/csv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tenderbase/tenderbase"
)

// fasCaseHeader is the header row of a CSV document of FAS cases: the
// fields of spec 2.3 in the table's order.
const fasCaseHeader = "id,remote_id,name,type,date,upr,sphera,delo,procedure_name,attachment,text,link,orgXML\r\n"

// writeCSVDocument writes recs as a CSV document of kind k for a caller on
// plan p, under TenderGuru's conventions.
func writeCSVDocument(t *testing.T, k tenderbase.Kind, p tenderbase.Plan, recs ...tenderbase.Record) string {
	t.Helper()
	var buf bytes.Buffer
	w := NewWriter(&buf, CSV, p, Meta{Mode: ModeFas, Page: 1, Total: len(recs), Kind: k, Compat: CompatTG})
	for _, r := range recs {
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// TestCSVRows writes one FAS case a test and checks the document byte for
// byte: the header row, then the row, quoted where RFC 4180 needs it.
func TestCSVRows(t *testing.T) {
	date := time.Date(2023, 10, 25, 15, 0, 0, 0, tenderbase.Moscow)
	tests := []struct {
		name string
		plan tenderbase.Plan
		c    tenderbase.FASCase
		row  string
	}{
		{"plain", tenderbase.PlanStandard,
			tenderbase.FASCase{ID: 1, Name: "Решение по делу № 077/06/106-8784/2023", Type: 2, CaseDate: date},
			"1,,Решение по делу № 077/06/106-8784/2023,2,25-10-2023,,,,,,,,\r\n"},
		{"comma", tenderbase.PlanStandard,
			tenderbase.FASCase{ID: 2, Name: "ООО «Ромашка», г. Москва"},
			`2,,"ООО «Ромашка», г. Москва",0,,,,,,,,,` + "\r\n"},
		{"quotes", tenderbase.PlanStandard,
			tenderbase.FASCase{ID: 3, Name: `ООО "Ромашка"`},
			`3,,"ООО ""Ромашка""",0,,,,,,,,,` + "\r\n"},
		{"line breaks", tenderbase.PlanStandard,
			tenderbase.FASCase{ID: 4, Name: "первая строка\nвторая"},
			"4,,\"первая строка\r\nвторая\",0,,,,,,,,,\r\n"},
		{"leading space", tenderbase.PlanStandard,
			tenderbase.FASCase{ID: 5, Name: " отступ"},
			`5,," отступ",0,,,,,,,,,` + "\r\n"},
		{"xml field as its text", tenderbase.PlanStandard,
			tenderbase.FASCase{ID: 6, Name: "n", OrgXML: `<orgs><org role="Заявитель"><inn>7404840216</inn></org></orgs>`},
			`6,,n,0,,,,,,,,,"<orgs><org role=""Заявитель""><inn>7404840216</inn></org></orgs>"` + "\r\n"},
		{"invalid UTF-8", tenderbase.PlanStandard,
			tenderbase.FASCase{ID: 7, Name: "a\xffb"},
			"7,,a\uFFFDb,0,,,,,,,,,\r\n"},
		{"tariff fields for a paid plan", tenderbase.PlanStandard,
			tenderbase.FASCase{ID: 8, Name: "n", Attachment: "решение.pdf", Text: "текст", Link: "https://fas.gov.ru/8"},
			"8,,n,0,,,,,,решение.pdf,текст,https://fas.gov.ru/8,\r\n"},
		{"tariff fields masked for the free plan", tenderbase.PlanFree,
			tenderbase.FASCase{ID: 9, Name: "n", Attachment: "решение.pdf", Text: "текст", Link: "https://fas.gov.ru/8"},
			"9,,n,0,,,,,,,,,\r\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := writeCSVDocument(t, tenderbase.KindFASCase, tt.plan, &tt.c)
			if diff := cmp.Diff(fasCaseHeader+tt.row, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestCSVReadsBack reads a document of values that need quoting with
// encoding/csv, as a client would, and gets every value back.
func TestCSVReadsBack(t *testing.T) {
	names := []string{"a, b", `"кавычки"`, "строка\nещё строка", "Ёлка; ёж", ""}
	var recs []tenderbase.Record
	for i, name := range names {
		recs = append(recs, &tenderbase.FASCase{ID: int64(i + 1), Name: name})
	}
	rows, err := csv.NewReader(strings.NewReader(writeCSVDocument(t, tenderbase.KindFASCase, tenderbase.PlanFree, recs...))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != len(names)+1 {
		t.Fatalf("%d rows, want a header and %d records", len(rows), len(names))
	}
	var got []string
	for _, row := range rows[1:] {
		got = append(got, row[2])
	}
	if diff := cmp.Diff(names, got); diff != "" {
		t.Errorf("names (-want +got):\n%s", diff)
	}
}

// TestCSVHeaders checks the header row of each kind: the export's fields,
// named and ordered as in XML and JSON, and alone when nothing matched.
func TestCSVHeaders(t *testing.T) {
	for _, e := range Kinds {
		var names []string
		for _, f := range Fields(e.Kind) {
			names = append(names, f.Name)
		}
		want := strings.Join(names, ",") + "\r\n"
		if diff := cmp.Diff(want, writeCSVDocument(t, e.Kind, tenderbase.PlanFree)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", e.Kind, diff)
		}
	}
}

// TestTableOneKind refuses, in CSV and XLSX, a record of a kind other
// than the header's, whose cells would stand under the wrong names.
func TestTableOneKind(t *testing.T) {
	for _, f := range []Format{CSV, XLSX} {
		w := NewWriter(&bytes.Buffer{}, f, tenderbase.PlanFree, Meta{Mode: ModeFasEIS, Kind: tenderbase.KindComplaint, Compat: CompatTG})
		if err := w.Write(&tenderbase.Complaint{ComplaintNumber: "1"}); err != nil {
			t.Fatal(err)
		}
		if err := w.Write(&tenderbase.FASCase{ID: 1}); err == nil {
			t.Errorf("format %d: a FAS case is written into a table of complaints", f)
		}
	}
}

// TestCSVMasksTariffFields writes a check result for each plan and reads
// its cells by the header's names: a tariff field, a date among them, is an
// empty cell for the free plan and has its value for a paid one, and the
// fields every plan sees have theirs for both.
func TestCSVMasksTariffFields(t *testing.T) {
	r := &tenderbase.ComplaintResult{
		CheckResultNumber: "202300150000001", ComplaintNumber: "2023077657397",
		PublishDate:      time.Date(2023, 2, 7, 15, 0, 0, 0, tenderbase.Moscow),
		DecisionText:     "Признать жалобу обоснованной",
		PrescriptionDate: time.Date(2023, 2, 8, 0, 0, 0, 0, tenderbase.Moscow),
	}
	tests := []struct {
		plan tenderbase.Plan
		want map[string]string
	}{
		{tenderbase.PlanFree, map[string]string{"checkResultNumber": "202300150000001", "publishDate": "07-02-2023",
			"decisionText": "", "prescriptionDate": ""}},
		{tenderbase.PlanGuru, map[string]string{"checkResultNumber": "202300150000001", "publishDate": "07-02-2023",
			"decisionText": "Признать жалобу обоснованной", "prescriptionDate": "08-02-2023"}},
	}
	for _, tt := range tests {
		rows, err := csv.NewReader(strings.NewReader(writeCSVDocument(t, r.Kind(), tt.plan, r))).ReadAll()
		if err != nil || len(rows) != 2 {
			t.Fatalf("%s: %d rows, %v", tt.plan, len(rows), err)
		}
		got := map[string]string{}
		for i, name := range rows[0] {
			if _, ok := tt.want[name]; ok {
				got[name] = rows[1][i]
			}
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.plan, diff)
		}
	}
}
