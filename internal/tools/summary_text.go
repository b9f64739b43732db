package tools

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/tenderbase/tenderbase"
)

// hitKind is what the text of a search page says of one kind of record.
type hitKind struct {
	one, many string // "tender", "tenders"
	// open says which tools show a record of the page whole, with the
	// arguments for the key %[1]s (a JSON string) of its first entry.
	open string
	// cutWhole names where the texts cut with … are whole.
	cutWhole string
	// same stands for the fields of what a record belongs to (entry.about)
	// when the record before it belongs to it too.
	same string
}

var hitKinds = map[tenderbase.Kind]hitKind{
	tenderbase.KindTender: {one: "tender", many: "tenders", cutWhole: "ru.detail",
		open: `Whole tender: ru.detail {"id": %[1]s}; its amendments and events: ru.izm {"tend_num": %[1]s}; its winner and contracts: ru.contractByNum {"tend_num": %[1]s}.`},
	tenderbase.KindDoc: {one: "document", many: "documents", cutWhole: "ru.detail", same: "the same tender",
		open: `Its tender with every file: ru.detail {"id": %[1]s} (the entry's tender number).`},
	tenderbase.KindContract: {one: "contract", many: "contracts", cutWhole: "contracts.detail",
		open: `Whole contract with its payments: contracts.detail {"id": %[1]s}.`},
	tenderbase.KindWorldTender: {one: "world tender", many: "world tenders", cutWhole: "world.detail",
		open: `Whole notice with lots and documents: world.detail {"id": %[1]s}.`},
	tenderbase.KindLot: {one: "lot", many: "lots", cutWhole: "torgi.detail",
		open: `Whole lot with its terms, dates and result: torgi.detail {"id": %[1]s}.`},
	tenderbase.KindUnfairSupplier: {one: "entry", many: "entries", cutWhole: "rnp.detail",
		open: `Whole entry with its purchase, contract and founders: rnp.detail {"id": %[1]s}.`},
	tenderbase.KindPlannedPurchase: {one: "planned purchase", many: "planned purchases", cutWhole: "plans.detail",
		open: `Whole position with the notices published from it: plans.detail {"id": %[1]s}.`},
}

// noun returns the noun of k for n records.
func (k hitKind) noun(n int) string {
	if n == 1 {
		return k.one
	}
	return k.many
}

// sortWords say each order of a page in words.
var sortWords = map[tenderbase.Sort]string{
	tenderbase.SortNewest:    "newest first",
	tenderbase.SortDeadline:  "soonest deadline first",
	tenderbase.SortPriceAsc:  "lowest price first",
	tenderbase.SortPriceDesc: "highest price first",
	tenderbase.SortEnds:      "soonest end of term first",
	tenderbase.SortRelevance: "best match first",
}

// orderWords says the order sort in words: newest first when none is set.
func orderWords(sort tenderbase.Sort) string {
	if w, ok := sortWords[cmp.Or(sort, tenderbase.SortNewest)]; ok {
		return w
	}
	return "sorted by " + string(sort)
}

// text writes the page for a model to read: a line on what was found and
// which page this is, a numbered entry a record, and what to call next.
func (p summaryPage) text(t searchTool, sort tenderbase.Sort, plan tenderbase.Plan) string {
	k := hitKinds[t.kind]
	var b strings.Builder
	p.writeCorrected(&b)
	p.writeHeader(&b, k, sort, plan)
	for _, h := range p.Hints {
		fmt.Fprintf(&b, "Query: %s.\n", h)
	}
	writeExpansions(&b, p.Expansions, k)
	cut := p.writeEntries(&b, k)
	p.writePartial(&b)
	p.writeNext(&b, t, k, cut)
	writeFamilies(&b, p.Expansions)
	return strings.TrimSuffix(b.String(), "\n")
}

// writeEntries writes an entry a record, numbered from the first record of
// the page, and reports whether a title was cut.
func (p summaryPage) writeEntries(b *strings.Builder, k hitKind) (cut bool) {
	var prev entry
	for i, h := range p.Items {
		e := h.entry()
		fmt.Fprintf(b, "%d. %s\n", p.Page*p.PageSize+1+i, strings.Join(facts(e.id, e.title), " · "))
		line := e.facts
		if len(e.about) > 0 && slices.Equal(e.about, prev.about) {
			line = append([]string{k.same}, line...)
		} else {
			line = append(slices.Clone(e.about), line...)
		}
		if len(line) > 0 {
			fmt.Fprintf(b, "   %s\n", strings.Join(line, "; "))
		}
		cut = cut || strings.Contains(e.title, "…")
		prev = e
	}
	return cut
}

