package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/partial"
	"github.com/tenderbase/tenderbase/internal/thesaurus"
)

// partialHit is the summary of a partial match, for the page's text.
type partialHit struct {
	lacks []string
	hit   hit
}

// withLacks returns a record or summary, a JSON object, with the words
// its partial match lacks: a partial match reads as the items do, and
// says what it lacks.
func withLacks(item json.RawMessage, lacks []string) json.RawMessage {
	value, _ := json.Marshal(lacks) // strings always encode
	out := append(slices.Clip(item[:len(item)-1]), `,"lacks":`...)
	return append(append(out, value...), '}')
}

// lackingItems completes the schema s of a search page: a partial match is
// one of its items with the words it lacks.
func lackingItems(s *jsonschema.Schema) (json.RawMessage, error) {
	items, part := valueBranch(s.Properties["items"]), valueBranch(s.Properties["partial"])
	if items == nil || items.Items == nil || part == nil {
		return nil, fmt.Errorf("a search page without items or partial")
	}
	body, err := json.Marshal(items.Items)
	if err != nil {
		return nil, err
	}
	var item jsonschema.Schema
	if err := json.Unmarshal(body, &item); err != nil {
		return nil, err
	}
	item.Properties["lacks"] = &jsonschema.Schema{Type: "array", Items: &jsonschema.Schema{Type: "string"},
		Description: "The words of the query this record does not match."}
	item.Required = append(item.Required, "lacks")
	part.Items = &item
	return marshal(s)
}

// wantsPartial reports whether a search answered with res and the records
// recs goes on with partial matches, and how many: the first page of a
// strict set shorter than a page, when the caller did not turn them off.
func wantsPartial(req searchRequest, res searchResult, recs []tenderbase.Record) int {
	if req.exact || req.page != 0 || req.cursor != "" {
		return 0
	}
	if res.Total != len(recs) || res.RowCap > 0 {
		return 0
	}
	return res.PageSize - len(recs)
}

// partialMatches finds the partial matches of srch that follow the strict
// records recs (package partial). srch's query is written's as the
// thesaurus widened it, each word of the top level in its place, so that
// a match lacks the words as the caller wrote them, not their synonyms.
func (s *Set) partialMatches(ctx context.Context, srch tenderbase.Search, written tenderbase.Query, exps []thesaurus.Expansion, recs []tenderbase.Record, want int) ([]partial.Match, error) {
	if want <= 0 {
		return nil, nil
	}
	matches, err := partial.Find(ctx, s.counter(), srch, recs, want)
	if err != nil {
		return nil, err
	}
	relabel(matches, writtenLabels(srch.Query, written), exps)
	return matches, nil
}

// relabel writes the words each match lacks as the query wrote them: by
// asWritten, the written operand in each expanded one's place, or else
// without the alternatives exps added (unwidened).
func relabel(matches []partial.Match, asWritten map[string]string, exps []thesaurus.Expansion) {
	for i := range matches {
		for j, w := range matches[i].Lacks {
			if l, ok := asWritten[w]; ok {
				matches[i].Lacks[j] = l
			} else {
				matches[i].Lacks[j] = unwidened(w, exps)
			}
		}
	}
}

// unwidened returns the label of an operand a match lacks without the
// alternatives a widening added (exps' also), which the query did not
// write: "закупка | закупочный" is «закупка» as written. A label of
// nothing but added words stays whole.
func unwidened(label string, exps []thesaurus.Expansion) string {
	added := map[string]bool{}
	for _, e := range exps {
		for _, a := range e.Also {
			added[a] = true
		}
	}
	var kept []string
	for part := range strings.SplitSeq(label, " | ") {
		if !added[strings.Trim(part, "()")] {
			kept = append(kept, part)
		}
	}
	if len(kept) == 0 {
		return label
	}
	return strings.Join(kept, " | ")
}

