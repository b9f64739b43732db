package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/partial"
	"github.com/tenderbase/tenderbase/internal/spelling"
)

// searchResult is the whole page of a search: what the debug endpoint of
// every search tool answers (Output.Value).
type searchResult struct {
	Total      int                   `json:"total" jsonschema:"The exact number of matching records, also those past the plan's row cap. A plan that does not show a field does not match its words, nor count the records only they would find."`
	Page       int                   `json:"page" jsonschema:"This page, from 0."`
	PageSize   int                   `json:"page_size" jsonschema:"Records a page: 20."`
	RowCap     int                   `json:"row_cap,omitempty" jsonschema:"Present when the plan shows only the first row_cap records of this search."`
	Notice     string                `json:"notice,omitempty" jsonschema:"Why this page holds fewer records than it would without the plan's row cap."`
	Hints      []string              `json:"hints,omitempty" jsonschema:"How the query was read where another search engine would read it otherwise: OR, AND, NOT in capitals and -word taken as operators, word* taken as the word. Read them when a search finds less than expected."`
	Corrected  []spelling.Correction `json:"corrected,omitempty" jsonschema:"Words of the query that no record holds, and the known word searched for in the place of each: the query as written found nothing. exact: true searches as written."`
	Expansions []expansion           `json:"expansions,omitempty" jsonschema:"How the query was widened: each entry's words also matched its synonyms or word family, and the records coded in its OKPD2 and OKDP classes follow the word matches. exact: true turns it off."`
	Items      []json.RawMessage     `json:"items" jsonschema:"The records of this page, in the order of the search: newest first unless sort names another. Fields the plan does not show are null."`
	NextCursor string                `json:"next_cursor,omitempty" jsonschema:"The cursor of the next page: the same call with it as cursor reads that page as quickly as the first. Absent on the last page the plan reaches."`
	Partial    []json.RawMessage     `json:"partial,omitempty" jsonschema:"When the first page holds fewer records than a page: records that match most of the query but not every word, ranked by the weight of the words they match (rare words weigh more), each an item with lacks, the words it does not match. Not counted in total."`
	// Sort is the order of Items; empty is newest first. Only the text of
	// the page says it.
	Sort tenderbase.Sort `json:"-"`
}

// summaryPage is a page of a search as MCP answers it (Output.Summary):
// the records summed up, so that a page fits a model's context.
type summaryPage struct {
	Total      int                   `json:"total" jsonschema:"The exact number of matching records, also those past the plan's row cap. A plan that does not show a field does not match its words, nor count the records only they would find."`
	Page       int                   `json:"page" jsonschema:"This page, from 0."`
	PageSize   int                   `json:"page_size" jsonschema:"Records a page: 20."`
	Pages      int                   `json:"pages" jsonschema:"How many pages the plan reaches: page runs from 0 to pages - 1."`
	RowCap     int                   `json:"row_cap,omitempty" jsonschema:"Present when the plan shows only the first row_cap records of this search."`
	Notice     string                `json:"notice,omitempty" jsonschema:"Why this page holds fewer records than it would without the plan's row cap."`
	Hints      []string              `json:"hints,omitempty" jsonschema:"How the query was read where another search engine would read it otherwise: OR, AND, NOT in capitals and -word taken as operators, word* taken as the word. Read them when a search finds less than expected."`
	Corrected  []spelling.Correction `json:"corrected,omitempty" jsonschema:"Words of the query that no record holds, and the known word searched for in the place of each: the query as written found nothing. exact: true searches as written."`
	Expansions []expansion           `json:"expansions,omitempty" jsonschema:"How the query was widened: each entry's words also matched its synonyms or word family, and the records coded in its OKPD2 and OKDP classes follow the word matches. exact: true turns it off."`
	Hidden     []string              `json:"hidden,omitempty" jsonschema:"Fields of these records that the plan does not show: the summaries leave them out, and the detail tools show them as null."`
	Items      []hit                 `json:"items" jsonschema:"A summary of each record of this page, in the order of the search: the id to open it by and what tells it apart. The detail tool shows it whole."`
	NextCursor string                `json:"next_cursor,omitempty" jsonschema:"The cursor of the next page: the same call with it as cursor reads that page as quickly as the first. Absent on the last page the plan reaches."`
	Partial    []json.RawMessage     `json:"partial,omitempty" jsonschema:"When the first page holds fewer records than a page: records that match most of the query but not every word, ranked by the weight of the words they match (rare words weigh more), each an item with lacks, the words it does not match. Not counted in total."`
	// partial are the partial matches' summaries, for the text.
	partial []partialHit
}

