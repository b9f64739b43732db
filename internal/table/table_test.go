package table

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestDecimal writes hundredths as decimals without a float on the way:
// sums past 2^53 kopecks keep their last digit.
func TestDecimal(t *testing.T) {
	for n, want := range map[int64]string{
		0: "0.00", 5: "0.05", 50: "0.50", 123456: "1234.56", -5: "-0.05", -123456: "-1234.56",
		9_007_199_254_740_993: "90071992547409.93", math.MaxInt64: "92233720368547758.07", math.MinInt64: "-92233720368547758.08",
	} {
		if got := decimal(n); got != want {
			t.Errorf("decimal(%d) = %s, want %s", n, got, want)
		}
	}
}

// TestWrite writes one table in JSON and CSV: numbers as numbers, money
// and hundredths with two decimals, nil as null and an empty cell.
func TestWrite(t *testing.T) {
	tab := Table{Sheet: "t", File: "t", Columns: []Column{{"key", Text}, {"count", Integer}, {"sum", Money}, {"pct", Hundredths}}}
	tab.Add("0274062111", 3, int64(123456), int64(1250))
	tab.Add("a,\"b\"", nil, nil, nil)
	var j, c bytes.Buffer
	if err := WriteJSON(&j, tab); err != nil {
		t.Fatal(err)
	}
	if err := WriteCSV(&c, tab); err != nil {
		t.Fatal(err)
	}
	wantJSON := `[{"key":"0274062111","count":3,"sum":1234.56,"pct":12.50},` + "\n" + `{"key":"a,\"b\"","count":null,"sum":null,"pct":null}]` + "\n"
	wantCSV := "key,count,sum,pct\r\n0274062111,3,1234.56,12.50\r\n\"a,\"\"b\"\"\",,,\r\n"
	if diff := cmp.Diff(wantJSON, j.String()); diff != "" {
		t.Errorf("JSON (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(wantCSV, c.String()); diff != "" {
		t.Errorf("CSV (-want +got):\n%s", diff)
	}
}

// TestCheck refuses a row that does not fit the columns, in every format.
func TestCheck(t *testing.T) {
	for _, rows := range [][][]any{{{"a"}}, {{"a", "b"}}, {{3, 3}}, {{"a", 1.5}}} {
		tab := Table{File: "t", Columns: []Column{{"key", Text}, {"sum", Money}}, Rows: rows}
		for name, write := range map[string]func(*bytes.Buffer, Table) error{
			"json": func(b *bytes.Buffer, t Table) error { return WriteJSON(b, t) },
			"csv":  func(b *bytes.Buffer, t Table) error { return WriteCSV(b, t) },
			"xlsx": func(b *bytes.Buffer, t Table) error { return WriteXLSX(b, t) },
		} {
			var b bytes.Buffer
			if err := write(&b, tab); err == nil || !strings.Contains(err.Error(), "table t: row 1") || b.Len() > 0 {
				t.Errorf("%s of %v: %v, %d bytes", name, rows, err, b.Len())
			}
		}
	}
}
