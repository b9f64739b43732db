package httpserver_test

import (
	"bytes"
	"encoding/csv"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/xuri/excelize/v2"

	"github.com/tenderbase/tenderbase"
)

const xlsxType = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"

// TestExportXLSX reads every form as XLSX, for each key and both
// conventions, and compares it with the CSV and the JSON answers to the
// same request: the sheet, named after the mode, has the CSV's header row
// and as many rows, and each cell holds the JSON record's value, typed: a
// string as text, a number as a number, a date as a date of the moment in
// Moscow, a null as no cell. The headers but Content-Type are those of the
// JSON answer.
func TestExportXLSX(t *testing.T) {
	forEachStore(t, func(t *testing.T, ts *httptest.Server) {
		for _, form := range exportForms {
			if form.name == "error" {
				continue
			}
			for _, key := range []string{"", "&api_code=free", "&api_code=paid"} {
				query := form.query + key
				checkXLSXAnswer(t, ts, query, query)
				checkXLSXAnswer(t, ts, query, tgPaged(t, query)+"&compat=tg")
			}
		}
	})
}

// checkXLSXAnswer checks the XLSX answer to asked, which is query under
// some conventions, against the JSON answer to asked and the CSV and the
// spec's JSON answers to query.
func checkXLSXAnswer(t *testing.T, ts *httptest.Server, query, asked string) {
	t.Helper()
	a := getExport(t, ts, asked+"&dtype=xlsx")
	j := getExport(t, ts, asked+"&dtype=json")
	if j.status != 200 {
		if a.status != j.status || string(a.body) != string(j.body) {
			t.Errorf("%s: XLSX %d %s; want the JSON error %d %s", asked, a.status, a.body, j.status, j.body)
		}
		return
	}
	if a.status != 200 || a.header.Get("Content-Type") != xlsxType {
		t.Fatalf("%s: status %d, Content-Type %q: %.200s", asked, a.status, a.header.Get("Content-Type"), a.body)
	}
	for _, h := range exportHeaders {
		if h != "Content-Type" && a.header.Get(h) != j.header.Get(h) {
			t.Errorf("%s: %s %q in XLSX, %q in JSON", asked, h, a.header.Get(h), j.header.Get(h))
		}
	}
	mode := "fasEIS"
	if strings.HasPrefix(query, "mode=fas&") {
		mode = "fas"
	}
	if cd := a.header.Get("Content-Disposition"); !strings.HasPrefix(cd, "attachment; filename="+mode+"-") ||
		!strings.HasSuffix(cd, "-page-"+j.header.Get("X-Page")+".xlsx") {
		t.Errorf("%s: Content-Disposition %q", asked, cd)
	}
	f, err := excelize.OpenReader(bytes.NewReader(a.body))
	if err != nil {
		t.Fatalf("%s: the body is no workbook: %v", asked, err)
	}
	defer f.Close()
	if got := f.GetSheetList(); !cmp.Equal(got, []string{mode}) {
		t.Fatalf("%s: sheets %v, want [%s]", asked, got, mode)
	}
	header, rows := csvOf(t, ts, query)
	if got, _ := f.GetRows(mode); len(got) != len(rows)+1 || !cmp.Equal(got[0], header) {
		t.Fatalf("%s: %d rows, header %v; want %d rows and the CSV header %v", asked, len(got), got[:min(1, len(got))], len(rows)+1, header)
	}
	_, records := exportList(t, ts, query)
	for i, r := range records {
		for c, name := range header {
			ref, _ := excelize.CoordinatesToCellName(c+1, i+2)
			if diff := cmp.Diff(xlsxWant(r[name]), readXLSXCell(t, f, mode, ref)); diff != "" {
				t.Errorf("%s: %s (%s) (-JSON +XLSX):\n%s", asked, ref, name, diff)
			}
		}
	}
}

// csvOf returns the header row and the rows of the CSV answer to query,
// under TenderGuru's conventions, the only ones the CSV comes with.
func csvOf(t *testing.T, ts *httptest.Server, query string) ([]string, [][]string) {
	t.Helper()
	a := getExport(t, ts, tgPaged(t, query)+"&compat=tg&dtype=csv")
	rows, err := csv.NewReader(bytes.NewReader(a.body)).ReadAll()
	if err != nil || len(rows) == 0 {
		t.Fatalf("%s: CSV %v\n%s", query, err, a.body)
	}
	return rows[0], rows[1:]
}

// xlsxCell is a cell as a test compares it: its type, and its value as a
// spreadsheet shows it.
type xlsxCell struct {
	Type  excelize.CellType
	Shown string
}

func readXLSXCell(t *testing.T, f *excelize.File, sheet, ref string) xlsxCell {
	t.Helper()
	typ, err := f.GetCellType(sheet, ref)
	if err != nil {
		t.Fatal(err)
	}
	shown, err := f.GetCellValue(sheet, ref)
	if err != nil {
		t.Fatal(err)
	}
	return xlsxCell{typ, shown}
}

// xlsxWant returns the cell a JSON value is written as.
func xlsxWant(v any) xlsxCell {
	switch v := v.(type) {
	case nil:
		return xlsxCell{}
	case float64:
		return xlsxCell{excelize.CellTypeUnset, strconv.FormatFloat(v, 'f', -1, 64)}
	case bool:
		return xlsxCell{excelize.CellTypeBool, strings.ToUpper(strconv.FormatBool(v))}
	case string:
		if d, err := time.Parse(time.RFC3339Nano, v); err == nil && strings.Contains(v, "T") {
			return xlsxCell{excelize.CellTypeUnset, d.In(tenderbase.Moscow).Format("2006-01-02 15:04:05")}
		}
		return xlsxCell{excelize.CellTypeInlineString, v}
	}
	return xlsxCell{Shown: "unexpected JSON value"}
}
