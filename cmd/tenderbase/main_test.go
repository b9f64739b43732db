package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/tenderbase/tenderbase"
)

// result is what one run of the command line did.
type result struct {
	code   int
	stdout string
	stderr string
}

// runCLI runs the command line with args and the environment env.
func runCLI(t *testing.T, env map[string]string, args ...string) result {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(t.Context(), args, &cli{stdout: &stdout, stderr: &stderr, getenv: func(k string) string { return env[k] }})
	return result{code, stdout.String(), stderr.String()}
}

// tenders writes an NDJSON file of tenders with the given titles, numbered
// from 1, and returns its path.
func tenders(t *testing.T, dir string, titles ...string) string {
	t.Helper()
	var recs []tenderbase.Record
	for i, title := range titles {
		recs = append(recs, &tenderbase.Tender{
			PurchaseNumber: "03731000001250000" + string(rune('1'+i)),
			Law:            tenderbase.Law44,
			Version:        1,
			Title:          title,
			Region:         77 - i,
			PublishedAt:    time.Date(2025, 3, 1+i, 0, 0, 0, 0, time.UTC),
		})
	}
	return writeNDJSON(t, filepath.Join(dir, "tenders.ndjson"), recs...)
}

// writeNDJSON writes recs to path in the canonical NDJSON form and
// returns path.
func writeNDJSON(t *testing.T, path string, recs ...tenderbase.Record) string {
	t.Helper()
	var b strings.Builder
	for _, r := range recs {
		line, err := tenderbase.EncodeEnvelope(r)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestVersionAndHelp(t *testing.T) {
	tests := []struct {
		args     []string
		code     int
		inStdout string
		inStderr string
	}{
		{[]string{"version"}, 0, "built:", ""},
		{[]string{"search", "--db", "mysql://u:secret@host/db", "ru", "x"}, 2, "", `unknown scheme "mysql"; give the path of a SQLite file or a postgres:// URL`},
		{[]string{"serve", "--db", "sqlite:///tmp/x.db"}, 2, "", `unknown scheme "sqlite"`},
		{[]string{"serve", "--log-format", "yaml"}, 2, "", "not a log format: use json or text"},
		{[]string{"serve", "--anonymous-rate", "100"}, 2, "", "--anonymous-rate 100: give 1 to 30"},
		{[]string{"serve", "--trusted-proxies", "10.0.0.0/8,proxy"}, 2, "", `"proxy" is neither an address nor a CIDR block`},
		{[]string{"serve", "--webhook-allow", "10.0.0.0/8,intranet"}, 2, "", `"intranet" is neither an address nor a CIDR block`},
		{[]string{"help"}, 0, "import [flags] PATH...", ""},
		{[]string{"--help"}, 0, "search [flags] RESOURCE [QUERY]", ""},
		{[]string{"help", "search"}, 0, "--page-size N", ""},
		{[]string{"import", "-h"}, 0, "", "--batch-size N"},
		{[]string{}, 2, "", "Usage: tenderbase COMMAND"},
		{[]string{"frobnicate"}, 2, "", `unknown command "frobnicate"`},
		{[]string{"import"}, 2, "", "no PATH given"},
		{[]string{"search"}, 2, "", "no RESOURCE given"},
		{[]string{"serve", "extra"}, 2, "", `unexpected argument "extra"`},
		{[]string{"search", "ru", "--page-size", "many"}, 2, "", `invalid value "many"`},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			got := runCLI(t, nil, tt.args...)
			if got.code != tt.code || !strings.Contains(got.stdout, tt.inStdout) || !strings.Contains(got.stderr, tt.inStderr) {
				t.Errorf("exit %d, stdout:\n%s\nstderr:\n%s\nwant exit %d, %q in stdout and %q in stderr",
					got.code, got.stdout, got.stderr, tt.code, tt.inStdout, tt.inStderr)
			}
		})
	}
}

func TestImportThenSearch(t *testing.T) {
	importThenSearch(t, filepath.Join(t.TempDir(), "test.db"))
}

