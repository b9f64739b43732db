package xlsx_test

import (
	"archive/zip"
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/xuri/excelize/v2"

	"github.com/tenderbase/tenderbase/internal/xlsx"
)

// moscow is the zone of the registers' times, fixed as in the records.
var moscow = time.FixedZone("MSK", 3*60*60)

// table is a table of every kind of column, as an aggregate or an export
// page would give it.
var table = []xlsx.Column{
	{Name: "customerInn", Kind: xlsx.Text},
	{Name: "purchaseNumber", Kind: xlsx.Text},
	{Name: "contracts", Kind: xlsx.Integer},
	{Name: "sum", Kind: xlsx.Money},
	{Name: "month", Kind: xlsx.Date},
	{Name: "publishDate", Kind: xlsx.DateTime},
	{Name: "isGISNR", Kind: xlsx.Bool},
	{Name: "name", Kind: xlsx.Text},
}

// write writes rows of table to a workbook with a sheet called sheet.
func write(t *testing.T, sheet string, rows ...[]any) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := xlsx.NewWriter(&buf, sheet, table)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if err := w.Write(r...); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// open reads a workbook with the library's reader.
func open(t *testing.T, data []byte) *excelize.File {
	t.Helper()
	f, err := excelize.OpenReader(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("the file does not open: %v", err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// cell is a cell as a reader sees it: its type, its raw value, what a
// spreadsheet shows and the number format it is shown with.
type cell struct {
	Type   excelize.CellType
	Raw    string
	Shown  string
	Format string
}

func readCell(t *testing.T, f *excelize.File, sheet, ref string) cell {
	t.Helper()
	var c cell
	var err error
	if c.Type, err = f.GetCellType(sheet, ref); err != nil {
		t.Fatal(err)
	}
	if c.Raw, err = f.GetCellValue(sheet, ref, excelize.Options{RawCellValue: true}); err != nil {
		t.Fatal(err)
	}
	if c.Shown, err = f.GetCellValue(sheet, ref); err != nil {
		t.Fatal(err)
	}
	id, err := f.GetCellStyle(sheet, ref)
	if err != nil {
		t.Fatal(err)
	}
	style, err := f.GetStyle(id)
	if err != nil {
		t.Fatal(err)
	}
	if style.CustomNumFmt != nil {
		c.Format = *style.CustomNumFmt
	}
	return c
}

// TestCells writes a row of every kind and reads each cell back: text as
// text, numbers as numbers with their format, dates as date numbers in the
// wall clock of their zone, and a nil value as no cell.
func TestCells(t *testing.T) {
	published := time.Date(2023, 2, 7, 15, 4, 5, 0, moscow)
	data := write(t, "fasEIS", []any{"0274062111", "0772324477523073048", int64(42), 1234567.89,
		time.Date(2024, 3, 1, 0, 0, 0, 0, moscow), published, true, "=1+1"},
		[]any{"7707227200", nil, 0, 640.79, nil, time.Time{}, false, ""})
	f := open(t, data)
	if got := f.GetSheetList(); !cmp.Equal(got, []string{"fasEIS"}) {
		t.Fatalf("sheets %v, want [fasEIS]", got)
	}
	num := excelize.CellTypeUnset // a number cell carries no type attribute
	want := map[string]cell{
		"A1": {excelize.CellTypeInlineString, "customerInn", "customerInn", ""},
		"H1": {excelize.CellTypeInlineString, "name", "name", ""},
		"A2": {excelize.CellTypeInlineString, "0274062111", "0274062111", "@"},
		"B2": {excelize.CellTypeInlineString, "0772324477523073048", "0772324477523073048", "@"},
		"C2": {num, "42", "42", "0"},
		"D2": {num, "1234567.89", "1,234,567.89", "#,##0.00"},
		"E2": {num, "45352", "2024-03-01", "yyyy-mm-dd"},
		"F2": {num, "44964.62783564815", "2023-02-07 15:04:05", "yyyy-mm-dd hh:mm:ss"},
		"G2": {excelize.CellTypeBool, "1", "TRUE", ""},
		"H2": {excelize.CellTypeInlineString, "=1+1", "=1+1", "@"},
		"B3": {},
		"C3": {num, "0", "0", "0"},
		"D3": {num, "640.79", "640.79", "#,##0.00"},
		"E3": {},
		"F3": {},
		"G3": {excelize.CellTypeBool, "0", "FALSE", ""},
	}
	for ref, w := range want {
		if diff := cmp.Diff(w, readCell(t, f, "fasEIS", ref)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", ref, diff)
		}
	}
	if formula, _ := f.GetCellFormula("fasEIS", "H2"); formula != "" {
		t.Errorf("H2 holds the formula %q; want the text =1+1", formula)
	}
}

// TestHeaderFrozen checks that the first row is the header, bold, and
// frozen above the rows, and that the workbook names its author.
func TestHeaderFrozen(t *testing.T) {
	f := open(t, write(t, "fas"))
	rows, err := f.GetRows("fas")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range table {
		names = append(names, c.Name)
	}
	if diff := cmp.Diff([][]string{names}, rows); diff != "" {
		t.Errorf("rows of an empty table (-want +got):\n%s", diff)
	}
	panes, err := f.GetPanes("fas")
	if err != nil {
		t.Fatal(err)
	}
	if !panes.Freeze || panes.YSplit != 1 || panes.XSplit != 0 || panes.TopLeftCell != "A2" {
		t.Errorf("panes %+v; want the first row frozen", panes)
	}
	if props, err := f.GetDocProps(); err != nil || props.Creator != xlsx.Creator {
		t.Errorf("properties %+v, %v; want the creator %s", props, err, xlsx.Creator)
	}
	id, _ := f.GetCellStyle("fas", "A1")
	if style, _ := f.GetStyle(id); style.Font == nil || !style.Font.Bold {
		t.Errorf("header style %+v; want bold", style)
	}
}

// TestCellTypesInXML reads the worksheet's XML with archive/zip and
// encoding/xml, apart from the library: text cells are inline strings,
// numbers and dates are numbers (no type), booleans are b.
func TestCellTypesInXML(t *testing.T) {
	data := write(t, "fasEIS", []any{"0274062111", "0772324477523073048", 7, 1.5, nil, time.Date(2023, 2, 7, 0, 0, 0, 0, moscow), true, "x"})
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	var sheet struct {
		Rows []struct {
			Cells []struct {
				Ref  string `xml:"r,attr"`
				Type string `xml:"t,attr"`
				V    string `xml:"v"`
				Text string `xml:"is>t"`
			} `xml:"c"`
		} `xml:"sheetData>row"`
	}
	r, err := zr.Open("xl/worksheets/sheet1.xml")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(r)
	if err := xml.Unmarshal(body, &sheet); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, c := range sheet.Rows[1].Cells {
		got[c.Ref] = c.Type + ":" + c.V + c.Text
	}
	want := map[string]string{"A2": "inlineStr:0274062111", "B2": "inlineStr:0772324477523073048", "C2": ":7", "D2": ":1.5",
		"F2": ":44964", "G2": "b:1", "H2": "inlineStr:x"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("cells of row 2 (-want +got):\n%s", diff)
	}
}

// TestLongText checks that a value longer than a cell holds is cut to
// MaxCellChars UTF-16 units, ending with a mark, and a value of exactly
// that length is kept whole; a byte that is not UTF-8 and a character XML
// cannot hold become U+FFFD, a line break stays.
func TestLongText(t *testing.T) {
	exact := strings.Repeat("ж", xlsx.MaxCellChars)
	long := strings.Repeat("жё", xlsx.MaxCellChars)
	f := open(t, write(t, "s", []any{nil, nil, nil, nil, nil, nil, nil, exact}, []any{nil, nil, nil, nil, nil, nil, nil, long},
		[]any{nil, nil, nil, nil, nil, nil, nil, "a\xffb"}, []any{nil, nil, nil, nil, nil, nil, nil, "c\x01d\ne"}))
	for ref, want := range map[string]string{
		"H2": exact,
		"H3": strings.Repeat("жё", xlsx.MaxCellChars/2) + "…",
		"H4": "a\uFFFDb",
		"H5": "c\uFFFDd\ne",
	} {
		if got, _ := f.GetCellValue("s", ref); got != want {
			t.Errorf("%s: %d characters ending %q; want %d ending %q", ref, len([]rune(got)), tail(got), len([]rune(want)), tail(want))
		}
	}
}

func tail(s string) string {
	r := []rune(s)
	return string(r[max(0, len(r)-3):])
}

// TestBadInput checks that a value of the wrong type, a row of the wrong
// width, a bad sheet name and a row after Close are errors naming what is
// wrong, and that the writer writes nothing before Close.
func TestBadInput(t *testing.T) {
	var buf bytes.Buffer
	w, err := xlsx.NewWriter(&buf, "fasEIS", table)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		row  []any
		want string
	}{
		{[]any{7707227200, nil, nil, nil, nil, nil, nil, nil}, "column customerInn of kind text takes string, got int"},
		{[]any{nil, nil, "5", nil, nil, nil, nil, nil}, "column contracts of kind integer takes int or int64, got string"},
		{[]any{nil, nil, nil, 5, nil, nil, nil, nil}, "column sum of kind money takes float64, got int"},
		{[]any{nil, nil, nil, nil, "2024-03-01", nil, nil, nil}, "column month of kind date takes time.Time, got string"},
		{[]any{"only one"}, "a row of 1 values in a table of 8 columns"},
	} {
		if err := w.Write(tt.row...); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Write(%v) = %v; want %q", tt.row, err, tt.want)
		}
	}
	if buf.Len() != 0 {
		t.Errorf("%d bytes written before Close", buf.Len())
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := w.Write(nil, nil, nil, nil, nil, nil, nil, nil); err == nil {
		t.Error("a row after Close was taken")
	}
	for _, name := range []string{"", "a/b", "[x]", strings.Repeat("x", 32), "'quoted'"} {
		if _, err := xlsx.NewWriter(io.Discard, name, table); err == nil {
			t.Errorf("sheet name %q was taken", name)
		}
	}
	if _, err := xlsx.NewWriter(io.Discard, "s", nil); err == nil {
		t.Error("a table of no columns was taken")
	}
	if _, err := xlsx.NewWriter(io.Discard, "s", []xlsx.Column{{Name: "x", Kind: xlsx.Kind(99)}}); err == nil {
		t.Error("a column of an unknown kind was taken")
	}
}

// TestLargeTable writes a table larger than the library keeps in memory:
// its rows spill into a temporary file while they are written, Close
// removes it, and every row is in the workbook.
func TestLargeTable(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	var buf bytes.Buffer
	w, err := xlsx.NewWriter(&buf, "big", []xlsx.Column{{Name: "n", Kind: xlsx.Integer}, {Name: "text", Kind: xlsx.Text}})
	if err != nil {
		t.Fatal(err)
	}
	const rows = 1200 // of 16 KB each: 19 MB of sheet, over the 16 MiB kept in memory
	text := strings.Repeat("x", 16<<10)
	for i := range rows {
		if err := w.Write(i, text); err != nil {
			t.Fatal(err)
		}
	}
	if entries, _ := os.ReadDir(tmp); len(entries) == 0 {
		t.Error("no temporary file while a large table is written: is it all in memory?")
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if entries, _ := os.ReadDir(tmp); len(entries) != 0 {
		t.Errorf("%d files left in the temporary directory after Close", len(entries))
	}
	f := open(t, buf.Bytes())
	got, err := f.GetCellValue("big", fmt.Sprintf("A%d", rows+1))
	if err != nil || got != strconv.Itoa(rows-1) {
		t.Errorf("last row: %q, %v; want %d", got, err, rows-1)
	}
}

// TestDecimalCells writes shares and means as number cells with two
// decimals and no separators, and refuses a value of another type.
func TestDecimalCells(t *testing.T) {
	var buf bytes.Buffer
	w, err := xlsx.NewWriter(&buf, "aggregate", []xlsx.Column{{Name: "single_bid_pct", Kind: xlsx.Decimal}})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(int64(5)); err == nil || !strings.Contains(err.Error(), "column single_bid_pct of kind decimal takes float64, got int64") {
		t.Errorf("an int64 in a decimal column: %v", err)
	}
	for _, v := range []any{33.33, 1234.5, nil} {
		if err := w.Write(v); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f := open(t, buf.Bytes())
	num := excelize.CellTypeUnset
	for ref, want := range map[string]cell{
		"A2": {num, "33.33", "33.33", "0.00"},
		"A3": {num, "1234.5", "1234.50", "0.00"},
	} {
		if got := readCell(t, f, "aggregate", ref); got != want {
			t.Errorf("%s: %+v, want %+v", ref, got, want)
		}
	}
	if got := readCell(t, f, "aggregate", "A4"); got.Raw != "" {
		t.Errorf("A4, nil: %+v, want no cell", got)
	}
}
