package tools

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/demo"
)

// Budgets of a full page of a search, in characters: its text, which MCP
// answers as the text block, and its summary, the structured content. A
// model reads several pages and the records it opens within a small
// context. The summary names each field and quotes each text, about 60
// characters a record more than the text; a document's summary more, as
// it has a link of its own and the start of its text, and the text says
// the fields of its tender once for all its files.
const (
	textBudget       = 8000
	summaryBudget    = 9000
	docSummaryBudget = 11000
)

// TestFullPageFitsBudget searches for the 20 demo tenders with the longest
// titles, as a plan that sees every field, and holds the text and the
// summary of the page to the budgets. Before summaries the same page was
// 52,000 characters, sent twice.
func TestFullPageFitsBudget(t *testing.T) {
	tenders := longestTitles(t, tenderbase.DefaultPageSize)
	numbers := make([]string, len(tenders))
	for i, tender := range tenders {
		numbers[i] = tender.PurchaseNumber
	}
	args, err := marshal(map[string]string{"query": strings.Join(numbers, " | ")})
	if err != nil {
		t.Fatal(err)
	}
	out := fullPage(t, "ru.search", string(args), summaryBudget)
	var page struct{ Items []tenderHit }
	if err := json.Unmarshal(out.Summary, &page); err != nil {
		t.Fatal(err)
	}
	for _, h := range page.Items {
		if utf8.RuneCountInString(h.Title) > titleRunes {
			t.Errorf("title of %s is %d characters long: %s", h.ID, utf8.RuneCountInString(h.Title), h.Title)
		}
	}
}

// TestEveryFullPageFitsBudget holds the first page of every search tool
// with many records in the demo data to the budgets.
func TestEveryFullPageFitsBudget(t *testing.T) {
	for _, c := range []struct {
		tool, args string
		budget     int
	}{
		{"ru.search", `{}`, summaryBudget},
		{"docs.search", `{"query": "заказчик | контракт | закупки | обоснование | смета | описание"}`, docSummaryBudget},
		{"contracts.search", `{}`, summaryBudget},
		{"world.search", `{}`, summaryBudget},
		{"torgi.search", `{}`, summaryBudget},
	} {
		t.Run(c.tool, func(t *testing.T) { fullPage(t, c.tool, c.args, c.budget) })
	}
}

// fullPage calls a search tool as a plan that sees every field, checks that
// the page is full and within the budgets, and returns it.
func fullPage(t *testing.T, tool, args string, summaryBudget int) Output {
	t.Helper()
	out, err := call(t, demoSet, asPlan(tenderbase.PlanCorporate), tool, args)
	if err != nil {
		t.Fatal(err)
	}
	validateOutput(t, tool, out)
	var page struct{ Items []json.RawMessage }
	if err := json.Unmarshal(out.Summary, &page); err != nil {
		t.Fatal(err)
	}
	if len(page.Items) != tenderbase.DefaultPageSize {
		t.Fatalf("the page holds %d records, want a full page of %d", len(page.Items), tenderbase.DefaultPageSize)
	}
	text, summary := utf8.RuneCountInString(out.Text), utf8.RuneCount(out.Summary)
	t.Logf("%s, a full page: text %d characters, summary %d, whole records %d", tool, text, summary, utf8.RuneCount(out.Value))
	if text > textBudget || summary > summaryBudget {
		t.Errorf("a full page takes %d characters of text and %d of summary; the budgets are %d and %d:\n%s",
			text, summary, textBudget, summaryBudget, out.Text)
	}
	return out
}

