package benchcorpus

import (
	"cmp"
	"math"
	"slices"
	"strings"

	"github.com/tenderbase/tenderbase/internal/textproc"
)

// Class is a kind of search the benchmark times, with several queries of
// its kind over different words, so that rounds do not repeat one query.
type Class struct {
	Name    string  `json:"name"`
	About   string  `json:"about"`
	Queries []Query `json:"queries"`
}

// Query is one search of a class: a query of the query language
// (docs/query-language.md), a region and a page, and what it means, for a
// baseline that speaks another language.
type Query struct {
	// Text is the query as the search tools take it.
	Text string `json:"text"`
	// Words are the words to find, in order: all of them, or side by side
	// when Phrase.
	Words  []string `json:"words"`
	Phrase bool     `json:"phrase,omitempty"`
	// Not is a word that must be absent.
	Not    string `json:"not,omitempty"`
	Region int    `json:"region,omitempty"`
	// Law is a law (44 or 223) the records must fall under, 0 for any.
	Law int `json:"law,omitempty"`
	// By, of an aggregate, is the grouping analytics.aggregate is asked
	// for (tenderbase.Dimension); "" for a search.
	By string `json:"by,omitempty"`
	// Page is the page asked, from 0, of 20 tenders.
	Page int `json:"page,omitempty"`
	// Sort is the order asked of the search tool, "" for its own
	// (newest first).
	Sort string `json:"sort,omitempty"`
	// ByCursor asks for the page by the cursor the page before it gave
	// rather than by its number; Cursor is that cursor, which the bench
	// reads before it times the query.
	ByCursor bool   `json:"by_cursor,omitempty"`
	Cursor   string `json:"-"`
	// Hits is the number of tenders of the corpus the query matches, by
	// the reference matcher of internal/query; -1 when not counted.
	Hits int `json:"hits"`
	// Share is Hits over the tenders of the corpus.
	Share float64 `json:"share"`
}

// band is a share of the tenders that a class's words aim at, and the
// bounds around it that count as in the band.
type band struct{ target, low, high float64 }

// The bands of the classes of one word or one phrase.
var (
	commonBand = band{0.55, 0.40, 0.70}
	midBand    = band{0.01, 0.005, 0.02}
	rareBand   = band{0.0001, 0.00005, 0.0002}
	phraseBand = band{0.01, 0.005, 0.02}
)

// perClass is the number of queries of a class.
const perClass = 8

// queryRegion is the region of the class "region": Moscow, which has the
// most tenders.
const queryRegion = 77

// queryPage is the page of the class "page", unless the corpus is too
// small for it: then the page in the middle of the results.
const queryPage = 500

// functionWords are not searched for, however common they are.
var functionWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range []string{"для", "при", "без", "под", "над", "или", "как", "что", "его", "так", "все", "всех", "она", "они", "оно", "чем", "где"} {
		m[textproc.Stem(w)] = true
	}
	return m
}()

// Classes returns the classes of searches timed over the corpus, their
// words chosen by how many tenders hold them, with the hits of each
// query, counted in one more pass over the corpus.
func (c *Counts) Classes() []Class {
	common := c.nearestWords(commonBand)
	mid, rare := c.nearestWords(midBand), c.nearestWords(rareBand)
	page := func(w string) int { return min(queryPage, c.keys[textproc.Stem(w)]/20/2) }
	classes := []Class{
		{Name: "common", About: "a word in about 55% of the tenders", Queries: each(common, single)},
		{Name: "and", About: "two common words", Queries: pairUp(common, 1, func(a, b string) Query {
			return Query{Text: a + " & " + b, Words: []string{a, b}}
		})},
		{Name: "not", About: "a common word without another", Queries: pairUp(common, 2, func(a, b string) Query {
			return Query{Text: a + " & !" + b, Words: []string{a}, Not: b}
		})},
		{Name: "mid", About: "a word in about 1% of the tenders", Queries: each(mid, single)},
		{Name: "rare", About: "a word in about 0.01% of the tenders", Queries: each(rare, single)},
		{Name: "short", About: "a word of 1% and a word of 0.01% of the tenders: a strict set shorter than a page, which partial matches follow", Queries: zipWords(mid, rare)},
		{Name: "phrase", About: "two words side by side in about 1% of the tenders", Queries: c.phrases()},
		{Name: "region", About: "a word in about 55% of the tenders of Moscow (r77)", Queries: each(c.nearestRegionWords(commonBand), func(w string) Query {
			return Query{Text: w, Words: []string{w}, Region: queryRegion}
		})},
		{Name: "relevance", About: "a word in about 55% of the tenders, the best 20 by relevance", Queries: each(common, func(w string) Query {
			return Query{Text: w, Words: []string{w}, Sort: "relevance"}
		})},
		{Name: "page", About: "page 500 of a common word (its middle page, when it has fewer)", Queries: each(common, func(w string) Query {
			return Query{Text: w, Words: []string{w}, Page: page(w)}
		})},
	}
	c.countHits(classes)
	return classes
}

