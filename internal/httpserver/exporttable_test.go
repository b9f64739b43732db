package httpserver_test

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/golden"
	"github.com/tenderbase/tenderbase/internal/httpserver"
	"github.com/tenderbase/tenderbase/internal/storetest"
	"github.com/tenderbase/tenderbase/internal/tools"
)

// tableRecords are storetest.AggregateRecords, two road repairs of one
// customer in region 50 with their protocols and contracts and a notice
// in region 77, and two contracts of another customer with kopecks, one
// of them in euros: sums that a float would round and a second currency.
func tableRecords() []tenderbase.Record {
	other := tenderbase.Party{INN: "7700000001", Name: "ГБУ «Жилищник района Арбат»"}
	day := time.Date(2025, 3, 4, 10, 0, 0, 0, tenderbase.Moscow)
	contract := func(reg string, price float64, currency string) *tenderbase.Contract {
		return &tenderbase.Contract{RegNumber: reg, Law: tenderbase.Law44, Version: 1, Subject: "Уборка территории",
			Customer: other, Region: 77, Price: price, Currency: currency, Suppliers: []tenderbase.Party{{INN: "7701000001"}},
			SignedAt: day, PublishedAt: day}
	}
	return append(storetest.AggregateRecords(), contract("3770000000125000001", 123_456.78, "RUB"), contract("3770000000125000002", 1_234.56, "EUR"))
}

// tableServers serves tableRecords from a fresh store of each kind.
func tableServers(t *testing.T, test func(t *testing.T, ts *httptest.Server)) {
	for name, open := range bothStores() {
		t.Run(name, func(t *testing.T) {
			store := open(t)
			t.Cleanup(func() { store.Close() })
			if _, err := store.Put(t.Context(), tableRecords()); err != nil {
				t.Fatal(err)
			}
			srv := httpserver.New(httpserver.Config{Tools: tools.New(store, nil), Keys: fakeKeys{}, Limiter: fakeLimiter{}}, store, nil)
			ts := httptest.NewServer(srv.Handler())
			t.Cleanup(ts.Close)
			test(t, ts)
		})
	}
}

// tableGoldens are requests of the export's tables, by the golden file
// that pins their answer on both stores.
var tableGoldens = map[string]string{
	"contracts-by-customer.csv":  "mode=aggregate&resource=contracts&by=customer&dtype=csv&api_code=paid",
	"contracts-by-customer.json": "mode=aggregate&resource=contracts&by=customer&api_code=paid",
	"roads-by-customer.json": "mode=aggregate&resource=ru&by=customer&kwords=" + url.QueryEscape("ремонт дорог") +
		"&regions=50&dtype=json&api_code=paid",
	"tenders-by-region-top1.csv": "mode=aggregate&resource=ru&by=region&top=1&dtype=csv&api_code=paid",
	"flags.csv":                  "mode=flags&tend_num=0348300000125000901&dtype=csv&api_code=paid",
	"flags.json":                 "mode=flags&tend_num=348300000125000901&api_code=paid",
}

// TestExportTables pins the aggregates and the red flags the export
// answers as tables, in CSV and JSON, on both stores: one row a group, a
// row saying how many more there are, a total row, every figure a column
// and money to the kopeck.
func TestExportTables(t *testing.T) {
	tableServers(t, func(t *testing.T, ts *httptest.Server) {
		for file, query := range tableGoldens {
			a := getExport(t, ts, query)
			if a.status != 200 {
				t.Errorf("%s: status %d: %s", query, a.status, a.body)
				continue
			}
			golden.Check(t, "testdata/table/"+file, a.String())
		}
	})
}

// TestExportTableXLSX reads the aggregate of the contracts by customer as
// a workbook and compares it cell by cell with the CSV of the same
// request: every figure is a number cell holding the CSV's number, the
// key, name and row kind are text cells, an empty CSV cell is no cell.
// The sums in roubles and euros are the kopecks stored.
func TestExportTableXLSX(t *testing.T) {
	tableServers(t, func(t *testing.T, ts *httptest.Server) {
		query := "mode=aggregate&resource=contracts&by=customer&api_code=paid"
		a := getExport(t, ts, query+"&dtype=xlsx")
		if a.status != 200 || a.header.Get("Content-Type") != xlsxType {
			t.Fatalf("status %d, %q: %.300s", a.status, a.header.Get("Content-Type"), a.body)
		}
		if cd := a.header.Get("Content-Disposition"); cd != "attachment; filename=aggregate-contracts-by-customer.xlsx" {
			t.Errorf("Content-Disposition %q", cd)
		}
		f, err := excelize.OpenReader(bytes.NewReader(a.body))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		c := getExport(t, ts, query+"&dtype=csv")
		rows, err := csv.NewReader(bytes.NewReader(c.body)).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		var objects []map[string]any
		if err := json.Unmarshal(getExport(t, ts, query).body, &objects); err != nil {
			t.Fatal(err)
		}
		got, err := f.GetRows("aggregate")
		if err != nil || len(got) != len(rows) || len(objects) != len(rows)-1 {
			t.Fatalf("%d rows in the sheet (%v), %d in the CSV, %d objects in JSON", len(got), err, len(rows), len(objects))
		}
		for i, row := range rows {
			for j, want := range row {
				checkTableCell(t, f, i, j, rows[0][j], want)
			}
		}
		for ref, want := range map[string]string{"F2": "1840000", "F3": "123456.78", "H3": "1234.56", "H4": "1234.56", "F4": "1963456.78"} {
			raw, err := f.GetCellValue("aggregate", ref, excelize.Options{RawCellValue: true})
			if err != nil || raw != want {
				t.Errorf("%s holds %q (%v), want %s", ref, raw, err, want)
			}
		}
	})
}