// writeCorrected says which words of the query no record holds and what
// was searched for in their place.
func (p summaryPage) writeCorrected(b *strings.Builder) {
	if len(p.Corrected) == 0 {
		return
	}
	var words, instead []string
	for _, c := range p.Corrected {
		words = append(words, "«"+c.Word+"»")
		how := "«" + c.Instead + "»"
		if c.Layout {
			how += " (the other keyboard layout)"
		}
		instead = append(instead, how)
	}
	fmt.Fprintf(b, "No record holds %s: searched for %s instead (exact: true searches as written).\n",
		strings.Join(words, ", "), strings.Join(instead, ", "))
}

// writeHeader says how many records were found, in which order, which
// page this is, and what the plan withholds.
func (p summaryPage) writeHeader(b *strings.Builder, k hitKind, sort tenderbase.Sort, plan tenderbase.Plan) {
	if p.Total == 0 {
		fmt.Fprintf(b, "Found no %s.\n", k.many)
		return
	}
	fmt.Fprintf(b, "Found %d %s, %s", p.Total, k.noun(p.Total), orderWords(sort))
	if p.RowCap > 0 {
		fmt.Fprintf(b, "; your plan (%s) reaches the first %d", plan, p.RowCap)
	}
	first := p.Page*p.PageSize + 1
	switch {
	case p.Pages == 1 && p.Page == 0:
		b.WriteString(", all on this page.\n")
	case len(p.Items) == 0:
		fmt.Fprintf(b, "; %d a page, pages 0-%d. Page %d holds none.\n", p.PageSize, p.Pages-1, p.Page)
	default:
		fmt.Fprintf(b, "; %d a page, pages 0-%d. Page %d: %s %d-%d.\n", p.PageSize, p.Pages-1, p.Page, k.many, first, first+len(p.Items)-1)
	}
	if p.Notice != "" {
		b.WriteString(p.Notice + "\n")
	}
	if len(p.Hidden) > 0 {
		fmt.Fprintf(b, "Your plan (%s) hides %s of these %s; paid plans (%s) see them.\n",
			plan, strings.Join(p.Hidden, ", "), k.many, tenderbase.PaidPlans())
	}
}

// writeNext says what to call next: a record whole, the next page, a
// narrower search.
func (p summaryPage) writeNext(b *strings.Builder, t searchTool, k hitKind, cut bool) {
	if len(p.Items) > 0 {
		fmt.Fprintf(b, k.open+"\n", jsonText(p.Items[0].entry().opens()))
	}
	if cut {
		fmt.Fprintf(b, "Titles cut with … are whole in %s.\n", k.cutWhole)
	}
	if len(p.Items) > 0 && p.Page+1 < p.Pages {
		if p.NextCursor != "" {
			fmt.Fprintf(b, "Next page: the same call with \"cursor\": %s (or \"page\": %d).\n", jsonText(p.NextCursor), p.Page+1)
		} else {
			fmt.Fprintf(b, "Next page: the same call with \"page\": %d.\n", p.Page+1)
		}
	}
	switch {
	case p.Total == 0 && len(p.Items) == 0 && len(p.partial) == 0:
		// A page of class records or partial matches says what it holds.
		b.WriteString("Try other words or fewer of them, | between alternatives, or fewer filters.\n")
	case p.Pages > 1:
		fmt.Fprintf(b, "Narrow: more words in query%s.\n", narrowing(t))
	}
}

// narrowing names the arguments besides query that narrow a search of t,
// and the other orders it offers.
func narrowing(t searchTool) string {
	var more string
	if len(t.filters) > 0 {
		more = ", or by " + strings.Join(t.filters, ", ")
	}
	if len(t.sorts) > 0 {
		sorts := make([]string, len(t.sorts))
		for i, s := range t.sorts {
			sorts[i] = string(s)
		}
		more += "; other orders: sort " + strings.Join(sorts, ", ")
	}
	return more
}

// jsonText returns s as a JSON string.
func jsonText(s string) string {
	b, _ := marshal(s) // a string always encodes
	return string(b)
}
