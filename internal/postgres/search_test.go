package postgres

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/postgres/pgtest"
	"github.com/tenderbase/tenderbase/internal/query"
	"github.com/tenderbase/tenderbase/internal/textproc"
)

// tender returns a tender with a title, dated day n of 2024, whose only
// other text is its purchase number.
func tender(key, title string, n int) *tenderbase.Tender {
	return &tenderbase.Tender{
		PurchaseNumber: key, Law: tenderbase.Law44, Title: title, Region: 77,
		PublishedAt: time.Date(2024, 1, n, 0, 0, 0, 0, time.UTC),
	}
}

// found returns the keys of the tenders a query finds, checking that the
// total agrees.
func found(t *testing.T, s *Store, text string) []string {
	t.Helper()
	q, err := query.Parse(text, query.MCP)
	if err != nil {
		t.Fatalf("parse %q: %v", text, err)
	}
	p, err := s.Search(context.Background(), tenderbase.Search{Kind: tenderbase.KindTender, Query: q, PageSize: tenderbase.MaxPageSize})
	if err != nil {
		t.Fatalf("Search %q: %v", text, err)
	}
	keys := []string{}
	for _, r := range p.Items {
		keys = append(keys, r.Key())
	}
	if p.Total != len(keys) {
		t.Errorf("%q: total %d, %d items", text, p.Total, len(keys))
	}
	return keys
}

// TestMaxTokens checks that words past textproc.MaxTokens are not indexed,
// at the same word as the SQLite store cuts, although the gap between two
// texts pushes the last positions past what a tsvector holds.
func TestMaxTokens(t *testing.T) {
	s := openTest(t)
	title := strings.Repeat("a ", textproc.MaxTokens-2) + "последнее слово вне"
	if _, err := s.Put(context.Background(), []tenderbase.Record{tender("1", title, 1)}); err != nil {
		t.Fatal(err)
	}
	for text, want := range map[string][]string{
		"последнее":                 {"1"},
		"слово":                     {},
		`"=последнее слово"`:        {},
		`"a a последнее"`:           {"1"},
		`"1 a"`:                     {},
		`последнее !"a слово"`:      {"1"},
		`последнее !"a =последнее"`: {},
	} {
		if diff := cmp.Diff(want, found(t, s, text)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", text, diff)
		}
	}
}

// TestLossyPhrases checks phrases in a record with more occurrences of a
// word than a tsvector keeps positions of: the phrase at its end is found,
// and excluded, as query.Match says, beside a record that lost nothing.
func TestLossyPhrases(t *testing.T) {
	s := openTest(t)
	long := tender("long", strings.Repeat("поставка ", 300)+"бумаги", 2)
	short := tender("short", "поставка бумаги офисной", 1)
	if _, err := s.Put(context.Background(), []tenderbase.Record{long, short}); err != nil {
		t.Fatal(err)
	}
	for text, want := range map[string][]string{
		`"поставка бумаги"`:                     {"long", "short"},
		`"=поставка бумаги"`:                    {"long", "short"},
		`"бумаги поставка"`:                     {},
		`бумага !"поставка бумаги"`:             {},
		`бумага !"бумаги поставка"`:             {"long", "short"},
		`"бумаги офисной" | "поставка =бумаги"`: {"long", "short"},
		`поставка`:                              {"long", "short"},
	} {
		if diff := cmp.Diff(want, found(t, s, text)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", text, diff)
		}
	}
}