// longestTitles returns the n current demo tenders with the longest titles.
func longestTitles(t *testing.T, n int) []*tenderbase.Tender {
	t.Helper()
	recs, err := demo.Records()
	if err != nil {
		t.Fatal(err)
	}
	current := map[string]*tenderbase.Tender{}
	for _, r := range recs {
		if tender, ok := r.(*tenderbase.Tender); ok {
			if had := current[tender.PurchaseNumber]; had == nil || had.Version < tender.Version {
				current[tender.PurchaseNumber] = tender
			}
		}
	}
	var out []*tenderbase.Tender
	for _, tender := range current {
		out = append(out, tender)
	}
	slices.SortFunc(out, func(a, b *tenderbase.Tender) int {
		return cmp.Or(cmp.Compare(utf8.RuneCountInString(b.Title), utf8.RuneCountInString(a.Title)), strings.Compare(a.PurchaseNumber, b.PurchaseNumber))
	})
	if len(out) < n {
		t.Fatalf("the demo data holds %d tenders, fewer than %d", len(out), n)
	}
	return out[:n]
}

func TestCut(t *testing.T) {
	for _, c := range []struct {
		in    string
		limit int
		want  string
	}{
		{"Поставка бумаги", 20, "Поставка бумаги"},
		{"  Поставка\n\tбумаги  ", 20, "Поставка бумаги"},
		{"Поставка бумаги для офисной техники", 20, "Поставка бумаги для…"},
		{"Поставка бумаги, картриджей", 18, "Поставка бумаги…"},
		{"Оказание услуг (охрана)", 23, "Оказание услуг (охрана)"},
		{"Оказание услуг (охрана) объектов", 24, "Оказание услуг (охрана)…"},
		{"Электрогазосварочноеоборудование", 10, "Электрога…"},
	} {
		got := cut(c.in, c.limit)
		if got != c.want {
			t.Errorf("cut(%q, %d) = %q, want %q", c.in, c.limit, got, c.want)
		}
		if n := utf8.RuneCountInString(got); n > c.limit {
			t.Errorf("cut(%q, %d) is %d characters long", c.in, c.limit, n)
		}
	}
}

