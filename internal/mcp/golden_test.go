package mcp_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/tenderbase/tenderbase"
)

var update = flag.Bool("update", false, "rewrite the responses in testdata/*.txtar")

// TestExchanges replays the requests of each testdata/*.txtar file against
// the handler and compares the answers with the responses recorded there.
//
// A file is a sequence of "-- request --" and "-- response --" sections. A
// request is "METHOD PATH", headers, a blank line and the body as sent. A
// Test-Key header is not sent: it names the key the authentication would
// have put into the context (see testKeys).
func TestExchanges(t *testing.T) {
	files, err := filepath.Glob("testdata/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no testdata: %v", err)
	}
	h := newTestHandler(t, nil)
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			comment, sections := parseArchive(data)
			var updated []section
			for i := 0; i < len(sections); i++ {
				req := sections[i]
				if req.name != "request" {
					t.Fatalf("section %d is %q, want request", i, req.name)
				}
				got := exchange(t, h, req.body)
				updated = append(updated, req, section{"response", got})
				if i+1 < len(sections) && sections[i+1].name == "response" {
					i++
					if want := sections[i].body; got != want && !*update {
						t.Errorf("%s (-want +got):\n%s", firstLine(req.body), cmp.Diff(want, got))
					}
				} else if !*update {
					t.Errorf("%s: no response recorded; run with -update", firstLine(req.body))
				}
			}
			if *update {
				if err := os.WriteFile(file, formatArchive(comment, updated), 0o644); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

// exchange sends the request text to h and returns the response text.
func exchange(t *testing.T, h http.Handler, text string) string {
	t.Helper()
	r := readRequest(t, text)
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return formatResponse(w.Result().StatusCode, w.Header(), w.Body.Bytes())
}

// readRequest builds the request a request section describes.
func readRequest(t *testing.T, text string) *http.Request {
	t.Helper()
	head, body, _ := strings.Cut(text, "\n\n")
	lines := strings.Split(head, "\n")
	method, target, _ := strings.Cut(lines[0], " ")
	r := httptest.NewRequest(method, target, strings.NewReader(strings.TrimSuffix(body, "\n")))
	for _, l := range lines[1:] {
		name, value, _ := strings.Cut(l, ": ")
		if name == "Test-Key" {
			r = r.WithContext(tenderbase.NewContextWithKey(r.Context(), testKeys[value]))
			continue
		}
		r.Header.Add(name, value)
	}
	return r
}

// shownHeaders are the response headers the golden files record.
var shownHeaders = []string{"Allow", "Content-Type", "Retry-After", "X-Restricted-Fields"}

// formatResponse writes a response as a golden file shows it, its JSON body
// indented.
func formatResponse(status int, header http.Header, body []byte) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d %s\n", status, http.StatusText(status))
	for _, name := range shownHeaders {
		if v := header.Get(name); v != "" {
			fmt.Fprintf(&b, "%s: %s\n", name, v)
		}
	}
	b.WriteString("\n")
	var indented bytes.Buffer
	if json.Indent(&indented, body, "", "  ") == nil {
		body = indented.Bytes()
	}
	b.Write(body)
	if len(body) > 0 && body[len(body)-1] != '\n' {
		b.WriteString("\n")
	}
	return b.String()
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	if _, body, ok := strings.Cut(s, "\n\n"); ok {
		line += " " + strings.TrimSpace(body)
	}
	return line
}

// section is one file of a txtar archive.
type section struct{ name, body string }

// parseArchive splits a txtar archive into its comment and sections.
func parseArchive(data []byte) (comment string, sections []section) {
	sc := bufio.NewScanner(bytes.NewReader(data))
	var cur *strings.Builder = new(strings.Builder)
	for sc.Scan() {
		line := sc.Text()
		if name, ok := strings.CutPrefix(line, "-- "); ok && strings.HasSuffix(name, " --") {
			if sections == nil {
				comment = cur.String()
			} else {
				sections[len(sections)-1].body = cur.String()
			}
			sections = append(sections, section{name: strings.TrimSuffix(name, " --")})
			cur = new(strings.Builder)
			continue
		}
		cur.WriteString(line + "\n")
	}
	if sections == nil {
		return cur.String(), nil
	}
	sections[len(sections)-1].body = cur.String()
	return comment, sections
}

// formatArchive is the inverse of parseArchive.
func formatArchive(comment string, sections []section) []byte {
	var b bytes.Buffer
	b.WriteString(comment)
	for _, s := range sections {
		fmt.Fprintf(&b, "-- %s --\n%s", s.name, s.body)
	}
	return b.Bytes()
}

// testKeys are the keys a Test-Key header names.
var testKeys = map[string]tenderbase.Key{
	"free":         {ID: "k_free", Plan: tenderbase.PlanFree},
	"paid":         {ID: "k_paid", Plan: tenderbase.PlanStandard},
	"guru":         {ID: "k_guru", Plan: tenderbase.PlanGuru},
	"corporate":    {ID: "k_corporate", Plan: tenderbase.PlanCorporate},
	"limited":      {ID: "k_limited", Plan: tenderbase.PlanFree},
	"limiter-down": {ID: "k_limiter_down", Plan: tenderbase.PlanFree},
}

// fakeLimiter refuses k_limited for 2.5 s and cannot decide for
// k_limiter_down.
type fakeLimiter struct{}

func (fakeLimiter) Allow(ctx context.Context, k tenderbase.Key) (time.Duration, error) {
	switch k.ID {
	case "k_limited":
		return 2500 * time.Millisecond, nil
	case "k_limiter_down":
		return 0, errors.New("redis: connection refused")
	}
	return 0, nil
}
