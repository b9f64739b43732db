package tools

import (
	"github.com/tenderbase/tenderbase"
)

func (s *Set) contractsSearch() (*Tool, error) {
	return searchDefinition[searchArgs](s, searchTool{
		name:  "contracts.search",
		title: "Search contracts",
		description: "Search concluded Russian public contracts (44-FZ and 223-FZ registry entries: who bought what from whom) " +
			"by words in the registry and purchase numbers, subject, customer name and INN, supplier names and INNs " +
			"(paid plans only: a free query does not match them), and the objects bought (names, OKPD2 codes). " +
			"Give an INN as the query to find a customer's contracts, or on a paid plan a supplier's. " +
			queryHelp + " " + pagingHelp() + " " +
			"Arguments, all optional (without a query it lists the newest contracts the filters admit): query; regions; laws [44, 223]; " +
			"price_min and price_max in roubles; published_from and published_to, days as 2026-12-01; okpd2, a code prefix such as 17.12; " +
			"customer_inn; supplier_inn (paid plans); sort: newest (default), price_asc, price_desc, relevance; " +
			"filters, the same as flags such as {\"fz223\": 1}; page, or cursor (the next_cursor of the page before, quicker for deep pages). " +
			"Returns {total, page, page_size, pages, items, next_cursor}: items are contracts in brief, with id (the registry number), " +
			"purchase_number (the tender it came from), title (the subject), customer (name and INN), region, price and currency, " +
			"state (execution, completed, terminated, annulled), signed, ends (the end of performance) and url; contracts.detail " +
			"gives the suppliers (paid plans), objects and payments. " + summaryHelp + " " +
			`Example: {"query": "уборка & помещений", "regions": [16], "page": 0}.`,
		kind:  tenderbase.KindContract,
		flags: flagKinds{regions: true, laws: true},
		filters: []string{"regions", "laws", "price_min", "price_max", "published_from", "published_to", "okpd2",
			"customer_inn", "supplier_inn"},
		sorts: []tenderbase.Sort{tenderbase.SortPriceAsc, tenderbase.SortPriceDesc, tenderbase.SortRelevance},
	})
}

func (s *Set) contractsDetail() (*Tool, error) {
	return s.detailDefinition(detailTool{
		name:  "contracts.detail",
		title: "Contract details",
		description: "Get one concluded contract by its registry number, in its current version (additional agreements " +
			"raise the version): customer, suppliers, price, signing and performance dates, status, the objects bought with " +
			"quantities and prices, and the tender it came from. " +
			"Adds state, where the contract stands once the reports of its performance are applied (execution, completed, " +
			"terminated, annulled), state_from, the record that decided it, paid and payments, the sum and number of the " +
			"payments reported, and executions, the reports themselves (stages, payments, acceptances, termination) newest first. " +
			maskHelp + " Fails with not found for an unknown number. " +
			`Example: {"id": "3160130329823257539"}.`,
		idMeans: "The contract's registry number (reg_number), e.g. 3160130329823257539. Required.",
		kind:    tenderbase.KindContract,
		missing: s.contractMissing,
		extra:   s.contractDetailOf,
		output:  recordWith[contractDetail](tenderbase.KindContract, tenderbase.KindContractExecution),
	})
}
