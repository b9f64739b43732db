package tools

import (
	"context"
	"fmt"
	"strings"

	"github.com/tenderbase/tenderbase"
)

func (s *Set) torgiSearch() (*Tool, error) {
	return searchDefinition[searchArgs](s, searchTool{
		name:  "torgi.search",
		title: "Search property auctions",
		description: "Search lots of state, municipal and bankrupts' property auctions (torgi.gov.ru, fedresurs) by words in " +
			"number, title, description, category, address, organizer and debtor. Next: torgi.detail by id." + " " + `Example: {"query": "станки", "regions": [74]}.`,
		kind:    tenderbase.KindLot,
		flags:   flagKinds{regions: true},
		filters: []string{"regions", "price_min", "price_max", "published_from", "published_to", "deadline_from", "deadline_to", "open"},
		sorts:   []tenderbase.Sort{tenderbase.SortDeadline, tenderbase.SortPriceAsc, tenderbase.SortPriceDesc, tenderbase.SortRelevance},
	})
}

func (s *Set) torgiDetail() (*Tool, error) {
	return s.detailDefinition(detailTool{
		name:  "torgi.detail",
		title: "Auction lot details",
		description: "One auction lot: what is sold, bidding type and form, status, prices, deposit, step, reductions, organizer, " +
			"debtor, manager, files, dates, result.",
		idMeans: "The id torgi.search gives: <notice>_<lot> (torgi.gov.ru) or efrsb-<message>_<lot> (fedresurs).",
		kind:    tenderbase.KindLot,
		missing: s.missingLot,
	})
}

// missingLot says that no lot has the id. Callers often give the notice
// number instead of a lot's id; then it names the lots of that notice.
func (s *Set) missingLot(ctx context.Context, id string) error {
	page, err := s.store.Search(ctx, lookup(tenderbase.KindLot, tenderbase.LookupNoticeNumber, id, 0))
	if err != nil {
		return fmt.Errorf("lots of notice %s: %w", id, err)
	}
	if page.Total == 0 {
		return notFound("no lot with id %s; find lots with torgi.search", tenderbase.Quote(id))
	}
	ids := make([]string, len(page.Items))
	for i, r := range page.Items {
		ids[i] = r.Key()
	}
	return notFound("no lot with id %s, but notice %s has %d lot(s): %s; give one of their ids", tenderbase.Quote(id), id, page.Total, strings.Join(ids, ", "))
}
