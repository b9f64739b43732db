package e2e

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/demo"
)

// toolCall is one tools/call: a tool and its arguments.
type toolCall struct {
	Name      string         `json:"name"`
	Arguments map[string]any `json:"arguments"`
}

// toolNames are the 13 tools of spec 4.2, those of the register of unfair
// suppliers and of purchase plans, the feed of changes, price monitoring,
// red flags, aggregates, the subscriptions, the freshness of the data and
// the analysis of documentation.
var toolNames = []string{
	"ru.search", "ru.detail", "ru.izm", "ru.contractByNum",
	"docs.search", "docs.analyze", "contracts.search", "contracts.detail",
	"world.search", "world.detail",
	"contragent.byInn", "contragent.contacts",
	"torgi.search", "torgi.detail",
	"rnp.search", "rnp.detail",
	"plans.search", "plans.detail",
	"feed.changes", "prices.monitor", "ru.flags", "analytics.aggregate", "analytics.profile",
	"subscriptions.create", "subscriptions.list", "subscriptions.delete",
	"data.freshness",
}

// demoCalls returns a call of every tool whose arguments find something in
// the demo data, so that a paid key gets a result from each.
func demoCalls(t *testing.T) []toolCall {
	t.Helper()
	recs, err := demo.Records()
	if err != nil {
		t.Fatalf("demo records: %v", err)
	}
	var (
		tender, amended *tenderbase.Tender
		contract        *tenderbase.Contract
		doc             *tenderbase.Doc
		world           *tenderbase.WorldTender
		org             *tenderbase.Org
		lot             *tenderbase.Lot
		entry           *tenderbase.UnfairSupplier
		position        *tenderbase.PlannedPurchase
	)
	for _, r := range recs {
		switch r := r.(type) {
		case *tenderbase.Tender:
			if tender == nil {
				tender = r
			}
			if amended == nil && r.Version > 1 {
				amended = r
			}
		case *tenderbase.Contract:
			if contract == nil && r.PurchaseNumber != "" {
				contract = r
			}
		case *tenderbase.Doc:
			doc = first(doc, r)
		case *tenderbase.WorldTender:
			world = first(world, r)
		case *tenderbase.Org:
			if org == nil && len(r.Contacts) > 0 {
				org = r
			}
		case *tenderbase.Lot:
			lot = first(lot, r)
		case *tenderbase.UnfairSupplier:
			entry = first(entry, r)
		case *tenderbase.PlannedPurchase:
			position = first(position, r)
		}
	}
	if tender == nil || amended == nil || contract == nil || doc == nil || world == nil || org == nil || lot == nil || entry == nil || position == nil {
		t.Fatal("the demo data lacks a record the calls need")
	}
	return []toolCall{
		{"ru.search", map[string]any{"query": longestWord(tender.Title), "regions": []int{tender.Region}}},
		{"ru.detail", map[string]any{"id": tender.PurchaseNumber}},
		{"ru.izm", map[string]any{"tend_num": amended.PurchaseNumber}},
		{"ru.contractByNum", map[string]any{"tend_num": contract.PurchaseNumber}},
		{"docs.search", map[string]any{"query": doc.PurchaseNumber}},
		{"docs.analyze", map[string]any{"purchase_number": doc.PurchaseNumber}},
		{"contracts.search", map[string]any{"query": longestWord(contract.Subject), "page": 0}},
		{"contracts.detail", map[string]any{"id": contract.RegNumber}},
		{"world.search", map[string]any{"query": longestWord(world.Title), "countries": []int{world.Country}}},
		{"world.detail", map[string]any{"id": world.ID}},
		{"contragent.byInn", map[string]any{"inn": org.INN}},
		{"contragent.contacts", map[string]any{"inn": org.INN}},
		{"torgi.search", map[string]any{"query": longestWord(lot.Title)}},
		{"torgi.detail", map[string]any{"id": lot.ID}},
		{"rnp.search", map[string]any{"query": entry.Supplier.INN}},
		{"rnp.detail", map[string]any{"id": entry.RegistryNumber}},
		{"plans.search", map[string]any{"query": longestWord(position.Object)}},
		{"plans.detail", map[string]any{"id": position.PositionNumber}},
		{"feed.changes", map[string]any{"resource": "ru", "limit": 5}},
		{"prices.monitor", map[string]any{"okpd2": "26.20"}},
		{"ru.flags", map[string]any{"tend_num": contract.PurchaseNumber}},
		{"data.freshness", map[string]any{}},
		{"analytics.aggregate", map[string]any{"resource": "ru", "search": map[string]any{"query": longestWord(tender.Title)}, "by": "region"}},
		{"analytics.profile", map[string]any{"inn": contract.Customer.INN, "role": "customer"}},
	}
}

func first[T any](have, next *T) *T {
	if have != nil {
		return have
	}
	return next
}

// longestWord returns the longest word of a title: a word that surely finds
// the record it came from.
func longestWord(title string) string {
	best := ""
	for _, w := range strings.FieldsFunc(title, func(r rune) bool {
		return !(r == '-' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || r >= 0x400 && r <= 0x4ff || r >= 0xc0 && r <= 0x24f)
	}) {
		if utf8.RuneCountInString(w) > utf8.RuneCountInString(best) {
			best = w
		}
	}
	return best
}
