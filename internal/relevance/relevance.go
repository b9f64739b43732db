// Package relevance measures how well search finds what people mean: a
// judged set of queries, each listing every record a user would want on the
// first page of its answer, and the figures of the answers against it
// (macro recall, answers that show nothing, precision of what is shown).
//
// The set is a JSON file (testdata/judged.json); the test of this package
// imports the real EIS files of ../shared/data into each store and asks the
// MCP search tools, as an agent does.
package relevance

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/tenderbase/tenderbase"
)

// Set is a judged set of queries.
type Set struct {
	// About says what the set is drawn from and how it was judged.
	About   string     `json:"about"`
	Queries []Judgment `json:"queries"`
}

// Judgment is one query and the records a user who types it wants.
type Judgment struct {
	// Tool is the MCP search tool the query is typed into: ru.search,
	// contracts.search, docs.search...
	Tool  string `json:"tool"`
	Query string `json:"query"`
	// Kind says what the query tries (derivation, synonym, typo...), to
	// group the figures.
	Kind string `json:"kind"`
	// Relevant maps the key of each record wanted to why it is; a record
	// not here is not wanted. Empty: nothing stored is wanted.
	Relevant map[string]string `json:"relevant"`
	// Note says why a record that might look wanted is not, or where the
	// words of a wanted one are.
	Note string `json:"note,omitempty"`
}

// Load reads a set, refusing fields it does not know and judgments
// without a tool, a query, a kind or a reason for each record wanted.
func Load(r io.Reader) (Set, error) {
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	var s Set
	if err := dec.Decode(&s); err != nil {
		return Set{}, fmt.Errorf("read the judged set: %w", err)
	}
	for i, j := range s.Queries {
		if j.Tool == "" || strings.TrimSpace(j.Query) == "" || j.Kind == "" {
			return Set{}, fmt.Errorf("judged query %d (%q) lacks its tool, query or kind", i+1, j.Query)
		}
		for key, why := range j.Relevant {
			if strings.TrimSpace(why) == "" {
				return Set{}, fmt.Errorf("judged query %d (%q): record %s has no reason", i+1, j.Query, key)
			}
		}
	}
	return s, nil
}

// Result is a judged query and what the first page of its answer showed.
type Result struct {
	Judgment
	// Shown are the keys of the records the page showed, in its order.
	Shown []string
}

// Wanted returns how many records the page can hold at most of those
// wanted: all of them, or a page's worth.
func (r Result) Wanted() int { return min(len(r.Relevant), tenderbase.DefaultPageSize) }

// Found returns the records wanted that the page showed.
func (r Result) Found() []string { return r.split(true) }

// Unwanted returns the records the page showed that are not wanted.
func (r Result) Unwanted() []string { return r.split(false) }

func (r Result) split(wanted bool) []string {
	var out []string
	for _, key := range r.Shown {
		if _, ok := r.Relevant[key]; ok == wanted {
			out = append(out, key)
		}
	}
	return out
}

// Missing returns the records wanted that the page did not show, in the
// order of their keys.
func (r Result) Missing() []string {
	var out []string
	for key := range r.Relevant {
		if !slices.Contains(r.Shown, key) {
			out = append(out, key)
		}
	}
	slices.Sort(out)
	return out
}

// Recall returns the share of the records wanted that the page showed,
// of at most a page's worth; 1 for a query that wants nothing.
func (r Result) Recall() float64 {
	if r.Wanted() == 0 {
		return 1
	}
	return float64(min(len(r.Found()), r.Wanted())) / float64(r.Wanted())
}

// Figures are the measures of a set of results.
type Figures struct {
	Queries int // every query
	Judged  int // the queries that want a record
	// Recall is the mean of Result.Recall over the queries that want a
	// record (macro recall).
	Recall float64
	// Empty are the queries that want a record and whose page showed
	// nothing; Missed those whose page showed none of what they want,
	// Empty among them.
	Empty, Missed []Result
	// Shown counts the records the pages showed, Right those of them
	// wanted; Precision is their ratio over every page (1 when nothing
	// was shown), MacroPrecision its mean over the pages that showed a
	// record.
	Shown, Right              int
	Precision, MacroPrecision float64
}

// Measure returns the figures of results.
func Measure(results []Result) Figures {
	f := Figures{Queries: len(results)}
	var recall, precision float64
	pages := 0
	for _, r := range results {
		right := len(r.Found())
		f.Shown += len(r.Shown)
		f.Right += right
		if len(r.Shown) > 0 {
			pages++
			precision += float64(right) / float64(len(r.Shown))
		}
		if len(r.Relevant) == 0 {
			continue
		}
		f.Judged++
		recall += r.Recall()
		if right == 0 {
			f.Missed = append(f.Missed, r)
			if len(r.Shown) == 0 {
				f.Empty = append(f.Empty, r)
			}
		}
	}
	f.Recall, f.Precision, f.MacroPrecision = ratio(recall, f.Judged), ratio(float64(f.Right), f.Shown), ratio(precision, pages)
	return f
}

// ratio returns a/b, or 1 when b is 0: nothing to find is all found.
func ratio(a float64, b int) float64 {
	if b == 0 {
		return 1
	}
	return a / float64(b)
}

// ShownKeys returns the keys of the records a search tool's summary page
// (tools.Output.Summary) shows: the ids of its items, then those of any
// other list of records beside them, each once, so that records an answer
// adds after its items (partial matches, say) count as shown too.
func ShownKeys(summary json.RawMessage) ([]string, error) {
	var page map[string]json.RawMessage
	if err := json.Unmarshal(summary, &page); err != nil {
		return nil, fmt.Errorf("read a search's summary page: %w", err)
	}
	names := make([]string, 0, len(page))
	for name := range page {
		if name != "items" {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	var keys []string
	seen := map[string]bool{}
	for _, name := range append([]string{"items"}, names...) {
		raw := bytes.TrimSpace(page[name])
		if len(raw) == 0 || raw[0] != '[' {
			continue
		}
		var list []struct {
			ID string `json:"id"`
		}
		if json.Unmarshal(raw, &list) != nil {
			continue // a list of something else than records
		}
		for _, item := range list {
			if item.ID != "" && !seen[item.ID] {
				seen[item.ID] = true
				keys = append(keys, item.ID)
			}
		}
	}
	return keys, nil
}
