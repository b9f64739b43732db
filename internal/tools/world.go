package tools

import (
	"context"

	"github.com/tenderbase/tenderbase"
)

func (s *Set) worldSearch() (*Tool, error) {
	return searchDefinition[searchArgs](s, searchTool{
		name:  "world.search",
		title: "Search world tenders",
		description: "Notices outside Russia (TED, eForms, OCDS): words of title, description, buyer, CPV, winners, in " +
			"its language, any form. Next: world.detail." + " " + `Example: {"query": "Schulverpflegung", "countries": [276]}.`,
		kind:    tenderbase.KindWorldTender,
		flags:   flagKinds{countries: true},
		filters: []string{"countries", "published_from", "published_to", "deadline_from", "deadline_to", "open", "cpv", "winner_id"},
		sorts:   []tenderbase.Sort{tenderbase.SortDeadline, tenderbase.SortRelevance},
	})
}

func (s *Set) worldDetail() (*Tool, error) {
	return s.detailDefinition(detailTool{
		name:  "world.detail",
		title: "World tender details",
		description: "One notice from outside Russia: title, description, buyer, value, CPV codes, dates, language, procedure, " +
			"lots, awards, documents and url.",
		idMeans: "The id world.search gives, e.g. ted:800461-2024.",
		kind:    tenderbase.KindWorldTender,
		missing: func(_ context.Context, id string) error {
			return notFound("no world tender with id %s; ids are qualified by their source (ted:800461-2024); find them with world.search", tenderbase.Quote(id))
		},
	})
}
