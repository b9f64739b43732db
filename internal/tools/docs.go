package tools

import (
	"unicode/utf8"

	"github.com/tenderbase/tenderbase"
)

func (s *Set) docsSearch() (*Tool, error) {
	return searchDefinition[searchArgs](s, searchTool{
		name:  "docs.search",
		title: "Search procurement documentation",
		description: "Search the files published with Russian tenders (technical specifications, draft contracts, " +
			"price justifications, application requirements) by words in the file name, its description, the text " +
			"extracted from it (paid plans only: a free query does not match it), and the tender's purchase number, title and customer. " +
			queryHelp + " " + pagingHelp() + " " +
			"Arguments, all optional (without a query it lists the newest documents the filters admit): query; regions; " +
			"published_from and published_to, days as 2026-12-01; customer_inn; sort: newest (default) or relevance; " +
			"filters, the same as flags such as {\"r77\": 1}; page, or cursor (the next_cursor of the page before, quicker for deep pages). " +
			"Returns {total, page, page_size, pages, items, next_cursor}: items are documents in brief, with id, purchase_number (of the tender, " +
			"which ru.detail shows with all its files), title (the tender's), file_name, description, customer, region, published, " +
			"url and text. The url and text need a paid plan; text is the start of the text read from the file, where the query's " +
			"words were found or near them, cut at 160 characters. " + summaryHelp + " " +
			`Example: {"query": "\"техническое задание\" & картриджей", "regions": [66]}.`,
		kind:    tenderbase.KindDoc,
		flags:   flagKinds{regions: true},
		filters: []string{"regions", "published_from", "published_to", "customer_inn"},
		sorts:   []tenderbase.Sort{tenderbase.SortRelevance},
	})
}

// docPreviewRunes is how much of a file's text a search shows of each doc:
// a file's text runs to megabytes, and a page of them would fill any
// client's context. The whole text is searched all the same.
const docPreviewRunes = 500

// docPreviews returns recs with the text of each doc cut to its start.
func docPreviews(recs []tenderbase.Record) []tenderbase.Record {
	out := make([]tenderbase.Record, len(recs))
	for i, r := range recs {
		out[i] = r
		d, ok := r.(*tenderbase.Doc)
		if !ok || utf8.RuneCountInString(d.Text) <= docPreviewRunes {
			continue
		}
		cut := *d
		runes := []rune(d.Text)[:docPreviewRunes]
		cut.Text = string(runes) + "…"
		out[i] = &cut
	}
	return out
}