// importThenSearch imports three tenders into the store db twice, naming
// it by --db and then by TENDERBASE_DB, and searches them.
func importThenSearch(t *testing.T, db string) {
	t.Helper()
	data := tenders(t, t.TempDir(), "Поставка бумаги для офисной техники", "Ремонт кровли здания школы", "Поставки картриджей")

	first := runCLI(t, nil, "import", data, "--db", db)
	again := runCLI(t, map[string]string{"TENDERBASE_DB": db}, "import", data)

	if first.code != 0 || !strings.Contains(first.stdout, "Read 3 records from 1 file: 3 inserted") ||
		!strings.Contains(first.stdout, "Read as NDJSON (1 file):\n  "+data+": NDJSON, 3 records\n") {
		t.Errorf("first import: exit %d\n%s%s", first.code, first.stdout, first.stderr)
	}
	if again.code != 0 || !strings.Contains(again.stdout, "3 unchanged") {
		t.Errorf("second import: exit %d\n%s%s", again.code, again.stdout, again.stderr)
	}

	listing := runCLI(t, nil, "search", "--db", db, "ru", "поставка")
	wantListing := "2 found in ru (page 0 of pages 0-0, 20 per page)\n" +
		"2025-03-03  037310000012500003    Поставки картриджей\n" +
		"2025-03-01  037310000012500001    Поставка бумаги для офисной техники\n"
	if diff := cmp.Diff(wantListing, listing.stdout); diff != "" || listing.code != 0 {
		t.Errorf("search listing: exit %d (-want +got):\n%s%s", listing.code, diff, listing.stderr)
	}

	past := runCLI(t, nil, "search", "--db", db, "--page", "3", "ru", "поставка")
	wantPast := "2 found in ru (page 3 of pages 0-0, 20 per page)\n" +
		"page 3 is past the last page: the 2 found are on pages 0-0; ask for --page 0 or less\n"
	if diff := cmp.Diff(wantPast, past.stdout); diff != "" || past.code != 0 {
		t.Errorf("a page past the end: exit %d (-want +got):\n%s%s", past.code, diff, past.stderr)
	}
}

func TestSearchJSON(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "test.db")
	data := tenders(t, dir, "Поставка бумаги", "Ремонт кровли", "Поставки картриджей")
	if r := runCLI(t, nil, "import", "--db", db, data); r.code != 0 {
		t.Fatalf("import: %s%s", r.stdout, r.stderr)
	}

	// Flags after the arguments, and a region list.
	got := runCLI(t, nil, "search", "ru", "поставка", "--json", "--db", db, "--region", "75,76", "--page-size", "1")

	if got.code != 0 {
		t.Fatalf("exit %d: %s", got.code, got.stderr)
	}
	var page struct {
		Total    int               `json:"total"`
		Page     int               `json:"page"`
		PageSize int               `json:"page_size"`
		Items    []json.RawMessage `json:"items"`
	}
	if err := json.Unmarshal([]byte(got.stdout), &page); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, got.stdout)
	}
	if page.Total != 1 || page.Page != 0 || page.PageSize != 1 || len(page.Items) != 1 {
		t.Fatalf("page %+v, want the one tender in region 75", page)
	}
	rec, err := tenderbase.DecodeRecord(tenderbase.KindTender, page.Items[0])
	if err != nil || rec.Key() != "037310000012500003" {
		t.Errorf("item %s: %v, want the canonical form of tender 037310000012500003", page.Items[0], err)
	}
}

// TestSearchCursor pages by the cursor each page prints, and refuses one
// of another search.
func TestSearchCursor(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "test.db")
	if r := runCLI(t, nil, "import", "--db", db, tenders(t, dir, "Поставка бумаги", "Ремонт кровли", "Поставки картриджей")); r.code != 0 {
		t.Fatalf("import: %s%s", r.stdout, r.stderr)
	}
	first := runCLI(t, nil, "search", "--db", db, "--page-size", "1", "ru", "поставка")
	_, cursor, ok := strings.Cut(first.stdout, "next page: --cursor ")
	if first.code != 0 || !ok {
		t.Fatalf("first page: exit %d, no next cursor:\n%s%s", first.code, first.stdout, first.stderr)
	}
	cursor = strings.TrimSpace(cursor)
	second := runCLI(t, nil, "search", "--db", db, "--page-size", "1", "--cursor", cursor, "ru", "поставка")
	want := "2 found in ru (the page after the cursor, 1 per page)\n" +
		"2025-03-01  037310000012500001    Поставка бумаги\n"
	if diff := cmp.Diff(want, second.stdout); diff != "" || second.code != 0 {
		t.Errorf("second page by cursor: exit %d (-want +got):\n%s%s", second.code, diff, second.stderr)
	}
	other := runCLI(t, nil, "search", "--db", db, "--page-size", "1", "--cursor", cursor, "ru", "ремонт")
	if other.code != 2 || !strings.Contains(other.stderr, "the cursor belongs to another search") {
		t.Errorf("a cursor of another search: exit %d\n%s%s", other.code, other.stdout, other.stderr)
	}
}

