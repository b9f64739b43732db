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

func TestRunPostgres(t *testing.T) {
	testRun(t, pgtest.URL(t))
}

// testRun runs the bench twice for two seconds a phase on a tiny corpus: the
// first run builds the corpus, the second finds it there. Every normal
// request must succeed; a 5xx, which a hostile request may still draw from
// the server under test, or a server that does not stop, must make the
// exit status 1.
func testRun(t *testing.T, db string) {
	args := []string{"--db", db, "--records", "300", "--duration", "2s", "--rounds", "1", "--clients", "4", "--timeout", "3s", "--settle", "5s"}
	for _, built := range []bool{false, true} {
		var stdout, stderr bytes.Buffer
		code := run(t.Context(), args, &stdout, &stderr)
		report := stdout.String()
		failed := clientServerErrors(t, report) > 0 || strings.Contains(report, "server stop:")
		if code != exitOK && code != exitFailure || (code == exitFailure) != failed {
			t.Fatalf("exit status %d with the report\n%s\nand the log\n%s", code, report, stderr.String())
		}
		if got := strings.Contains(stderr.String(), "storing"); got == built {
			t.Errorf("corpus stored again: %v, want %v", got, !built)
		}
		checkReport(t, report)
	}
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
			line := regexp.MustCompile(`(?m)^\s*` + regexp.QuoteMeta(c.name) + `\s+` + phase + `\s+(\d+)\s+(\d+)\s+0\s+0\s+0\s+0\s+0\s*$`)
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
