package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/benchcorpus"
	"github.com/tenderbase/tenderbase/internal/httpserver"
	"github.com/tenderbase/tenderbase/internal/tools"
)

// requestTimeout bounds a search: far more than any should take, so that
// a slow one is timed rather than cut.
const requestTimeout = 5 * time.Minute

// target is a store as the bench times it.
type target struct {
	name string
	// search runs a query as a user waits for it, and returns the total
	// of its matches the store gave.
	search func(ctx context.Context, q benchcorpus.Query) (int, error)
	// cursorOf returns the cursor of the page a query asks for by
	// cursor, reading the page before it.
	cursorOf func(ctx context.Context, q benchcorpus.Query) (string, error)
	// keys, of the project's stores, returns the keys of the records of
	// a query's page, in order.
	keys func(ctx context.Context, q benchcorpus.Query) ([]string, error)
	// forget, of the project's stores, drops the totals they cached, so
	// that the next search counts as the first one after an import does.
	forget func()
	close  func()
}

// serve serves the project's store s through the HTTP server, in this
// process on a loopback port, as `tenderbase serve` does, and returns the
// target that searches it with a key of the corporate plan, whose rows are
// not capped. Closing the target stops the server, revokes the key and
// closes s; so does a failure.
func (b *bench) serve(ctx context.Context, name string, s ourStore) ([]*target, error) {
	key, secret, err := s.CreateKey(ctx, tenderbase.Key{Name: "scalebench", Plan: tenderbase.PlanCorporate})
	if err != nil {
		s.Close()
		return nil, fmt.Errorf("create the bench's key in %s: %w", name, err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		s.Close()
		return nil, fmt.Errorf("listen: %w", err)
	}
	srv := httpserver.New(httpserver.Config{Keys: s, Tools: tools.New(s, b.quiet), RequestTimeout: requestTimeout}, s, b.quiet)
	sctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	served := make(chan error, 1)
	go func() { served <- srv.Serve(sctx, ln) }()
	url := "http://" + ln.Addr().String() + "/mcp/ru/search"
	client := &http.Client{Timeout: requestTimeout + 10*time.Second}
	t := searchTarget(name, client, url, secret, false)
	if b.cfg.Aggregates {
		t = aggregateTarget(name, client, "http://"+ln.Addr().String()+"/mcp/analytics/aggregate", secret, &b.answers)
	}
	t.forget = s.ForgetTotals
	t.close = func() {
		cancel()
		if err := <-served; err != nil && !errors.Is(err, http.ErrServerClosed) {
			b.logger.Warn("the server stopped", "store", name, "err", err)
		}
		if _, err := s.SetKeyStatus(context.WithoutCancel(ctx), key.ID, tenderbase.KeyRevoked); err != nil {
			b.logger.Warn("revoke the bench's key", "store", name, "err", err)
		}
		s.Close()
	}
	ts := []*target{t}
	if b.cfg.Exact && !b.cfg.Aggregates {
		exact := searchTarget(name+" exact", client, url, secret, true)
		exact.forget, exact.close = s.ForgetTotals, func() {}
		// The stores' orders are compared as agents ask; the query as
		// written is another query, of another first page.
		exact.keys = nil
		ts = append(ts, exact)
	}
	return ts, nil
}

// searchTarget returns the target that asks ru.search at url with the
// key's secret, with "exact": true when exact is set.
func searchTarget(name string, client *http.Client, url, secret string, exact bool) *target {
	return &target{
		name: name,
		search: func(ctx context.Context, q benchcorpus.Query) (int, error) {
			a, err := postSearch(ctx, client, url, secret, q, exact)
			return a.total, err
		},
		keys: func(ctx context.Context, q benchcorpus.Query) ([]string, error) {
			a, err := postSearch(ctx, client, url, secret, q, exact)
			return a.keys, err
		},
		cursorOf: func(ctx context.Context, q benchcorpus.Query) (string, error) {
			q.Page, q.ByCursor = q.Page-1, false
			a, err := postSearch(ctx, client, url, secret, q, exact)
			if err == nil && a.next == "" {
				err = fmt.Errorf("page %d of %s gave no next cursor", q.Page, q.Text)
			}
			return a.next, err
		},
	}
}

// searchArgs are the arguments of ru.search.
type searchArgs struct {
	Query   string `json:"query"`
	Page    int    `json:"page,omitempty"`
	Cursor  string `json:"cursor,omitempty"`
	Regions []int  `json:"regions,omitempty"`
	Sort    string `json:"sort,omitempty"`
	Exact   bool   `json:"exact,omitempty"`
}

// answer is what the bench reads of a page of ru.search.
type answer struct {
	total int
	next  string
	keys  []string // of the page's tenders, in order
}

// postSearch calls ru.search on its debug endpoint, with "exact": true
// when exact is set, and reads the whole answer.
func postSearch(ctx context.Context, client *http.Client, url, secret string, q benchcorpus.Query, exact bool) (answer, error) {
	args := searchArgs{Query: q.Text, Page: q.Page, Sort: q.Sort, Exact: exact}
	if q.ByCursor {
		args.Page, args.Cursor = 0, q.Cursor
	}
	if q.Region != 0 {
		args.Regions = []int{q.Region}
	}
	body, err := json.Marshal(args)
	if err != nil {
		return answer{}, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return answer{}, err
	}
	req.Header.Set("Authorization", "Bearer "+secret)
	req.Header.Set("Content-Type", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		return answer{}, err
	}
	read, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return answer{}, fmt.Errorf("read the answer: %w", err)
	}
	if resp.StatusCode != http.StatusOK {
		return answer{}, fmt.Errorf("status %s: %.300s", resp.Status, read)
	}
	var page struct {
		Total *int   `json:"total"`
		Next  string `json:"next_cursor"`
		Items []struct {
			PurchaseNumber string `json:"purchase_number"`
		} `json:"items"`
	}
	if err := json.Unmarshal(read, &page); err != nil || page.Total == nil {
		return answer{}, fmt.Errorf("an answer without a total: %.300s", read)
	}
	a := answer{total: *page.Total, next: page.Next}
	for _, it := range page.Items {
		a.keys = append(a.keys, it.PurchaseNumber)
	}
	return a, nil
}
