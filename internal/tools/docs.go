package tools

import "github.com/tenderbase/tenderbase"

func (s *Set) docsSearch() (*Tool, error) {
	return searchDefinition[searchArgs](s, searchTool{
		name:  "docs.search",
		title: "Search procurement documentation",
		description: "Search the files published with Russian tenders (technical specifications, draft contracts, " +
			"price justifications, application requirements) by words in the file name, its description, the text " +
			"extracted from it (paid plans only: a free query does not match it), and the tender's purchase number, title and customer. " +
			queryHelp + " " + pagingHelp() + " " +
			"Arguments: query (required); regions, region codes to search in; filters, raw flags such as {\"r77\": 1}; page. " +
			"Returns {total, page, page_size, items}: items are documents with id, purchase_number, tender_title, customer, " +
			"file_name, description, url, text. The url and text need a paid plan. " + maskHelp + " " +
			`Example: {"query": "\"техническое задание\" & картриджей", "regions": [66]}.`,
		kind:  tenderbase.KindDoc,
		flags: flagKinds{regions: true},
	})
}
