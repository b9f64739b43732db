package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"sync/atomic"
	"time"

	"github.com/tenderbase/tenderbase/internal/tcpproxy"
)

// bench is the server under load and what its clients need.
type bench struct {
	addr   string // host:port of the server
	secret string // the key every request carries
	// timeout bounds every request, normal or hostile.
	timeout time.Duration
	corpus  corpus
	// answered5xx counts the 5xx the server answered, from its log, and
	// outages the lines of the store's outages there.
	answered5xx *atomic.Int64
	outages     *outageLog
	// proxy stands between a PostgreSQL store and its database, for the
	// outage phase to cut; nil for none.
	proxy *tcpproxy.Proxy
	// normal and hostile have connection pools of their own, so that
	// hostile requests never hold a connection a normal one waits for.
	normal, hostile *http.Client
}

// class is one kind of request.
type class struct {
	name   string
	weight int // how often a worker picks it, relative to the others
	send   func(ctx context.Context, rnd *rand.Rand) outcome
}

// outcome is what came of one request.
type outcome struct {
	status  int // 0: no answer
	latency time.Duration
	err     error
	hungUp  bool // the client hung up on purpose before the answer
	// retryAfter says that the answer had a Retry-After header.
	retryAfter bool
}

// normalClasses is the traffic of ordinary callers: searches of common and
// rare words over MCP and the debug endpoints, tender cards, contract
// searches and export pages.
func (b *bench) normalClasses() []class {
	c := b.corpus
	return []class{
		{"ru.search common word (MCP)", 25, func(ctx context.Context, rnd *rand.Rand) outcome {
			return b.mcpCall(ctx, b.normal, "ru.search", map[string]any{"query": pick(rnd, c.common)})
		}},
		{"ru.search rare word", 20, func(ctx context.Context, rnd *rand.Rand) outcome {
			return b.toolCall(ctx, b.normal, "ru/search", map[string]any{"query": pick(rnd, c.rare)})
		}},
		{"ru.detail", 20, func(ctx context.Context, rnd *rand.Rand) outcome {
			return b.toolCall(ctx, b.normal, "ru/detail", map[string]any{"id": pick(rnd, c.tenders)})
		}},
		{"contracts.search", 10, func(ctx context.Context, rnd *rand.Rand) outcome {
			return b.toolCall(ctx, b.normal, "contracts/search", map[string]any{"query": pick(rnd, c.common)})
		}},
		{"export page (JSON)", 15, func(ctx context.Context, rnd *rand.Rand) outcome {
			return b.export(ctx, b.normal, fmt.Sprintf("mode=fasEIS&dtype=json&per_page=20&page=%d", rnd.IntN(10)))
		}},
		{"export by customer (XML)", 10, func(ctx context.Context, rnd *rand.Rand) outcome {
			return b.export(ctx, b.normal, "mode=fasEIS&fasCustomerInn="+pick(rnd, c.customers))
		}},
	}
}

func pick[T any](rnd *rand.Rand, xs []T) T { return xs[rnd.IntN(len(xs))] }

// mcpCall calls a tool through POST /mcp.
func (b *bench) mcpCall(ctx context.Context, client *http.Client, tool string, args any) outcome {
	body := map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tools/call",
		"params": map[string]any{"name": tool, "arguments": args}}
	return b.post(ctx, client, "/mcp", body)
}

// toolCall calls the debug endpoint of a tool, "group/operation".
func (b *bench) toolCall(ctx context.Context, client *http.Client, endpoint string, args any) outcome {
	return b.post(ctx, client, "/mcp/"+endpoint, args)
}

// export requests an export page with the bench's key.
func (b *bench) export(ctx context.Context, client *http.Client, query string) outcome {
	return b.do(ctx, client, http.MethodGet, "/api2.3/export?"+query+"&api_code="+url.QueryEscape(b.secret), nil)
}

func (b *bench) post(ctx context.Context, client *http.Client, path string, v any) outcome {
	body, err := json.Marshal(v)
	if err != nil {
		return outcome{err: err}
	}
	return b.do(ctx, client, http.MethodPost, path, body)
}

// do sends one request and reads the whole answer.
func (b *bench) do(ctx context.Context, client *http.Client, method, path string, body []byte) outcome {
	ctx, cancel := context.WithTimeout(ctx, b.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, "http://"+b.addr+path, bytes.NewReader(body))
	if err != nil {
		return outcome{err: err}
	}
	req.Header.Set("Authorization", "Bearer "+b.secret)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	start := time.Now()
	resp, err := client.Do(req)
	if err != nil {
		return outcome{latency: time.Since(start), err: err}
	}
	defer resp.Body.Close()
	_, err = io.Copy(io.Discard, resp.Body)
	return outcome{status: resp.StatusCode, latency: time.Since(start), err: err, retryAfter: resp.Header.Get("Retry-After") != ""}
}

// newClient returns a client whose pool keeps a connection for each of
// the workers.
func newClient(workers int) *http.Client {
	return &http.Client{Transport: &http.Transport{
		MaxIdleConns:        workers,
		MaxIdleConnsPerHost: workers,
		DisableCompression:  true,
	}}
}