// codedPartialMatches finds, when the page has room after recs and
// matches, the records coded in a class of exps that match most of the
// rest of the query but not all of it: `закупка лекарственных препаратов
// для онкологии` finds a contract of 2011 coded as drugs, for an oncology
// dispensary, that does not say «закупка». They lack the words of the rest
// they do not match; the class stands for the category's words. Only the
// first page has them, and a plan that does not search records by their
// classes has none.
func (s *Set) codedPartialMatches(ctx context.Context, req searchRequest, srch tenderbase.Search, res searchResult, exps []thesaurus.Expansion, recs []tenderbase.Record, matches []partial.Match, c caller) ([]partial.Match, error) {
	if req.exact || req.page != 0 || req.cursor != "" || res.NextCursor != "" || res.RowCap > 0 {
		return matches, nil
	}
	want := srch.Size() - len(recs) - len(matches)
	if want <= 0 {
		return matches, nil
	}
	held := slices.Clone(recs)
	for _, m := range matches {
		held = append(held, m.Record)
	}
	classes := 0
	for _, e := range exps {
		if _, ok := e.Rest.(tenderbase.AndQuery); !ok {
			continue
		}
		for _, cl := range e.Classes {
			if classes++; classes > maxCodedClasses || want <= 0 {
				return matches, nil
			}
			in, ok := classSearch(srch, cl.Lookup(), c)
			if !ok {
				return matches, nil
			}
			in.Query = e.Rest
			found, err := partial.Find(ctx, s.counter(), in, held, want)
			if err != nil {
				return nil, err
			}
			relabel(found, nil, exps)
			for _, m := range found {
				held = append(held, m.Record)
			}
			matches, want = append(matches, found...), want-len(found)
		}
	}
	return matches, nil
}

// writtenLabels maps the label of each operand of the expanded query's top
// level to that of the written operand in its place, where expansion kept
// the top level as it was.
func writtenLabels(expanded, written tenderbase.Query) map[string]string {
	e, ok1 := expanded.(tenderbase.AndQuery)
	w, ok2 := written.(tenderbase.AndQuery)
	if !ok1 || !ok2 || len(e.Operands) != len(w.Operands) {
		return nil
	}
	labels := map[string]string{}
	for i := range e.Operands {
		labels[partial.Label(e.Operands[i])] = partial.Label(w.Operands[i])
	}
	return labels
}

// records returns the records of matches.
func matchRecords(matches []partial.Match) []tenderbase.Record {
	out := make([]tenderbase.Record, len(matches))
	for i, m := range matches {
		out[i] = m.Record
	}
	return out
}

// lacking lists the words the partial matches lack, each once, in the
// order they first appear.
func lacking(items []partialHit) []string {
	var words []string
	seen := map[string]bool{}
	for _, it := range items {
		for _, w := range it.lacks {
			if !seen[w] {
				seen[w] = true
				words = append(words, w)
			}
		}
	}
	return words
}

// writePartial writes the partial matches of a page after its strict
// records, numbered on from them.
func (p summaryPage) writePartial(b *strings.Builder) {
	if len(p.partial) == 0 {
		return
	}
	quoted := make([]string, 0, len(p.partial))
	for _, w := range lacking(p.partial) {
		quoted = append(quoted, tenderbase.Quote(w))
	}
	lead := "These have most of the query's weight but not every word"
	if p.Total == 0 {
		lead = "No record has every word; these have most of the query's weight"
	}
	fmt.Fprintf(b, "%s, rare words weighing more, and lack %s (partial matches, not in the total):\n", lead, strings.Join(quoted, ", "))
	for i, it := range p.partial {
		e := it.hit.entry()
		fmt.Fprintf(b, "%d. %s\n", len(p.Items)+1+i, strings.Join(facts(e.id, e.title), " · "))
		line := append([]string{"lacks " + strings.Join(it.lacks, ", ")}, e.about...)
		fmt.Fprintf(b, "   %s\n", strings.Join(append(line, e.facts...), "; "))
	}
	b.WriteString("Only records with every word: \"exact\": true.\n")
}