// TestTSQuery checks the tsquery literals a query becomes, for a caller who
// may match every text and for one who may match only the open text.
func TestTSQuery(t *testing.T) {
	for _, tc := range []struct {
		text, exact, loose string
		openOnly           bool
	}{
		{"поставка", `'поставк'`, "", false},
		{"=поставки", `'=поставки'`, "", false},
		{"поставка !ремонт", `('поставк' & !'ремонт')`, "", false},
		{"бумага | картридж", `('бумаг' | 'картридж')`, "", false},
		{`"поставка =бумаги"`, `('поставк' <-> '=бумаги')`, `('поставк' & '=бумаги')`, false},
		{`поставка !"ремонт дорог"`, `('поставк' & !('ремонт' <-> 'дорог'))`, `('поставк')`, false},
		{"поставка", `'поставк':D`, "", true},
		{"поставка !=ремонта", `('поставк':D & !'=ремонта':D)`, "", true},
		{`"поставка =бумаги"`, `('поставк':D <-> '=бумаги':D)`, `('поставк':D & '=бумаги':D)`, true},
		{"стали", `('стал' | 'стат')`, "", false},
		{`"листовой стали"`, `('листов' <-> ('стал' | 'стат'))`, `('листов' & ('стал' | 'стат'))`, false},
		{"стали", `('стал':D | 'стат':D)`, "", true},
	} {
		q, err := query.Parse(tc.text, query.MCP)
		if err != nil {
			t.Fatal(err)
		}
		got, err := emitTSQuery(q, tc.openOnly)
		if err != nil {
			t.Fatalf("%s: %v", tc.text, err)
		}
		if got.exact != tc.exact || got.loose != tc.loose {
			t.Errorf("%s: %q, %q; want %q, %q", tc.text, got.exact, got.loose, tc.exact, tc.loose)
		}
	}
}

// TestQuoteLexeme checks that quotes and backslashes stay inside a lexeme,
// as PostgreSQL reads it back.
func TestQuoteLexeme(t *testing.T) {
	s := openTest(t)
	for _, l := range []string{`it's`, `a\b`, `'`, `\'`, `=x`, `a b`} {
		var got string
		if err := s.pool.QueryRow(context.Background(), `SELECT (SELECT lexeme FROM unnest($1::tsvector))`,
			quoteLexeme(l)+":1").Scan(&got); err != nil {
			t.Fatalf("%q: %v", l, err)
		}
		if got != l {
			t.Errorf("%q came back as %q", l, got)
		}
	}
}

// TestTotalsFollowPuts checks that a cached total is not served after a
// Put changed it, whether this store or another on the same database
// wrote, for plain and for checked searches.
func TestTotalsFollowPuts(t *testing.T) {
	u := pgtest.URL(t)
	reader, err := Open(context.Background(), u, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer reader.Close()
	writer, err := Open(context.Background(), u, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer writer.Close()
	stored := 0 // both queries match every tender stored
	for _, text := range []string{"бумага", `"=поставка бумаги"`} {
		q, err := query.Parse(text, query.MCP)
		if err != nil {
			t.Fatal(err)
		}
		sr := tenderbase.Search{Kind: tenderbase.KindTender, Query: q, PageSize: 1}
		for i := range 3 {
			for _, s := range []*Store{reader, writer} {
				key := fmt.Sprintf("%s-%p-%d", text, s, i)
				if _, err := s.Put(context.Background(), []tenderbase.Record{tender(key, "Поставка бумаги", 1)}); err != nil {
					t.Fatal(err)
				}
				stored++
				for page := range 2 { // the second page takes the total from the cache
					sr.Page = page
					p, err := reader.Search(context.Background(), sr)
					if err != nil {
						t.Fatal(err)
					}
					if p.Total != stored {
						t.Errorf("%s after a Put by store %p, page %d: total %d, want %d", text, s, page, p.Total, stored)
					}
				}
			}
		}
	}
}

// TestTextTooLarge checks that a record whose tsvector would pass 1 MB is
// refused as invalid, and the whole Put with it.
func TestTextTooLarge(t *testing.T) {
	s := openTest(t)
	var words strings.Builder
	for i := range 12000 {
		fmt.Fprintf(&words, "%s%d ", strings.Repeat("ж", 40), i)
	}
	_, err := s.Put(context.Background(), []tenderbase.Record{tender("ok", "Поставка бумаги", 1), tender("big", words.String(), 1)})
	if tenderbase.ErrorCode(err) != tenderbase.EINVALID || !strings.Contains(err.Error(), "1 MB") {
		t.Fatalf("Put of a record over the limit: %v, want %s naming the limit", err, tenderbase.EINVALID)
	}
	if got := found(t, s, "бумага"); len(got) != 0 {
		t.Errorf("the rest of the Put was stored: %v", got)
	}
}