// answer turns one page of a search into the tool's output: for the debug
// endpoint the records masked for the caller's plan, tenders with their
// derived state; for MCP a summary of each and the page as text.
func (s *Set) answer(ctx context.Context, t searchTool, res searchResult, recs []tenderbase.Record, matches []partial.Match, c caller) (Output, error) {
	// The partial matches go the strict records' way, after them; strict
	// is where they part.
	strict := len(recs)
	recs = docPreviews(append(recs[:strict:strict], matchRecords(matches)...))
	form := formOf(ctx)
	var standings []tenderbase.TenderStanding
	var err error
	if t.kind == tenderbase.KindTender {
		if standings, err = s.tenderStandings(ctx, recs); err != nil {
			return Output{}, err
		}
	}
	hidden := restricted{}
	var bodies []json.RawMessage
	// The whole records are masked for the debug endpoint, and for a
	// summary of a plan that hides fields of them.
	if form != BriefForm || len(tenderbase.HiddenFields(t.kind, c.plan)) > 0 {
		if bodies, err = hidden.maskAll(recs, c.plan); err != nil {
			return Output{}, err
		}
	}
	out := Output{Restricted: hidden.list()}
	if form != BriefForm {
		items := make([]json.RawMessage, len(bodies))
		for i, body := range bodies {
			items[i] = body
			if standings != nil {
				items[i] = withState(body, standings[i].State)
			}
		}
		res.Items = items[:strict]
		for i, m := range matches {
			res.Partial = append(res.Partial, withLacks(items[strict+i], m.Lacks))
		}
		if out, err = output(res, hidden); err != nil {
			return Output{}, err
		}
	}
	if form == WholeForm {
		return out, nil
	}
	shown, err := shownAs(t.kind, recs, bodies, c.plan)
	if err != nil {
		return Output{}, err
	}
	page := summaryPage{Total: res.Total, Page: res.Page, PageSize: res.PageSize, Pages: pages(res),
		RowCap: res.RowCap, Notice: res.Notice, Hints: res.Hints, Corrected: res.Corrected, Expansions: res.Expansions, Hidden: out.Restricted, NextCursor: res.NextCursor}
	all, err := hits(shown, standings)
	if err != nil {
		return Output{}, err
	}
	page.Items = all[:strict]
	for i, m := range matches {
		h := partialHit{lacks: m.Lacks, hit: all[strict+i]}
		body, err := marshal(h.hit)
		if err != nil {
			return Output{}, fmt.Errorf("encode search summary: %w", err)
		}
		page.partial, page.Partial = append(page.partial, h), append(page.Partial, withLacks(body, m.Lacks))
	}
	if out.Summary, err = marshal(page); err != nil {
		return Output{}, fmt.Errorf("encode search summary: %w", err)
	}
	out.Text = page.text(t, res.Sort, c.plan)
	return out, nil
}

// Form is what a caller reads of a search's answer (Output): both forms
// unless it says otherwise with WithForm.
type Form int

const (
	// BothForms is the whole records (Value) and their summaries (Summary
	// and Text).
	BothForms Form = iota
	// WholeForm is the whole records alone, as the debug endpoints answer.
	WholeForm
	// BriefForm is the summaries alone, as MCP answers; Value is then
	// empty.
	BriefForm
)

type formKey struct{}