func TestSearchErrors(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "test.db")
	if r := runCLI(t, nil, "import", "--db", db, tenders(t, dir, "Поставка бумаги")); r.code != 0 {
		t.Fatalf("import: %s%s", r.stdout, r.stderr)
	}
	tests := []struct {
		name     string
		args     []string
		code     int
		inStderr string
	}{
		{"bad query", []string{"search", "--db", db, "ru", "поставка & "}, 2, "at character"},
		{"unknown resource", []string{"search", "--db", db, "tenders", "x"}, 2, `unknown resource "tenders"`},
		{"bad region", []string{"search", "--db", db, "ru", "x", "--region", "100"}, 2, `"100" is not a code from 1 to 99`},
		{"bad law", []string{"search", "--db", db, "ru", "x", "--law", "94"}, 2, `"94" is not a law`},
		{"bad page", []string{"search", "--db", db, "ru", "x", "--page", "-1"}, 2, "page must be 0 or more"},
		{"no store", []string{"search", "--db", filepath.Join(dir, "none.db"), "ru", "x"}, 1, "no store at"},
		{"bad filter value", []string{"search", "--db", db, "ru", "--filter", "price1=много"}, 2, `filter "price1" takes a price in roubles`},
		{"unknown filter", []string{"search", "--db", db, "docs", "--filter", "price_min=5"}, 2, `unknown filter "price_min"; the filters of docs.search are`},
		{"filter without a value", []string{"search", "--db", db, "ru", "--filter", "open"}, 2, `"open" is not NAME=VALUE`},
		{"unknown sort", []string{"search", "--db", db, "ru", "--sort", "cheapest"}, 2, `argument "sort" of ru.search is one of newest, deadline`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := runCLI(t, nil, tt.args...)
			if got.code != tt.code || !strings.Contains(got.stderr, tt.inStderr) || got.stdout != "" {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit %d and %q on stderr only", got.code, got.stdout, got.stderr, tt.code, tt.inStderr)
			}
		})
	}
}

func TestImportReportsProblems(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "test.db")
	bad := filepath.Join(dir, "bad.ndjson")
	var lines strings.Builder
	for range 25 {
		lines.WriteString(`{"kind":"tender","record":{"title":"no key"}}` + "\n")
	}
	if err := os.WriteFile(bad, []byte(lines.String()), 0o644); err != nil {
		t.Fatal(err)
	}

	got := runCLI(t, nil, "import", "--db", db, bad, filepath.Join(dir, "missing"))

	if got.code != 0 {
		t.Errorf("exit %d, want 0: a file was read, even if every record was rejected", got.code)
	}
	for _, want := range []string{
		"Rejected 25 records:\n  " + bad + ":1: tender record has no key (purchase_number)\n",
		"  and 5 more\n",
		"missing: no such file or directory\n",
	} {
		if !strings.Contains(got.stdout, want) {
			t.Errorf("summary lacks %q:\n%s", want, got.stdout)
		}
	}
}

