package tools

import (
	"context"
	"strings"

	"github.com/tenderbase/tenderbase"
)

// tendNumArgs are the arguments of ru.izm and ru.contractByNum.
type tendNumArgs struct {
	TendNum string `json:"tend_num" jsonschema:"The tender's purchase number: 19 digits under 44-FZ (0373200041524000123), 11 under 223-FZ (32413456789). Required."`
}

func (a *tendNumArgs) check() error { return requireText("tend_num", &a.TendNum) }

// requireText trims a required string argument and rejects it when nothing
// is left.
func requireText(name string, v *string) error {
	*v = strings.TrimSpace(*v)
	if *v == "" {
		return argErrorf("argument %q is empty", name)
	}
	return nil
}

func (s *Set) ruSearch() (*Tool, error) {
	return searchDefinition[searchArgs](s, searchTool{
		name:  "ru.search",
		title: "Search Russian tenders",
		description: "Search Russian public procurement notices (44-FZ and 223-FZ tenders) by words in the purchase number, " +
			"title, the names and INNs of its customers (every customer of a joint purchase) and of its organizer, placing method, " +
			"lot titles and purchase objects (names, OKPD2 codes and names). " +
			queryHelp + " " + pagingHelp() + " " +
			"Arguments, all optional (without a query it lists the newest tenders the filters admit): query; regions; laws [44, 223]; " +
			"price_min and price_max, the maximum price in roubles; published_from, published_to, deadline_from, deadline_to, days as 2026-12-01; " +
			"open: true for tenders that take applications now; state (active, completed, cancelled, failed); okpd2, a code prefix such as 43.91; " +
			"customer_inn; participant_inn, a participant in its protocols; placing_method (EA20, OK20, ZK20...); platform (ETP_SBAST, ETP_RTS...); " +
			"sort: newest (default), deadline, price_asc, price_desc, relevance; filters, the same as flags such as {\"fz44\": 1, \"r77\": 1} " +
			"or TenderGuru's price1, price2, date_start, date_end, actual, f; page, or cursor (the next_cursor of the page before, quicker for deep pages). " +
			"Returns {total, page, page_size, pages, items, next_cursor}: items are tenders in brief, with id (the purchase number), title, " +
			"customer (name and INN), region, price and currency (the maximum price), state (where the tender stands once its " +
			"protocols and events are applied, as ru.detail says), published, deadline (for applications, once date changes are " +
			"applied) and url. " + summaryHelp + " " +
			"Use ru.detail for one tender, ru.izm for its amendments, ru.contractByNum for its winner and contracts. " +
			`Example: {"query": "ремонт кровли", "regions": [77], "laws": [44], "price_min": 5000000, "deadline_from": "2026-12-01", ` +
			`"deadline_to": "2026-12-07", "open": true, "sort": "price_desc"}.`,
		kind:  tenderbase.KindTender,
		flags: flagKinds{regions: true, laws: true},
		filters: []string{"regions", "laws", "price_min", "price_max", "published_from", "published_to", "deadline_from", "deadline_to",
			"open", "state", "okpd2", "customer_inn", "participant_inn", "placing_method", "platform"},
		sorts: []tenderbase.Sort{tenderbase.SortDeadline, tenderbase.SortPriceAsc, tenderbase.SortPriceDesc, tenderbase.SortRelevance},
	})
}

func (s *Set) ruDetail() (*Tool, error) {
	return s.detailDefinition(detailTool{
		name:  "ru.detail",
		title: "Russian tender details",
		description: "Get one Russian tender (44-FZ or 223-FZ) by its purchase number, in its current version and whole: " +
			"customer (and every customer of a joint purchase with its part), the organizer that placed it for its customers with its role, " +
			"prices, dates, the platform, lots with their purchase objects (OKPD2, quantity, price), attached files, " +
			"the customer's contact, participants and winners from the protocols, and why the last amendment was made. " +
			"Adds state, where the tender stands once its events and protocols are applied (active, completed, cancelled, failed), " +
			"dates, its deadline for applications and bidding date once date changes and prolongations are applied, " +
			"state_from, the record that decided it, events, its date changes and cancellations newest first, and protocols, " +
			"how many protocols are stored. " +
			maskHelp + " Fails with not found for an unknown number. " +
			`Example: {"id": "0373200041524000123"}.`,
		idMeans: "The tender's purchase number: 19 digits under 44-FZ (0373200041524000123), 11 under 223-FZ (32413456789). Required.",
		kind:    tenderbase.KindTender,
		missing: s.tenderMissing,
		extra:   s.tenderDetailOf,
		output:  recordWith[tenderDetail](tenderbase.KindTender, tenderbase.KindTenderEvent),
	})
}

func (s *Set) ruIzm() (*Tool, error) {
	return build(definition[tendNumArgs]{
		name:  "ru.izm",
		title: "Amendments of a Russian tender",
		description: "List every version of a Russian tender's notice, oldest first: the first publication and each amendment, " +
			"with its version number, publication date, the reason given, the fields that changed from the version before " +
			"(by their JSON names, such as max_price or applications_deadline) and the whole record of that version. " +
			"A tender never amended has one version with changed = []. " +
			"Also returns timeline, the tender's life in one list ordered by publication: each version, each event " +
			"(date changes and prolongations with the new dates, cancelled date changes, cancellations, cancelled cancellations, " +
			"lot changes with what changed, changes of the organization conducting the purchase with the new one, no applications) and each protocol " +
			"(number, type, date, failed, counts of participants and winners), each with its kind. " +
			maskHelp + " Fails with not found when nothing is known of the number. " +
			`Example: {"tend_num": "0373200041524000123"}.`,
		output: outputOf[izmResult](tenderbase.KindTender),
		run: func(ctx context.Context, args tendNumArgs) (Output, error) {
			return s.izm(ctx, args.TendNum)
		},
	})
}

func (s *Set) ruContractByNum() (*Tool, error) {
	return build(definition[tendNumArgs]{
		name:  "ru.contractByNum",
		title: "Winner and contracts of a Russian tender",
		description: "Find who won a Russian tender and the contracts concluded from it, by the tender's purchase number. " +
			"Returns {purchase_number, tender, winners, protocols, contracts}: tender is a summary of the notice (title, customer, " +
			"status, max_price...) or null when only protocols or contracts are known; winners are the participants the newest " +
			"protocol of each lot names as winner or rank 1 (else the notice's own), with their offers; protocols are the " +
			"commission's protocols (type, date, participants, failed and why), newest first; contracts are the contract " +
			"records (registry number, price, supplier, dates), newest first. Winners, protocol participants and contract " +
			"suppliers need a paid plan: for free they are null. " +
			"Fails with not found when no tender, protocol or contract is known. " +
			`Example: {"tend_num": "0373200041524000123"}.`,
		output: outputWith[winnerResult](tenderbase.KindContract, map[string]tenderbase.Kind{"protocols": tenderbase.KindProtocol}),
		run: func(ctx context.Context, args tendNumArgs) (Output, error) {
			return s.contractByNum(ctx, args.TendNum)
		},
	})
}
