package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strconv"
	"sync"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/benchcorpus"
)

// With -aggregates the bench times analytics.aggregate instead of
// ru.search: the same stores, served the same way, asked on the tool's
// debug endpoint with a key of the corporate plan, cold right after the
// store forgot its cached totals and warm right after. The classes are
// the whole kind by each grouping, a common word, a common word in
// Moscow, Moscow under 44-FZ, and a common word by month. Beside the
// totals, the bench compares each answer's figures and groups between
// the stores, byte for byte, and warns where they differ.

// aggregateDimensions are the groupings a tender aggregates by: every one
// but the supplier, which a notice does not name.
var aggregateDimensions = []tenderbase.Dimension{tenderbase.ByCustomer, tenderbase.ByOrganizer, tenderbase.ByRegion,
	tenderbase.ByOKPD2, tenderbase.ByMethod, tenderbase.ByLaw, tenderbase.ByMonth, tenderbase.ByQuarter}

// aggregateClasses returns the classes of aggregates over a corpus of
// records tenders whose search classes are searches.
func aggregateClasses(records int, searches []benchcorpus.Class) []benchcorpus.Class {
	var out []benchcorpus.Class
	for _, by := range aggregateDimensions {
		out = append(out, benchcorpus.Class{Name: "agg " + string(by), About: "every tender by " + string(by),
			Queries: []benchcorpus.Query{{By: string(by), Hits: records}}})
	}
	of := func(name string) []benchcorpus.Query {
		for _, c := range searches {
			if c.Name == name {
				return c.Queries
			}
		}
		return nil
	}
	regroup := func(qs []benchcorpus.Query, by tenderbase.Dimension) []benchcorpus.Query {
		var out []benchcorpus.Query
		for _, q := range qs {
			q.By = string(by)
			out = append(out, q)
		}
		return out
	}
	moscow44 := benchcorpus.Query{Region: 77, Law: 44, By: string(tenderbase.ByCustomer), Hits: -1}
	return append(out,
		benchcorpus.Class{Name: "agg common", About: "a word in about 55% of the tenders, by region", Queries: regroup(of("common"), tenderbase.ByRegion)},
		benchcorpus.Class{Name: "agg word r77", About: "a word in about 55% of the tenders of Moscow, by customer", Queries: regroup(of("region"), tenderbase.ByCustomer)},
		benchcorpus.Class{Name: "agg r77 44", About: "the tenders of Moscow under 44-FZ, by customer", Queries: []benchcorpus.Query{moscow44}},
		benchcorpus.Class{Name: "agg mid month", About: "a word in about 1% of the tenders, by month", Queries: regroup(of("mid"), tenderbase.ByMonth)},
	)
}

// answers keeps a digest of each store's answer to each aggregate, to
// tell where the stores differ.
type answers struct {
	mu      sync.Mutex
	digests map[string]map[string]string // query, store: digest
}

func (a *answers) record(query, store, digest string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.digests == nil {
		a.digests = map[string]map[string]string{}
	}
	if a.digests[query] == nil {
		a.digests[query] = map[string]string{}
	}
	a.digests[query][store] = digest
}

// check warns of each aggregate whose figures the stores gave differently.
func (a *answers) check(r *result) {
	queries := make([]string, 0, len(a.digests))
	for q := range a.digests {
		queries = append(queries, q)
	}
	sort.Strings(queries)
	for _, q := range queries {
		lite, okLite := a.digests[q][storeSQLite]
		pg, okPG := a.digests[q][storePostgres]
		if okLite && okPG && lite != pg {
			r.warn("aggregate %s: the figures on sqlite and postgres differ", q)
		}
	}
}

// aggregateTarget returns the target that asks analytics.aggregate at url
// with the key's secret; the total it returns is the count of the
// matches, and each answer's digest goes to ans.
func aggregateTarget(name string, client *http.Client, url, secret string, ans *answers) *target {
	return &target{
		name: name,
		search: func(ctx context.Context, q benchcorpus.Query) (int, error) {
			count, digest, err := postAggregate(ctx, client, url, secret, q)
			if err == nil {
				ans.record(aggregateName(q), name, digest)
			}
			return count, err
		},
	}
}

// aggregateName names an aggregate in warnings.
func aggregateName(q benchcorpus.Query) string {
	s := "by " + q.By
	if q.Text != "" {
		s = strconv.Quote(q.Text) + " " + s
	}
	if q.Region != 0 {
		s += " in r" + strconv.Itoa(q.Region)
	}
	if q.Law != 0 {
		s += " under " + strconv.Itoa(q.Law)
	}
	return s
}

// postAggregate calls analytics.aggregate over the tenders a query
// matches, reads the whole answer and returns the count of the matches
// and a digest of the figures and groups.
func postAggregate(ctx context.Context, client *http.Client, url, secret string, q benchcorpus.Query) (int, string, error) {
	search := map[string]any{}
	if q.Text != "" {
		search["query"] = q.Text
	}
	if q.Region != 0 {
		search["regions"] = []int{q.Region}
	}
	if q.Law != 0 {
		search["laws"] = []int{q.Law}
	}
	body, err := json.Marshal(map[string]any{"resource": "ru", "search": search, "by": q.By, "top": tenderbase.DefaultTop})
	if err != nil {
		return 0, "", err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return 0, "", err
	}
	req.Header.Set("Authorization", "Bearer "+secret)
	req.Header.Set("Content-Type", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		return 0, "", err
	}
	read, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return 0, "", fmt.Errorf("read the answer: %w", err)
	}
	if resp.StatusCode != http.StatusOK {
		return 0, "", fmt.Errorf("status %s: %.300s", resp.Status, read)
	}
	var a struct {
		Total  json.RawMessage `json:"total"`
		Groups json.RawMessage `json:"groups"`
		More   int             `json:"more"`
	}
	if err := json.Unmarshal(read, &a); err != nil || a.Total == nil {
		return 0, "", fmt.Errorf("an answer without a total: %.300s", read)
	}
	var total struct {
		Count int `json:"count"`
	}
	if err := json.Unmarshal(a.Total, &total); err != nil {
		return 0, "", fmt.Errorf("an answer without a count: %.300s", read)
	}
	sum := sha256.Sum256(append(append(a.Total, a.Groups...), strconv.Itoa(a.More)...))
	return total.Count, fmt.Sprintf("%x", sum[:8]), nil
}