// TestImportNothingReadable imports paths that hold nothing: a missing
// path fails before a store is made, a folder with nothing readable leaves
// no empty store behind, and an existing store is kept as it was.
func TestImportNothingReadable(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "test.db")

	got := runCLI(t, nil, "import", "--json", "--db", db, filepath.Join(dir, "missing"))
	if got.code != 2 || !strings.Contains(got.stderr, "nothing to import") || !strings.Contains(got.stderr, "missing") {
		t.Errorf("a missing path: exit %d, stderr %q; want 2 and a message naming it", got.code, got.stderr)
	}
	assertNoFile(t, db)

	empty := filepath.Join(dir, "empty")
	if err := os.Mkdir(empty, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(empty, "notes.txt"), []byte("nothing to import"), 0o644); err != nil {
		t.Fatal(err)
	}
	got = runCLI(t, nil, "import", "--json", "--db", db, empty)
	if got.code != 1 || !strings.Contains(got.stderr, "nothing could be read") {
		t.Errorf("a folder of nothing readable: exit %d, stderr %q; want 1 and a message", got.code, got.stderr)
	}
	var summary map[string]any
	if err := json.Unmarshal([]byte(got.stdout), &summary); err != nil {
		t.Fatalf("summary is not JSON: %v\n%s", err, got.stdout)
	}
	if summary["files"] != 0.0 || len(summary["skipped"].([]any)) != 1 || summary["rejections"] == nil {
		t.Errorf("summary %v", summary)
	}
	assertNoFile(t, db)

	if got := runCLI(t, nil, "import", "--db", db, tenders(t, dir, "Поставка бумаги")); got.code != 0 {
		t.Fatalf("import: %d %s", got.code, got.stderr)
	}
	runCLI(t, nil, "import", "--db", db, empty)
	if got := runCLI(t, nil, "search", "--db", db, "ru", "бумага"); !strings.Contains(got.stdout, "Поставка бумаги") {
		t.Errorf("the store that held data lost it after an import of nothing: %s %s", got.stdout, got.stderr)
	}
}

func assertNoFile(t *testing.T, path string) {
	t.Helper()
	for _, suffix := range []string{"", "-wal", "-shm"} {
		if _, err := os.Stat(path + suffix); err == nil {
			t.Errorf("%s was left behind", path+suffix)
		}
	}
}

// syncBuffer is a bytes.Buffer that a command can write while a test reads.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// startServe runs serve with args until the returned cancel is called, and
// returns the address it listens on and a channel that yields its exit
// status.
func startServe(t *testing.T, args ...string) (addr string, stdout *syncBuffer, cancel context.CancelFunc, exited <-chan int) {
	t.Helper()
	addr, stdout, _, cancel, exited = startServeEnv(t, nil, args...)
	return addr, stdout, cancel, exited
}

// startServeEnv runs serve as startServe does, with the environment env,
// and returns its stderr too.
func startServeEnv(t *testing.T, env map[string]string, args ...string) (addr string, stdout, stderr *syncBuffer, cancel context.CancelFunc, exited <-chan int) {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	stdout = &syncBuffer{}
	stderr = &syncBuffer{}
	done := make(chan int, 1)
	c := &cli{stdout: stdout, stderr: stderr, getenv: func(k string) string { return env[k] }}
	go func() { done <- run(ctx, append([]string{"serve", "--addr", "127.0.0.1:0"}, args...), c) }()
	// serve --demo imports the whole demo first; on PostgreSQL on a busy
	// two-core machine that took over 10 s. The wait is for readiness, not
	// a speed target.
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		if _, rest, ok := strings.Cut(stdout.String(), "listening on http://"); ok {
			addr, _, _ = strings.Cut(rest, " ")
			return addr, stdout, stderr, cancel, done
		}
		select {
		case code := <-done:
			t.Fatalf("serve exited with %d:\n%s", code, stderr)
		case <-time.After(10 * time.Millisecond):
		}
	}
	cancel()
	t.Fatalf("serve did not say where it listens:\n%s\n%s", stdout, stderr)
	return
}