// single is the query of one word.
func single(w string) Query { return Query{Text: w, Words: []string{w}} }

// each returns the query of each word.
func each(words []string, q func(string) Query) []Query {
	out := make([]Query, len(words))
	for i, w := range words {
		out[i] = q(w)
	}
	return out
}

// pairUp returns a query of each word with the word step places after
// it, round the list.
func pairUp(words []string, step int, q func(a, b string) Query) []Query {
	if len(words) < 2 {
		return nil
	}
	out := make([]Query, len(words))
	for i, w := range words {
		b := words[(i+step)%len(words)]
		if b == w {
			b = words[(i+1)%len(words)]
		}
		out[i] = q(w, b)
	}
	return out
}

// zipWords returns the query of each word of a and the word of b in its
// place, both words to find.
func zipWords(a, b []string) []Query {
	out := make([]Query, 0, min(len(a), len(b)))
	for i := range min(len(a), len(b)) {
		out = append(out, Query{Text: a[i] + " " + b[i], Words: []string{a[i], b[i]}})
	}
	return out
}

// searchable reports whether a key is of a word a query could look for: a
// Russian word, not a function word, with a form of its own.
func (c *Counts) searchable(key string) bool {
	return isWord(key) && !functionWords[key] && c.forms[key] != ""
}

// nearestWords returns the forms of the perClass words whose shares of
// the tenders are nearest the band's target, by ratio.
func (c *Counts) nearestWords(b band) []string {
	return c.nearestIn(c.keys, c.tenders, b)
}

// nearestRegionWords is nearestWords among the tenders of queryRegion.
func (c *Counts) nearestRegionWords(b band) []string {
	return c.nearestIn(c.regionKeys, c.regionTenders, b)
}

// nearestIn returns the forms of the perClass words whose shares of
// tenders, by counts, are nearest the band's target.
func (c *Counts) nearestIn(counts map[string]int, tenders int, b band) []string {
	var keys []string
	for k := range counts {
		if c.searchable(k) {
			keys = append(keys, k)
		}
	}
	keys = nearest(keys, func(k string) int { return counts[k] }, func(k string) string { return k }, tenders, b)
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = c.forms[k]
	}
	return out
}

// phrases returns the queries of the perClass pairs of words whose shares
// are nearest the phrase band's target.
func (c *Counts) phrases() []Query {
	var ps []pair
	for p := range c.pairs {
		if p[0] != p[1] && c.searchable(p[0]) && c.searchable(p[1]) {
			ps = append(ps, p)
		}
	}
	ps = nearest(ps, func(p pair) int { return c.pairs[p] }, func(p pair) string { return p[0] + " " + p[1] }, c.tenders, phraseBand)
	out := make([]Query, len(ps))
	for i, p := range ps {
		a, b := c.forms[p[0]], c.forms[p[1]]
		out[i] = Query{Text: `"` + a + " " + b + `"`, Words: []string{a, b}, Phrase: true}
	}
	return out
}

// nearest returns the perClass items whose counts are nearest the band's
// target share of the tenders, by ratio; a tie goes to the first by name.
func nearest[T any](items []T, count func(T) int, name func(T) string, tenders int, b band) []T {
	want := b.target * float64(tenders)
	distance := func(t T) float64 { return math.Abs(math.Log(float64(count(t)) / want)) }
	slices.SortFunc(items, func(x, y T) int {
		return cmp.Or(cmp.Compare(distance(x), distance(y)), strings.Compare(name(x), name(y)))
	})
	return items[:min(perClass, len(items))]
}
