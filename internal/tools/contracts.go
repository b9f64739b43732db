package tools

import (
	"github.com/tenderbase/tenderbase"
)

func (s *Set) contractsSearch() (*Tool, error) {
	return searchDefinition[searchArgs](s, searchTool{
		name:  "contracts.search",
		title: "Search contracts",
		description: "Search concluded Russian contracts (44-FZ, 223-FZ registry) by words in numbers, subject, customer, suppliers " +
			"(paid plans) and objects. state: execution, completed, terminated, annulled. Next: contracts.detail by id." + " " + `Example: {"query": "уборка помещений", "regions": [16]}.`,
		kind:  tenderbase.KindContract,
		flags: flagKinds{regions: true, laws: true},
		filters: []string{"regions", "laws", "price_min", "price_max", "published_from", "published_to", "ends_from", "ends_to",
			"okpd2", "customer_inn", "supplier_inn"},
		sorts: []tenderbase.Sort{tenderbase.SortPriceAsc, tenderbase.SortPriceDesc, tenderbase.SortEnds, tenderbase.SortRelevance},
	})
}

func (s *Set) contractsDetail() (*Tool, error) {
	return s.detailDefinition(detailTool{
		name:  "contracts.detail",
		title: "Contract details",
		description: "One contract, current version: customer, suppliers, price, dates, objects, tender; state from its performance " +
			"reports, paid, payments, executions newest first; customer_org and supplier_orgs on guru and corporate.",
		idMeans: "Registry number (reg_number), e.g. 3160130329823257539.",
		kind:    tenderbase.KindContract,
		missing: s.contractMissing,
		extra:   s.contractDetailOf,
		output:  recordWith[contractDetail](tenderbase.KindContract, tenderbase.KindContractExecution),
	})
}
