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
		description: "Search lots of auctions of state and municipal property and of bankrupts' assets (torgi.gov.ru, " +
			"fedresurs) by words in the notice number, title, description, category, address of the property, organizer name and INN, and the debtor's name and INN. " +
			queryHelp + " " + pagingHelp() + " " +
			"Arguments, all optional (without a query it lists the newest lots the filters admit): query; regions; " +
			"price_min and price_max, the starting price in roubles; published_from, published_to, deadline_from, deadline_to " +
			"(the end of applications), days as 2026-12-01; open: true for lots that take applications now; " +
			"sort: newest (default), deadline, price_asc, price_desc, relevance; filters, the same as flags such as {\"r74\": 1}; page, or cursor (the next_cursor of the page before, quicker for deep pages). " +
			"Returns {total, page, page_size, pages, items, next_cursor}: items are lots in brief, with id, title, organizer (or the right " +
			"holder, or the arbitration manager), debtor (bankruptcy trades), region, price (the start price) and currency, " +
			"state (active, completed, failed, cancelled), published, deadline (when applications close) and url; torgi.detail " +
			"gives the terms, the schedule and the result. " + summaryHelp + " " +
			`Example: {"query": "оборудование | станки", "regions": [74]}.`,
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
		description: "Get one auction lot by its id as torgi.search gives it (torgi.gov.ru ids are <notice number>_<lot number>, " +
			"fedresurs ids efrsb-<number of the auction message>_<lot number>): " +
			"what is sold and where, its characteristics (properties), category, bidding type and form, status, start price, deposit and step, " +
			"price reduction schedule, organizer, right holder, debtor, arbitration manager and bankruptcy case, platform, files, " +
			"application and auction dates, the result (sold with winner and price, failed with the reason, cancelled), and the link. " +
			"Fails with not found for an unknown id, " +
			"naming the lots of the notice when the id is a notice number. " +
			`Example: {"id": "efrsb-17423037_1"}.`,
		idMeans: "The lot's id as torgi.search gives it, e.g. 22300326331575720204_1 (torgi.gov.ru notice 22300326331575720204, lot 1) or efrsb-17423037_1 (lot 1 of fedresurs auction message 17423037). Required.",
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