// checkTableCell checks the cell of row i and column j of the sheet
// against the CSV's text want of column name.
func checkTableCell(t *testing.T, f *excelize.File, i, j int, name, want string) {
	t.Helper()
	ref, _ := excelize.CoordinatesToCellName(j+1, i+1)
	typ, err := f.GetCellType("aggregate", ref)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := f.GetCellValue("aggregate", ref, excelize.Options{RawCellValue: true})
	text := i == 0 || name == "row" || name == "key" || name == "name"
	switch {
	case want == "":
		if raw != "" {
			t.Errorf("%s (%s): %q, want no cell", ref, name, raw)
		}
	case text:
		if typ != excelize.CellTypeInlineString || raw != want {
			t.Errorf("%s (%s): type %v %q, want the text %q", ref, name, typ, raw, want)
		}
	default:
		n, err1 := strconv.ParseFloat(raw, 64)
		m, err2 := strconv.ParseFloat(want, 64)
		if typ != excelize.CellTypeUnset || err1 != nil || err2 != nil || n != m || strings.Contains(raw, "e") {
			t.Errorf("%s (%s): type %v %q, want the number %s", ref, name, typ, raw, want)
		}
	}
}

// TestExportTableErrors checks the refusals of the export's tables: a
// wrong parameter or value is a 400 that says what is wrong, the free
// plan is refused the aggregates and the flags with a 403 naming the
// plans, and a plan's group limit holds as it does for the tool.
func TestExportTableErrors(t *testing.T) {
	tableServers(t, func(t *testing.T, ts *httptest.Server) {
		agg := "mode=aggregate&resource=ru&by=customer"
		for _, c := range []struct {
			query   string
			status  int
			message string
		}{
			{agg, 403, "aggregates are part of the standard, guru and corporate plans; the free plan searches records with ru.search"},
			{agg + "&api_code=free&dtype=xlsx", 403, "aggregates are part of the standard, guru and corporate plans; the free plan"},
			{"mode=flags&tend_num=0348300000125000901&api_code=free", 403, "red flags are part of the standard, guru and corporate plans"},
			{agg + "&api_code=paid&top=21", 400, "the standard plan lists at most 20 groups; ask for top 20 or fewer"},
			{agg + "&api_code=paid&top=101", 400, "top must be a whole number from 1 to 100, got \"101\""},
			{agg + "&api_code=paid&dtype=pdf", 400, `unknown dtype "pdf": mode=aggregate answers json (the default), csv or xlsx`},
			{agg + "&api_code=paid&dtype=xml", 400, "mode=aggregate answers a table: dtype json (the default), csv or xlsx, not xml"},
			{"mode=aggregate&resource=ru&by=colour&api_code=paid", 400, "unknown grouping \"colour\" (known: customer, supplier"},
			{"mode=aggregate&resource=tenders&by=customer&api_code=paid", 400, "argument \"resource\" must be one of ru, contracts, got \"tenders\""},
			{"mode=aggregate&by=customer&api_code=paid", 400, "mode=aggregate needs resource: ru (tenders) or contracts"},
			{"mode=aggregate&resource=ru&api_code=paid", 400, "mode=aggregate needs by, the grouping"},
			{agg + "&api_code=paid&level=3", 400, "level applies to the grouping by okpd2 only"},
			{agg + "&api_code=paid&regions=50,x", 400, "regions must be whole numbers separated by commas, such as 77,50, got \"50,x\""},
			{agg + "&api_code=paid&regions=500", 400, `argument "regions" holds codes from 1 to 99, got 500`},
			{agg + "&api_code=paid&open=maybe", 400, "open must be true or false (1 or 0), got \"maybe\""},
			{agg + "&api_code=paid&price_min=10k", 400, "price_min must be a whole number of roubles, got \"10k\""},
			{agg + "&api_code=paid&ends_from=2026-01-01", 400, `search of ru.search: unknown argument "ends_from"`},
			{agg + "&api_code=paid&page=2", 400, "page is a parameter of mode=fasEIS or mode=fas, not of mode=aggregate"},
			{agg + "&api_code=paid&colour=red", 400, "unknown parameter \"colour\""},
			{"mode=flags&api_code=paid", 400, "mode=flags needs tend_num, the purchase number of the tender"},
			{"mode=flags&tend_num=12a&api_code=paid", 400, "tend_num must be a procurement number of digits, got \"12a\""},
			{"mode=flags&tend_num=0348300000125000999&api_code=paid", 404, "no tender, protocol, contract or complaint with purchase number"},
			{"mode=flags&tend_num=0348300000125000901&by=customer&api_code=paid", 400, "by is a parameter of mode=aggregate, not of mode=flags"},
		} {
			a := getExport(t, ts, c.query)
			var body struct{ Error struct{ Message string } }
			if err := json.Unmarshal(a.body, &body); err != nil || a.status != c.status || !strings.Contains(body.Error.Message, c.message) ||
				!strings.HasPrefix(a.header.Get("Content-Type"), "application/json") || a.header.Get("Content-Disposition") != "" {
				t.Errorf("%s: %d %s %s; want %d with %q", c.query, a.status, a.header.Get("Content-Type"), a.body, c.status, c.message)
			}
		}
		// The guru plan lists up to 100 groups.
		if a := getExport(t, ts, agg+"&api_code=guru&top=100"); a.status != 200 {
			t.Errorf("guru, top 100: %d %s", a.status, a.body)
		}
	})
}
