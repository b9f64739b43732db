package tools

import (
	"context"

	"github.com/tenderbase/tenderbase"
)

// rnpFields says what the fields of an entry of the register of unfair
// suppliers mean, for the descriptions of the tools that return entries.
const rnpFields = "registry_number (the entry's number in the register), law (44 or 223), " +
	"state (included: in the register; excluded: taken out, at the end of its term, by an order or by a court; " +
	"refused: the control body refused to include it) and state_code (the publisher's code: PUBLISHED, ARCHIVED, RG, AR...), " +
	"included_at (the day of inclusion), exclude_on (the day it leaves the register by itself, two years after inclusion), " +
	"reason (WINNER_DEVIATION: the winner evaded signing the contract; ONE_WINNER_DEVIATION: the only participant did; " +
	"PARTICIPANT_DEVIATION_IF_WINNER_DEVIATION: the next participant did after the winner had; CANCEL_CONTRACT: the contract was " +
	"terminated for the supplier's fault) and reason_text, decision (the control body's decision or order), " +
	"sanctions_refusal (the supplier refused to perform because of foreign sanctions), supplier (type U organization, " +
	"UF foreign organization, P person, PF foreign person; name, inn, kpp, address, email, registry_number in the register of " +
	"participants), founders (founders, heads and board members included with it: name, inn, type), branch (a 223-FZ " +
	"supplier's subdivision), customer (who asked to include it), publish_org (the antimonopoly body that included it), " +
	"purchase (purchase_number, IKZ codes, object, placing_way, lot, protocol_date, the document), contract (reg_number, " +
	"subject, price, currency, the dates of signing, performance and termination, cancel_basis, items), exclusion (date, " +
	"type: ORDER, EXCLUSION or ROLLBACK by a court, AUTO at the end of the term, MANUAL; reason, document), attachments and url"

func (s *Set) rnpSearch() (*Tool, error) {
	return searchDefinition[searchArgs](s, searchTool{
		name:  "rnp.search",
		title: "Search the register of unfair suppliers",
		description: "Search the entries of the register of unfair suppliers (RNP) of 44-FZ and 223-FZ by words in the supplier's " +
			"name, INN and address, the names and INNs of its founders and heads, the reason, the purchase number and object, the " +
			"contract, the customer and the antimonopoly body. Public data: every plan sees it whole. " +
			queryHelp + " " + pagingHelp() + " " +
			"Arguments, all optional (without a query it lists the newest entries the filters admit): query; laws [44] or [223]; " +
			"published_from and published_to, days of inclusion as 2026-12-01; supplier_inn; customer_inn; sort: newest (default) " +
			"or relevance; filters, the same as flags {\"fz44\": 1} or {\"fz223\": 1}; page, or cursor (the next_cursor of the page before, quicker for deep pages). " +
			"Returns {total, page, page_size, pages, items, next_cursor}, newest inclusion first: items are entries in brief, with id (the " +
			"registry number), supplier (name and INN), title (what it was to supply), reason (WINNER_DEVIATION, " +
			"ONE_WINNER_DEVIATION, PARTICIPANT_DEVIATION_IF_WINNER_DEVIATION, CANCEL_CONTRACT), customer, price and currency (of " +
			"the contract), state (included, excluded, refused), included, exclude_on and url; rnp.detail gives the whole entry. " +
			summaryHelp + " " +
			"To ask whether one INN is barred now, contragent.byInn is shorter (its rnp section). " +
			`Example: {"query": "7404840216"}.`,
		kind:    tenderbase.KindUnfairSupplier,
		flags:   flagKinds{laws: true},
		filters: []string{"laws", "published_from", "published_to", "supplier_inn", "customer_inn"},
		sorts:   []tenderbase.Sort{tenderbase.SortRelevance},
	})
}

func (s *Set) rnpDetail() (*Tool, error) {
	return s.detailDefinition(detailTool{
		name:  "rnp.detail",
		title: "Entry of the register of unfair suppliers",
		description: "Get one entry of the register of unfair suppliers (RNP) by its registry number as rnp.search or " +
			"contragent.byInn gives it (23003469 for 44-FZ, Р2300417 for 223-FZ; older 44-FZ entries read РНП.24120-15): " +
			rnpFields + ". Fails with not found for an unknown number. " +
			`Example: {"id": "23003469"}.`,
		idMeans: "The entry's registry number, e.g. 23003469 (44-FZ) or Р2300417 (223-FZ). Required.",
		kind:    tenderbase.KindUnfairSupplier,
		missing: func(_ context.Context, id string) error {
			return notFound("no entry of the register of unfair suppliers numbered %s; find entries with rnp.search, or those of an INN with contragent.byInn", tenderbase.Quote(id))
		},
	})
}
