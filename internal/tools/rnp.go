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
		title: "Search unfair suppliers",
		description: "Search the register of unfair suppliers (RNP, 44-FZ, 223-FZ) by words in supplier, founders, reason, " +
			"purchase, contract and customer; public to every plan. state: included, excluded, refused. Is one INN barred " +
			"today: contragent.byInn. Next: rnp.detail by id." + " " + `Example: {"query": "7404840216"}.`,
		kind:    tenderbase.KindUnfairSupplier,
		flags:   flagKinds{laws: true},
		filters: []string{"laws", "published_from", "published_to", "supplier_inn", "customer_inn"},
		sorts:   []tenderbase.Sort{tenderbase.SortRelevance},
	})
}

func (s *Set) rnpDetail() (*Tool, error) {
	return s.detailDefinition(detailTool{
		name:  "rnp.detail",
		title: "Unfair supplier entry",
		description: "One RNP entry: state (included, excluded, refused), included_at, exclude_on, reason (WINNER_DEVIATION, " +
			"ONE_WINNER_DEVIATION, PARTICIPANT_DEVIATION_IF_WINNER_DEVIATION: evaded the contract; CANCEL_CONTRACT: " +
			"terminated for the supplier's fault), supplier, founders, customer, purchase, contract, exclusion.",
		idMeans: "Registry number: 23003469 (44-FZ), Р2300417 (223-FZ).",
		kind:    tenderbase.KindUnfairSupplier,
		missing: func(_ context.Context, id string) error {
			return notFound("no entry of the register of unfair suppliers numbered %s; find entries with rnp.search, or those of an INN with contragent.byInn", tenderbase.Quote(id))
		},
	})
}
