package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/tenderbase/tenderbase/internal/postgres/pgtest"
)

// TestRun runs the bench twice on 3,000 tenders: the first run builds the
// corpus and the stores, the second finds them in the cache. PostgreSQL's
// stores are timed too where PostgreSQL is reachable, in databases of the
// test's own, dropped at the end.
func TestRun(t *testing.T) {
	cache := t.TempDir()
	samples := filepath.Join("..", "..", "..", "shared", "data")
	args := []string{"-records", "3000", "-rounds", "3", "-cache", cache, "-json", filepath.Join(cache, "figures.json"), "-samples", samples}
	stores := []string{storeSQLite}
	if admin, ok := testPostgres(t); ok {
		suffix := "_test_" + randomHex(4)
		args = append(args, "-postgres", admin, "-db-suffix", suffix)
		stores = storeNames
		t.Cleanup(func() { dropDatabases(t, admin, suffix) })
	}
	args = append(args, "-stores", strings.Join(stores, ","))
	for _, cached := range []bool{false, true} {
		var stdout, stderr bytes.Buffer
		if code := run(t.Context(), args, &stdout, &stderr); code != exitOK {
			t.Fatalf("exit status %d; the log:\n%s", code, stderr.String())
		}
		report := stdout.String()
		checkBuilds(t, report, stores, cached)
		checkClasses(t, report, stores)
		checkFigures(t, filepath.Join(cache, "figures.json"), stores)
		if _, err := os.Stat(samples); err == nil && !regexp.MustCompile(`EIS XML decoding: \d+ documents .* [\d.]+ MB/s`).MatchString(report) {
			t.Errorf("the report does not give the rate of EIS XML decoding of the samples:\n%s", report)
		}
	}
}

// testPostgres returns the URL the test creates its databases through, and
// whether PostgreSQL is reachable there; unreachable, it fails the test
// when TENDERBASE_REQUIRE_POSTGRES=1.
func testPostgres(t *testing.T) (string, bool) {
	t.Helper()
	admin := os.Getenv("TENDERBASE_TEST_POSTGRES")
	if admin == "" {
		admin = pgtest.DefaultURL
	}
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, admin)
	if err != nil {
		if os.Getenv("TENDERBASE_REQUIRE_POSTGRES") == "1" {
			t.Fatalf("%v: %v", pgtest.ErrUnreachable, err)
		}
		t.Logf("%v: timing SQLite alone (set TENDERBASE_REQUIRE_POSTGRES=1 to fail instead)", pgtest.ErrUnreachable)
		return "", false
	}
	conn.Close(ctx)
	return admin, true
}

func dropDatabases(t *testing.T, admin, suffix string) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	conn, err := pgx.Connect(ctx, admin)
	if err != nil {
		t.Error(err)
		return
	}
	defer conn.Close(ctx)
	cfg := config{Records: 3000, DBSuffix: suffix}
	for _, kind := range []string{"scale", "usual", "export"} {
		db := pgx.Identifier{cfg.dbName(kind)}.Sanitize()
		if _, err := conn.Exec(ctx, "DROP DATABASE IF EXISTS "+db+" WITH (FORCE)"); err != nil {
			t.Error(err)
		}
	}
}

func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// checkBuilds checks that the report says of each store that it was built
// or found in the cache.
func checkBuilds(t *testing.T, report string, stores []string, cached bool) {
	t.Helper()
	state := map[bool]string{false: `built\s+3000\s`, true: `cached\s`}[cached]
	for _, s := range stores {
		if !regexp.MustCompile(`(?m)^` + s + `\s+` + state).MatchString(report) {
			t.Errorf("the report does not say that %s was %s:\n%s", s, map[bool]string{false: "built", true: "cached"}[cached], report)
		}
	}
}

// checkClasses checks that the report has a line of figures for every
// class on every store, without a failed search.
func checkClasses(t *testing.T, report string, stores []string) {
	t.Helper()
	for _, class := range []string{"common", "and", "not", "mid", "rare", "phrase", "region", "relevance", "page", "cursor"} {
		for _, s := range stores {
			line := regexp.MustCompile(`(?m)^\s*` + class + `\s+` + s + `\s+[1-9]\d*\s+0\s+\d+\s+\d+\.\d`)
			if !line.MatchString(report) {
				t.Errorf("no figures of class %s on %s:\n%s", class, s, report)
			}
		}
	}
}

// checkFigures checks the figures written as JSON: every query asked has
// a total from every store, and the project's stores agree with each
// other and with the reference matcher.
func checkFigures(t *testing.T, path string, stores []string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var r result
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	if len(r.Warnings) > 0 {
		t.Errorf("warnings:\n%s", strings.Join(r.Warnings, "\n"))
	}
	asked := 0
	for _, c := range r.Classes {
		for _, q := range c.Queries {
			if len(q.Totals) == 0 {
				continue
			}
			asked++
			for _, s := range stores {
				if _, ok := q.Totals[s]; !ok {
					t.Errorf("%s: %s has no total of %s", c.Name, q.Text, s)
				}
			}
			if lite, pg := q.Totals[storeSQLite], q.Totals[storePostgres]; len(stores) > 1 && lite != pg {
				t.Errorf("%s: %s has the total %d on sqlite and %d on postgres", c.Name, q.Text, lite, pg)
			}
		}
	}
	if want := 3 * 11; asked != want {
		t.Errorf("%d queries asked, want %d: 3 rounds of 11 classes", asked, want)
	}
}

func TestFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		says string
	}{
		{[]string{"-records", "0"}, exitUsage, "-records must be at least 1"},
		{[]string{"-rounds", "-1"}, exitUsage, "-rounds must be at least 1"},
		{[]string{"-stores", "sqlite,mysql"}, exitUsage, `unknown store "mysql"`},
		{[]string{"-db-suffix", "X;"}, exitUsage, "-db-suffix"},
		{[]string{"-postgres", "host=localhost", "-stores", "usual"}, exitUsage, "-postgres must be a postgres:// URL"},
		{[]string{"-records", "x"}, exitUsage, "invalid value"},
		{[]string{"extra"}, exitUsage, `unexpected argument "extra"`},
		{[]string{"-records", "10", "-cache", t.TempDir(), "-stores", "postgres", "-postgres", "postgres://postgres:secret@127.0.0.1:1/postgres"},
			exitFailure, "PostgreSQL at postgres://postgres:xxxxx@127.0.0.1:1/postgres is unreachable"},
	} {
		var stdout, stderr bytes.Buffer
		code := run(t.Context(), tc.args, &stdout, &stderr)
		if code != tc.code || !strings.Contains(stderr.String(), tc.says) {
			t.Errorf("%q: exit status %d and\n%s\nwant %d and %q", tc.args, code, stderr.String(), tc.code, tc.says)
		}
	}
}
