package benchcorpus

import (
	"fmt"
	"runtime"
	"strconv"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/query"
	"github.com/tenderbase/tenderbase/internal/textproc"
)

// search is a query of the classes made ready for the reference matcher.
type search struct {
	q      tenderbase.Query
	region int
	// needs are the keys of the words to find: a tender without one of
	// them is not matched, which spares most tenders the matcher.
	needs []string
}

// countHits sets the hits of every query of the classes: the tenders of
// the corpus the reference matcher of internal/query finds for it, in
// one more pass over the corpus. A query asked by several classes is
// matched once.
func (c *Counts) countHits(classes []Class) {
	index := map[string]int{} // of a search, by its text and region
	var searches []search
	for _, cl := range classes {
		for _, q := range cl.Queries {
			id := q.Text + "\x00" + strconv.Itoa(q.Region)
			if _, ok := index[id]; ok {
				continue
			}
			index[id] = len(searches)
			searches = append(searches, newSearch(q))
		}
	}
	parts := make([][]int, runtime.GOMAXPROCS(0))
	inParallel(newGenerator(c.seed), c.tenders, len(parts), func(part int) func(*tenderbase.Tender) {
		hits := make([]int, len(searches))
		parts[part] = hits
		a := newAnalyzer()
		return func(t *tenderbase.Tender) {
			fields := a.fields(t)
			for i, s := range searches {
				if s.mayMatch(t, a) && query.Match(s.q, fields) {
					hits[i]++
				}
			}
		}
	})
	for ci := range classes {
		for qi := range classes[ci].Queries {
			q := &classes[ci].Queries[qi]
			i := index[q.Text+"\x00"+strconv.Itoa(q.Region)]
			q.Hits = 0
			for _, hits := range parts {
				q.Hits += hits[i]
			}
			q.Share = float64(q.Hits) / float64(c.tenders)
		}
	}
}

func newSearch(q Query) search {
	parsed, err := query.Parse(q.Text, query.MCP)
	if err != nil {
		panic(fmt.Sprintf("benchcorpus: a query of the corpus does not parse: %v", err))
	}
	s := search{q: parsed, region: q.Region}
	for _, w := range q.Words {
		s.needs = append(s.needs, textproc.Stem(w))
	}
	return s
}

// mayMatch reports whether t, whose words a has just analyzed, is in the
// search's region and has every word it needs.
func (s search) mayMatch(t *tenderbase.Tender, a *analyzer) bool {
	if s.region != 0 && s.region != t.Region {
		return false
	}
	for _, k := range s.needs {
		if _, ok := a.keys[k]; !ok {
			return false
		}
	}
	return true
}