// WithForm returns ctx in which the search tools make form f of their
// answers: a caller that reads one form spares the work of the other,
// about a quarter of a search page's cost.
func WithForm(ctx context.Context, f Form) context.Context {
	return context.WithValue(ctx, formKey{}, f)
}

func formOf(ctx context.Context) Form {
	f, _ := ctx.Value(formKey{}).(Form)
	return f
}

// pages returns how many pages of res the plan reaches.
func pages(res searchResult) int {
	reach := res.Total
	if res.RowCap > 0 {
		reach = min(reach, res.RowCap)
	}
	if res.PageSize <= 0 {
		return 0
	}
	return (reach + res.PageSize - 1) / res.PageSize
}

// shownAs returns recs as plan p shows them, bodies being their masked
// JSON: the summaries are made from them, so that no field the plan hides
// can reach a summary. A plan that hides no field of the kind sees the
// records themselves, which are not decoded again: reading back 20 whole
// records was two fifths of a search page's own cost.
func shownAs(k tenderbase.Kind, recs []tenderbase.Record, bodies []json.RawMessage, p tenderbase.Plan) ([]tenderbase.Record, error) {
	if len(tenderbase.HiddenFields(k, p)) == 0 {
		return recs, nil
	}
	return decodeAll(k, bodies)
}

// decodeAll decodes the canonical JSON of records of kind k.
func decodeAll(k tenderbase.Kind, bodies []json.RawMessage) ([]tenderbase.Record, error) {
	out := make([]tenderbase.Record, len(bodies))
	for i, body := range bodies {
		rec, err := tenderbase.DecodeRecord(k, body)
		if err != nil {
			return nil, fmt.Errorf("read back masked %s: %w", k, err)
		}
		out[i] = rec
	}
	return out, nil
}

// hitTypes are the summary types of the kinds a search tool returns.
var hitTypes = map[tenderbase.Kind]reflect.Type{
	tenderbase.KindTender:          reflect.TypeFor[tenderHit](),
	tenderbase.KindDoc:             reflect.TypeFor[docHit](),
	tenderbase.KindContract:        reflect.TypeFor[contractHit](),
	tenderbase.KindWorldTender:     reflect.TypeFor[worldHit](),
	tenderbase.KindLot:             reflect.TypeFor[lotHit](),
	tenderbase.KindUnfairSupplier:  reflect.TypeFor[rnpHit](),
	tenderbase.KindPlannedPurchase: reflect.TypeFor[planHit](),
}

// searchOutput returns the output schema of a search tool over records of
// kind k: its page of summaries, which MCP answers as structured content
// (Output.Summary).
func searchOutput(k tenderbase.Kind) outputSchema {
	return func() (json.RawMessage, error) {
		typ, ok := hitTypes[k]
		if !ok {
			return nil, fmt.Errorf("no summary of %s records", k)
		}
		item, err := jsonschema.ForType(typ, nil)
		if err != nil {
			return nil, err
		}
		omitNulls(item, typ)
		if k == tenderbase.KindTender {
			item.Properties["state"] = stateSchema()
		}
		s, err := jsonschema.For[summaryPage](&jsonschema.ForOptions{TypeSchemas: map[reflect.Type]*jsonschema.Schema{reflect.TypeFor[hit](): item}})
		if err != nil {
			return nil, err
		}
		omitNulls(s, reflect.TypeFor[summaryPage]())
		// A page without records holds [], never null.
		items := s.Properties["items"]
		items.Types = slices.DeleteFunc(items.Types, func(t string) bool { return t == "null" })
		oneType(s, true)
		return lackingItems(s)
	}
}

// recordsOutput returns the schema of the whole page of a search tool over
// records of kind k, which its debug endpoint answers (Output.Value).
func recordsOutput(k tenderbase.Kind) outputSchema {
	out := outputOf[searchResult](k)
	if k == tenderbase.KindTender {
		out = withStates(out)
	}
	// A partial match is an item with the words it lacks.
	return amended(out, lackingItems)
}
