package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/tenderbase/tenderbase/internal/query"
)

// Sizes and paces of the hostile requests.
const (
	hugeArray = 100_000 // codes in a regions or countries array, about 300 KB
	// slowPace is the pause between the bytes of a slow body and between
	// the reads of a slow reader, which reads 1 KB at a time.
	slowPace = 50 * time.Millisecond
	// slowFor is how long a slow reader goes on before it hangs up, if the
	// request's timeout is longer than twice that.
	slowFor = 10 * time.Second
)

// hostileClasses is the traffic of hostile or broken callers: arrays of a
// hundred thousand codes, queries as deep and as long as the language
// allows, a body sent a byte at a time, an answer read a kilobyte at a
// time, and clients that hang up in the middle of a request.
func (b *bench) hostileClasses() []class {
	c := b.corpus
	return []class{
		{"huge regions array", 1, func(ctx context.Context, rnd *rand.Rand) outcome {
			return b.toolCall(ctx, b.hostile, "ru/search", map[string]any{"query": pick(rnd, c.common), "regions": codes(rnd, 1, 99)})
		}},
		{"huge countries array", 1, func(ctx context.Context, rnd *rand.Rand) outcome {
			return b.toolCall(ctx, b.hostile, "world/search", map[string]any{"query": pick(rnd, c.common), "countries": codes(rnd, 1, 999)})
		}},
		{"deep query", 1, func(ctx context.Context, rnd *rand.Rand) outcome {
			return b.mcpCall(ctx, b.hostile, "ru.search", map[string]any{"query": deepQuery(rnd, c.common)})
		}},
		{"long query (export kwords)", 1, func(ctx context.Context, rnd *rand.Rand) outcome {
			return b.export(ctx, b.hostile, "mode=fas&dtype=json&kwords="+url.QueryEscape(longQuery(rnd, c.common)))
		}},
		{"slow body", 1, b.slowBody},
		{"slow reader", 1, b.slowReader},
		{"hang-up mid-request", 1, b.hangUp},
	}
}

// codes returns hugeArray random codes from lo to hi.
func codes(rnd *rand.Rand, lo, hi int) []int {
	cs := make([]int, hugeArray)
	for i := range cs {
		cs[i] = lo + rnd.IntN(hi-lo+1)
	}
	return cs
}

// deepQuery nests groups of common words, alternately ORed and ANDed, as
// deep as the query language allows.
func deepQuery(rnd *rand.Rand, words []string) string {
	q := pick(rnd, words)
	for depth := 1; depth < query.MaxDepth; depth++ {
		op := " | "
		if depth%2 == 0 {
			op = " "
		}
		q = "(" + pick(rnd, words) + op + q + ")"
	}
	return q
}

// longQuery ORs common words up to the longest query the language allows.
func longQuery(rnd *rand.Rand, words []string) string {
	q := pick(rnd, words)
	for {
		next := q + " | " + pick(rnd, words)
		if utf8.RuneCountInString(next) > query.MaxLength {
			return q
		}
		q = next
	}
}

// slowBody sends a search's body one byte every slowPace.
func (b *bench) slowBody(ctx context.Context, rnd *rand.Rand) outcome {
	body, _ := json.Marshal(map[string]any{"query": pick(rnd, b.corpus.common)})
	return b.rawCall(ctx, func(conn net.Conn) outcome {
		if _, err := io.WriteString(conn, b.head("POST", "/mcp/ru/search", len(body))); err != nil {
			return outcome{err: err}
		}
		for i := range body {
			time.Sleep(slowPace)
			if _, err := conn.Write(body[i : i+1]); err != nil {
				return outcome{err: err}
			}
		}
		return readAnswer(conn, 0, 0)
	})
}

// slowReader asks for a large export page and reads it 1 KB every
// slowPace through a small receive buffer, for slowFor at most.
func (b *bench) slowReader(ctx context.Context, rnd *rand.Rand) outcome {
	target := "/api2.3/export?mode=fasEIS&per_page=500&page=" + fmt.Sprint(rnd.IntN(3))
	return b.rawCall(ctx, func(conn net.Conn) outcome {
		if tcp, ok := conn.(*net.TCPConn); ok {
			_ = tcp.SetReadBuffer(4 << 10)
		}
		if _, err := io.WriteString(conn, b.head("GET", target, 0)); err != nil {
			return outcome{err: err}
		}
		return readAnswer(conn, slowPace, min(slowFor, b.timeout/2))
	})
}

// hangUp closes the connection after part of a body, or right after a
// whole request, before any answer.
func (b *bench) hangUp(ctx context.Context, rnd *rand.Rand) outcome {
	return b.rawCall(ctx, func(conn net.Conn) outcome {
		var err error
		if rnd.IntN(2) == 0 {
			_, err = io.WriteString(conn, b.head("POST", "/mcp/ru/search", 10_000)+`{"query":"`+strings.Repeat("а", 40))
		} else {
			_, err = io.WriteString(conn, b.head("GET", "/api2.3/export?mode=fasEIS&per_page=100", 0))
		}
		return outcome{err: err, hungUp: true}
	})
}

// head is the head of a request with the bench's key and a body of length
// bytes; the connection closes after the answer.
func (b *bench) head(method, target string, length int) string {
	return fmt.Sprintf("%s %s HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\nConnection: close\r\n\r\n",
		method, target, b.addr, b.secret, length)
}

// rawCall runs talk on a connection of its own to the server, which is
// closed when ctx is done or after the request's timeout.
func (b *bench) rawCall(ctx context.Context, talk func(conn net.Conn) outcome) outcome {
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", b.addr)
	if err != nil {
		return outcome{err: err}
	}
	defer conn.Close()
	defer context.AfterFunc(ctx, func() { conn.Close() })()
	_ = conn.SetDeadline(time.Now().Add(b.timeout))
	start := time.Now()
	o := talk(conn)
	o.latency = time.Since(start)
	return o
}

// readAnswer reads an answer's status and its body, at once when pace is
// 0, or else 1 KB every pace for at most length, and then hangs up.
func readAnswer(conn net.Conn, pace, length time.Duration) outcome {
	br := bufio.NewReaderSize(conn, 1<<10)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		return outcome{err: err}
	}
	defer resp.Body.Close()
	retry := resp.Header.Get("Retry-After") != ""
	if pace == 0 {
		_, err = io.Copy(io.Discard, resp.Body)
		return outcome{status: resp.StatusCode, err: err, retryAfter: retry}
	}
	buf := make([]byte, 1<<10)
	for end := time.Now().Add(length); time.Now().Before(end); time.Sleep(pace) {
		if _, err := resp.Body.Read(buf); err != nil {
			return outcome{status: resp.StatusCode, err: ignoreEOF(err), retryAfter: retry}
		}
	}
	return outcome{status: resp.StatusCode, hungUp: true, retryAfter: retry}
}

func ignoreEOF(err error) error {
	if errors.Is(err, io.EOF) {
		return nil
	}
	return err
}
