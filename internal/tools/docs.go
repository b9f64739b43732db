package tools

import (
	"unicode/utf8"

	"github.com/tenderbase/tenderbase"
)

func (s *Set) docsSearch() (*Tool, error) {
	return searchDefinition[searchArgs](s, searchTool{
		name:  "docs.search",
		title: "Search procurement documentation",
		description: "Search the files of Russian tenders (specifications, draft contracts...) by words in name, description, text " +
			"and the tender's number, title and customer. text (160 characters near the words) and url need a paid plan. " +
			"Next: ru.detail by purchase_number." + " " + `Example: {"query": "\"техническое задание\" картриджей"}.`,
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