// EIS XML is detected by its content and imported beside NDJSON: the
// complaint fixtures of internal/source/eis become searchable complaints.
func TestImportEISXML(t *testing.T) {
	db := filepath.Join(t.TempDir(), "store.db")
	fixtures := filepath.Join("..", "..", "internal", "source", "eis", "testdata", "complaint")
	res := runCLI(t, nil, "import", "--db", db, "--json", fixtures)
	if res.code != exitOK {
		t.Fatalf("import exit %d: %s %s", res.code, res.stdout, res.stderr)
	}
	var summary struct {
		Files, Inserted, Rejected int
		Formats                   map[string]int
		Read                      []struct{ File, Format string }
	}
	if err := json.Unmarshal([]byte(res.stdout), &summary); err != nil {
		t.Fatalf("summary is not JSON: %v\n%s", err, res.stdout)
	}
	if summary.Inserted < 5 || summary.Rejected != 0 {
		t.Errorf("inserted %d, rejected %d: %s", summary.Inserted, summary.Rejected, res.stdout)
	}
	if summary.Formats["EIS XML"] != summary.Files || len(summary.Read) != summary.Files || summary.Read[0].Format != "EIS XML" {
		t.Errorf("the summary does not say every file was read as EIS XML: %s", res.stdout)
	}
	res = runCLI(t, nil, "search", "--db", db, "complaints", "--json")
	if res.code != exitOK || !strings.Contains(res.stdout, `"complaintNumber":"202000151401234"`) {
		t.Errorf("search complaints after the import: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
}

// TestSearchFilters narrows and orders a search from the command line as
// the search tools do.
func TestSearchFilters(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "test.db")
	data := tenders(t, dir, "Поставка бумаги", "Ремонт кровли", "Поставки картриджей")
	if r := runCLI(t, nil, "import", "--db", db, data); r.code != 0 {
		t.Fatalf("import: %s%s", r.stdout, r.stderr)
	}
	got := runCLI(t, nil, "search", "--db", db, "ru", "--filter", "published_from=02.03.2025", "--filter", "laws=44", "--sort", "newest")
	want := "2 found in ru (page 0 of pages 0-0, 20 per page)\n" +
		"2025-03-03  037310000012500003    Поставки картриджей\n" +
		"2025-03-02  037310000012500002    Ремонт кровли\n"
	if diff := cmp.Diff(want, got.stdout); diff != "" || got.code != 0 {
		t.Errorf("exit %d (-want +got):\n%s%s", got.code, diff, got.stderr)
	}
}

// TestBadSMTPURLRedacted checks that the error of an SMTP URL that serve
// refuses does not repeat its password or query.
func TestBadSMTPURLRedacted(t *testing.T) {
	for _, smtp := range []string{"smtpx://mailer:pa55w0rd@mail.example.org:587?token=t0k3n", "smtp://mailer:pa55w0rd@mail.example.org:x?token=t0k3n"} {
		res := runCLI(t, nil, "serve", "--smtp", smtp)
		if res.code != 2 || !strings.Contains(res.stderr, "--smtp") || strings.Contains(res.stderr, "pa55w0rd") || strings.Contains(res.stderr, "t0k3n") {
			t.Errorf("serve --smtp %s: exit %d, want 2 with the URL redacted:\n%s", smtp, res.code, res.stderr)
		}
	}
}

func TestStoreName(t *testing.T) {
	for _, c := range []struct{ db, want string }{
		{"./tenderbase.db", "./tenderbase.db"},
		{"postgres://tb:pa55@db.example.org/tenders", "postgres://tb:xxxxx@db.example.org/tenders"},
		{"postgres://tb@db.example.org/tenders?sslmode=require&password=pa55", "postgres://tb@db.example.org/tenders?…"},
	} {
		if got := (storeConfig{DB: c.db}).String(); got != c.want {
			t.Errorf("%s named %s, want %s", c.db, got, c.want)
		}
	}
}

// TestSearchPlans searches positions of purchase plans from the command
// line by the month their notice is planned for, each headed by its
// object.
func TestSearchPlans(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "test.db")
	data := writeNDJSON(t, filepath.Join(dir, "plans.ndjson"),
		&tenderbase.PlannedPurchase{PositionNumber: "2180316803-12", Law: tenderbase.Law223, PlanNumber: "2180316803", PlanVersion: 2,
			Object: "Ремонт кровли административного здания", PublishYear: 2025, PublishMonth: 3, Status: tenderbase.PlannedActive,
			PublishedAt: time.Date(2025, 2, 14, 0, 0, 0, 0, time.UTC)},
		&tenderbase.PlannedPurchase{PositionNumber: "2180316803-13", Law: tenderbase.Law223, PlanNumber: "2180316803", PlanVersion: 2,
			Object: "Поставка бумаги", PublishYear: 2025, PublishMonth: 5, Status: tenderbase.PlannedActive,
			PublishedAt: time.Date(2025, 2, 14, 0, 0, 0, 0, time.UTC)})
	if r := runCLI(t, nil, "import", "--db", db, data); r.code != 0 {
		t.Fatalf("import: %s%s", r.stdout, r.stderr)
	}
	got := runCLI(t, nil, "search", "--db", db, "plans", "--filter", "publish_in=2025-03")
	want := "1 found in plans (page 0 of pages 0-0, 20 per page)\n" +
		"2025-02-14  2180316803-12         Ремонт кровли административного здания\n"
	if diff := cmp.Diff(want, got.stdout); diff != "" || got.code != 0 {
		t.Errorf("exit %d (-want +got):\n%s%s", got.code, diff, got.stderr)
	}
}
