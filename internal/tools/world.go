package tools

import (
	"context"

	"github.com/tenderbase/tenderbase"
)

func (s *Set) worldSearch() (*Tool, error) {
	return searchDefinition[searchArgs](s, searchTool{
		name:  "world.search",
		title: "Search world tenders",
		description: "Search procurement notices from outside Russia (TED, eForms and OCDS publishers) by words in the title, " +
			"description, buyer name and CPV codes; notices are in their own language, so search in it (German, French...). " +
			queryHelp + " " + pagingHelp() + " " +
			"Arguments, all optional (without a query it lists the newest notices the filters admit): query; " +
			"countries, ISO 3166 numeric codes such as [276] (Germany), [250] (France), [40] (Austria); published_from, published_to, " +
			"deadline_from, deadline_to, days as 2026-12-01; open: true for notices whose deadline is ahead; cpv, a CPV code or its " +
			"beginning such as 45 (construction work); sort: newest (default), deadline, relevance; " +
			"filters, the same as flags such as {\"cr276\": 1}; page, or cursor (the next_cursor of the page before, quicker for deep pages). " +
			"Returns {total, page, page_size, pages, items, next_cursor}: items are notices in brief, with id, title, buyer, country, price " +
			"(the estimated value) and currency, published, deadline and url; world.detail gives the description, CPV codes, " +
			"lots and documents. " + summaryHelp + " Each notice is analysed in its own language " +
			"(its language field): English, German, French, Spanish, Italian, Portuguese, Dutch, Danish, Swedish, Norwegian, " +
			"Finnish, Hungarian, Romanian, Irish and Turkish words are found in any form (Snowball stems), words of other " +
			"languages (Polish, Czech, Greek...) only as written, and Russian words in any form in every notice; case and " +
			"diacritics never matter (Škoda = skoda, Straße = strasse, Łódź = lodz), so a word typed without them finds it. " +
			`Example: {"query": "Schulverpflegung | school meals", "countries": [40, 276]}.`,
		kind:    tenderbase.KindWorldTender,
		flags:   flagKinds{countries: true},
		filters: []string{"countries", "published_from", "published_to", "deadline_from", "deadline_to", "open", "cpv"},
		sorts:   []tenderbase.Sort{tenderbase.SortDeadline, tenderbase.SortRelevance},
	})
}

func (s *Set) worldDetail() (*Tool, error) {
	return s.detailDefinition(detailTool{
		name:  "world.detail",
		title: "World tender details",
		description: "Get one procurement notice from outside Russia by its id as world.search gives it: title, description, " +
			"buyer (name, national id as reg_num, address), estimated value, CPV codes, publication date, deadline, language, " +
			"the link to the notice, the kind of notice and procedure, lots (id, title, description, CPV codes, value) and the " +
			"addresses of the procurement documents; updated is the date of the newest OCDS release merged. " +
			"Fails with not found for an unknown id. " +
			`Example: {"id": "ted:800461-2024"}.`,
		idMeans: "The notice's id as world.search gives it, qualified by its source: ted:800461-2024. Required.",
		kind:    tenderbase.KindWorldTender,
		missing: func(_ context.Context, id string) error {
			return notFound("no world tender with id %s; ids are qualified by their source (ted:800461-2024); find them with world.search", tenderbase.Quote(id))
		},
	})
}
