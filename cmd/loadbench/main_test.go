package main

import (
	"bytes"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tenderbase/tenderbase/internal/postgres/pgtest"
)

func TestRunSQLite(t *testing.T) {
	testRun(t, filepath.Join(t.TempDir(), "bench.db"))
}

// TestRunPostgres runs the bench on PostgreSQL, with its outage phase: the
// database cut off through the bench's proxy for half a second.
func TestRunPostgres(t *testing.T) {
	testRun(t, pgtest.URL(t), "--outage", "500ms")
}

// testRun runs the bench twice for two seconds a phase on a tiny corpus: the
// first run builds the corpus, the second finds it there. Every normal
// request must succeed; a 5xx, which a hostile request may still draw from
// the server under test, or a server that does not stop, must make the
// exit status 1.
func testRun(t *testing.T, db string, more ...string) {
	args := append([]string{"--db", db, "--records", "300", "--duration", "2s", "--rounds", "1", "--clients", "4", "--timeout", "3s", "--settle", "5s"}, more...)
	for _, built := range []bool{false, true} {
		var stdout, stderr bytes.Buffer
		code := run(t.Context(), args, &stdout, &stderr)
		report := stdout.String()
		failed := clientServerErrors(t, report) > 0 || strings.Contains(report, "server stop:") || !outageHeld(t, report, len(more) > 0)
		if code != exitOK && code != exitFailure || (code == exitFailure) != failed {
			t.Fatalf("exit status %d with the report\n%s\nand the log\n%s", code, report, stderr.String())
		}
		if got := strings.Contains(stderr.String(), "storing"); got == built {
			t.Errorf("corpus stored again: %v, want %v", got, !built)
		}
		checkReport(t, report)
	}
}

// outageHeld reports whether the report says that the normal requests of
// the outage phase were answered only 200 or 503 with Retry-After, that
// they were served again after it and that the server logged each outage's
// beginning and end; when there is no outage phase, whether the report
// says so. want says whether the run had one.
func outageHeld(t *testing.T, report string, want bool) bool {
	t.Helper()
	if !want {
		return strings.Contains(report, "outage: none") || !strings.Contains(report, "outage:")
	}
	counts := regexp.MustCompile(`outage: .* normal requests (\d+), answered 200 (\d+), 503 with Retry-After (\d+), other (\d+)`).FindStringSubmatch(report)
	back := regexp.MustCompile(`served again by itself: (true|false); the server logged (\d+) outage beginning\(s\) and (\d+) end\(s\)`).FindStringSubmatch(report)
	if counts == nil || back == nil {
		t.Fatalf("no outage in the report:\n%s", report)
	}
	held := counts[4] == "0" && counts[3] != "0" && back[1] == "true" && back[2] == back[3] && back[3] != "0"
	if !held {
		t.Errorf("the outage did not hold:\n%s", report)
	}
	return held
}

// clientServerErrors returns the number of 5xx the clients saw, from the
// report.
func clientServerErrors(t *testing.T, report string) int {
	t.Helper()
	m := regexp.MustCompile(`(?m)^5xx: (\d+) seen by the clients`).FindStringSubmatch(report)
	if m == nil {
		t.Fatalf("no count of 5xx in the report:\n%s", report)
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// checkReport checks that the report has a line for each phase and the
// medians, and that every normal request succeeded.
func checkReport(t *testing.T, report string) {
	t.Helper()
	phases := regexp.MustCompile(`(?m)^\s+\d+\s+(baseline|hostile)\s+[1-9]\d*\s`).FindAllStringSubmatch(report, -1)
	var names []string
	for _, m := range phases {
		names = append(names, m[1])
	}
	if diff := cmp.Diff([]string{"baseline", "hostile"}, names); diff != "" {
		t.Errorf("phases with normal requests answered (-want +got):\n%s\n%s", diff, report)
	}
	if !regexp.MustCompile(`median p99 of the normal requests: baseline \d+\.\d ms, hostile \d+\.\d ms, ratio \d+\.\d\d`).MatchString(report) {
		t.Errorf("no medians in the report:\n%s", report)
	}
	b := &bench{corpus: corpus{common: []string{"a"}, rare: []string{"a"}, tenders: []string{"1"}, customers: []string{"1"}}}
	for _, c := range b.normalClasses() {
		for _, phase := range []string{"baseline", "hostile"} {
			// The class, the phase, the requests, the successes and the
			// other outcomes: all of them successes.
			line := regexp.MustCompile(`(?m)^\s*` + regexp.QuoteMeta(c.name) + `\s+` + phase + `\s+(\d+)\s+(\d+)\s+0\s+0\s+0\s+0\s+0\s+0\s*$`)
			if m := line.FindStringSubmatch(report); m == nil || m[1] != m[2] {
				t.Errorf("%s in the %s phases did not always succeed:\n%s", c.name, phase, report)
			}
		}
	}
}

func TestPercentile(t *testing.T) {
	var ds []time.Duration
	for i := 1; i <= 200; i++ {
		ds = append(ds, time.Duration(i)*time.Millisecond)
	}
	got := []time.Duration{percentile(ds, 50), percentile(ds, 90), percentile(ds, 99), percentile(ds[:1], 99), percentile(nil, 99)}
	want := []time.Duration{100 * time.Millisecond, 180 * time.Millisecond, 198 * time.Millisecond, time.Millisecond, 0}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("percentiles (-want +got):\n%s", diff)
	}
}