func TestAbbreviated(t *testing.T) {
	for in, want := range map[string]string{
		"Общество с ограниченной ответственностью «ПромМонтаж-7»":   "ООО «ПромМонтаж-7»",
		"ОБЩЕСТВО С ОГРАНИЧЕННОЙ ОТВЕТСТВЕННОСТЬЮ \"РОМАШКА\"":      "ООО \"РОМАШКА\"",
		"Акционерное общество «Сбербанк-АСТ»":                       "АО «Сбербанк-АСТ»",
		"Индивидуальный предприниматель Иванов Иван Иванович":       "ИП Иванов Иван Иванович",
		"Акционерное обществознание":                                "Акционерное обществознание",
		"Муниципальное бюджетное общеобразовательное учреждение №1": "Муниципальное бюджетное общеобразовательное учреждение №1",
	} {
		if got := abbreviated(in); got != want {
			t.Errorf("abbreviated(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestSummariesHideTariffFields holds the summaries and the text of every
// search tool to the plans: no value that only a paid plan sees in the whole
// records of a page reaches what a free caller gets over MCP.
func TestSummariesHideTariffFields(t *testing.T) {
	for _, c := range tariffCases {
		k, ok := searchKinds[c.tool]
		if !ok || len(tenderbase.TariffFields[k]) == 0 {
			continue
		}
		t.Run(c.tool, func(t *testing.T) {
			paid, _ := mustCall(t, asPlan(tenderbase.PlanStandard), c.tool, c.args)
			free, _ := mustCall(t, asPlan(tenderbase.PlanFree), c.tool, c.args)
			secrets := tariffValues(t, k, paid.Value)
			if len(secrets) == 0 {
				t.Fatalf("the paid page holds no value of a tariff field of %s", k)
			}
			for _, s := range secrets {
				if strings.Contains(string(free.Summary), s) || strings.Contains(free.Text, s) {
					t.Errorf("a free caller's summary shows %q, of a tariff field", s)
				}
			}
			if !slices.Equal(free.Restricted, tenderbase.HiddenFields(k, tenderbase.PlanFree)) && len(free.Restricted) == 0 {
				t.Errorf("restricted: %v", free.Restricted)
			}
		})
	}
}

// searchKinds are the kinds of record each search tool finds.
var searchKinds = map[string]tenderbase.Kind{
	"ru.search": tenderbase.KindTender, "docs.search": tenderbase.KindDoc, "contracts.search": tenderbase.KindContract,
	"world.search": tenderbase.KindWorldTender, "torgi.search": tenderbase.KindLot, "rnp.search": tenderbase.KindUnfairSupplier,
}

// tariffValues returns the texts the tariff fields of kind k hold in the
// items of a whole page: each string at least 10 characters long, cut to
// its first 30 characters, as a summary would cut a long one.
func tariffValues(t *testing.T, k tenderbase.Kind, value json.RawMessage) []string {
	t.Helper()
	var page struct{ Items []map[string]any }
	if err := json.Unmarshal(value, &page); err != nil {
		t.Fatal(err)
	}
	var out []string
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case string:
			if s := oneLine(v); utf8.RuneCountInString(s) >= 10 {
				out = append(out, string([]rune(s)[:min(30, utf8.RuneCountInString(s))]))
			}
		case []any:
			for _, e := range v {
				walk(e)
			}
		case map[string]any:
			for _, e := range v {
				walk(e)
			}
		}
	}
	for _, item := range page.Items {
		for _, f := range tenderbase.TariffFields[k] {
			walk(item[f])
		}
	}
	// A value that a field every plan sees also holds is no secret: an
	// award's title that is the notice's own.
	var seen strings.Builder
	for _, item := range page.Items {
		for f, v := range item {
			if !slices.Contains(tenderbase.TariffFields[k], f) {
				b, _ := json.Marshal(v)
				seen.Write(b)
			}
		}
	}
	return slices.DeleteFunc(out, func(s string) bool { return strings.Contains(oneLine(seen.String()), s) })
}

// TestSearchText checks what the text of a search page says of the page
// and what to call next, on the pages a free plan reaches and past them.
func TestSearchText(t *testing.T) {
	for _, c := range []struct {
		name        string
		plan        tenderbase.Plan
		args        string
		want, never []string
	}{
		{"first of several pages", tenderbase.PlanStandard, `{` + wideQuery + `}`,
			[]string{"Found 100 tenders, newest first; 20 a page, pages 0-4. Page 0: tenders 1-20.\n1. ", "\n20. ",
				`Whole tender: ru.detail {"id": "`, `Next page: the same call with "cursor": "20.`, `" (or "page": 1).`,
				"Narrow: more words in query, or by regions, laws, price_min, ", "; other orders: sort deadline, price_asc, price_desc, relevance."},
			[]string{"\n21. ", "Your plan", "hides"}},
		{"another order", tenderbase.PlanStandard, `{` + wideQuery + `, "sort": "deadline"}`,
			[]string{"Found 100 tenders, soonest deadline first; "},
			[]string{"newest first"}},
		{"the last page", tenderbase.PlanStandard, `{` + wideQuery + `, "page": 4}`,
			[]string{"Page 4: tenders 81-100.\n81. ", "\n100. "},
			[]string{"Next page"}},
		{"free, straddling the row cap", tenderbase.PlanFree, `{` + wideQuery + `, "page": 1}`,
			[]string{"Found 100 tenders, newest first; your plan (free) reaches the first 30; 20 a page, pages 0-1. Page 1: tenders 21-30.\n",
				"this page stops at row 30", "Your plan (free) hides contact, participants of these tenders; paid plans (standard, guru, corporate) see them.", "\n30. "},
			[]string{"\n31. ", "Next page"}},
		{"free, past the row cap", tenderbase.PlanFree, `{` + wideQuery + `, "page": 2}`,
			[]string{"pages 0-1. Page 2 holds none.\n", "this page starts at row 41, past them"},
			[]string{"\n1. ", "Whole tender", "Next page"}},
		{"one page", tenderbase.PlanStandard, `{"query": "охраны", "regions": [16]}`,
			[]string{"Found 1 tender, newest first, all on this page.\n1. 0162307330524391275 · "},
			[]string{"Next page", "Narrow"}},
		{"nothing", tenderbase.PlanStandard, `{"query": "дирижабля"}`,
			[]string{"Found no tenders.\nTry other words or fewer of them"},
			[]string{"\n1. ", "Whole tender"}},
		{"nothing, with a wildcard", tenderbase.PlanStandard, `{"query": "дирижабл*"}`,
			[]string{"Found no tenders.\nQuery: дирижабл* is searched as the word дирижабл: there is no wildcard or prefix search"},
			[]string{"\n1. "}},
		{"another engine's OR", tenderbase.PlanStandard, `{"query": "охраны OR дирижабля", "regions": [16]}`,
			[]string{"Found 1 tender, newest first, all on this page.\nQuery: OR was read as the operator |; "},
			nil},
		{"another engine's exclusion", tenderbase.PlanStandard, `{"query": "охраны -здания", "regions": [16]}`,
			[]string{"Query: -здания was read as !здания, without the word"},
			nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, err := call(t, demoSet, asPlan(c.plan), "ru.search", c.args)
			if err != nil {
				t.Fatal(err)
			}
			validateOutput(t, "ru.search", out)
			for _, w := range c.want {
				if !strings.Contains(out.Text, w) {
					t.Errorf("the text lacks %q:\n%s", w, out.Text)
				}
			}
			for _, n := range c.never {
				if strings.Contains(out.Text, n) {
					t.Errorf("the text holds %q:\n%s", n, out.Text)
				}
			}
		})
	}
}

// TestSummariesAgreeWithDetail checks that the summary of every demo tender
// gives the state and the deadline for applications that ru.detail derives
// from its events and protocols.
func TestSummariesAgreeWithDetail(t *testing.T) {
	for page := 0; page < 5; page++ {
		out, err := call(t, demoSet, asPlan(tenderbase.PlanCorporate), "ru.search", fmt.Sprintf(`{%s, "page": %d}`, wideQuery, page))
		if err != nil {
			t.Fatal(err)
		}
		var p struct{ Items []tenderHit }
		if err := json.Unmarshal(out.Summary, &p); err != nil {
			t.Fatal(err)
		}
		for _, h := range p.Items {
			d, _ := decodeCall[tenderDetail](t, demoSet, tenderbase.PlanCorporate, "ru.detail", `{"id": "`+h.ID+`"}`)
			if h.State != d.State || !h.Deadline.Equal(d.Dates.ApplicationsDeadline) {
				t.Errorf("%s: summary %s, deadline %v; ru.detail %s, deadline %v", h.ID, h.State, h.Deadline, d.State, d.Dates.ApplicationsDeadline)
			}
		}
	}
}

// TestSummaryDeadline checks that a summary gives a tender's deadline once
// its date changes are applied, not the notice's.
func TestSummaryDeadline(t *testing.T) {
	const number = "0373200041525000077"
	v1 := notice(number, tenderbase.TenderActive)
	v1.ApplicationsDeadline = day(10)
	prolonged := event("e1", number, tenderbase.EventDateChange, 3)
	prolonged.ApplicationsDeadline = day(14)
	undone := event("e2", number, tenderbase.EventDateChangeCancel, 5)
	for _, c := range []struct {
		name string
		recs []tenderbase.Record
		want string
	}{
		{"the notice's own", []tenderbase.Record{v1}, "deadline 2025-03-10 10:00 +03:00"},
		{"prolonged", []tenderbase.Record{v1, prolonged}, "deadline 2025-03-14 10:00 +03:00"},
		{"the prolongation cancelled", []tenderbase.Record{v1, prolonged, undone}, "deadline 2025-03-10 10:00 +03:00"},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, err := call(t, emptySet(t, c.recs...), asPlan(tenderbase.PlanFree), "ru.search", `{"query": "`+number+`"}`)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(out.Text, "; active; published 2025-03-01; "+c.want+"\n") {
				t.Errorf("the text lacks %q:\n%s", c.want, out.Text)
			}
		})
	}
}
