package main

import (
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/tenderbase/tenderbase/internal/postgres/pgtest"
)

// The commands work the same on PostgreSQL, named by its URL in --db or
// TENDERBASE_DB: import, search, keys and serve; serve --demo on
// PostgreSQL is in demo_test.go.
func TestPostgresStore(t *testing.T) {
	db := pgtest.URL(t)
	importThenSearch(t, db)

	created := runCLI(t, nil, "keys", "create", "--db", db, "--plan", "standard", "--name", "analytics")
	secret := regexp.MustCompile(`tb_[A-Za-z0-9]+`).FindString(created.stdout)
	if created.code != 0 || secret == "" {
		t.Fatalf("keys create: exit %d\n%s%s", created.code, created.stdout, created.stderr)
	}
	if list := runCLI(t, nil, "keys", "list", "--db", db); list.code != 0 || !strings.Contains(list.stdout, "analytics") {
		t.Errorf("keys list: exit %d\n%s%s", list.code, list.stdout, list.stderr)
	}

	addr, stdout, cancel, exited := startServe(t, "--db", db)
	defer cancel()
	if !strings.Contains(stdout.String(), "(store postgres://") {
		t.Errorf("serve does not name its store by URL:\n%s", stdout)
	}
	req, err := http.NewRequest(http.MethodPost, "http://"+addr+"/mcp/ru/search", strings.NewReader(`{"query": "картриджей"}`))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+secret)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("POST /mcp/ru/search with the key made on PostgreSQL: %d", resp.StatusCode)
	}
	cancel()
	if code := waitExit(t, exited); code != 0 {
		t.Errorf("serve exit %d", code)
	}
}

// A PostgreSQL database that cannot be reached is an error saying so, with
// the URL's password left out.
func TestPostgresUnreachable(t *testing.T) {
	db := "postgres://tenderbase:s3cret@127.0.0.1:1/tenders?sslmode=disable&connect_timeout=2"
	got := runCLI(t, nil, "search", "--db", db, "ru", "x")
	if got.code != 1 || !strings.Contains(got.stderr, "open postgres://tenderbase:xxxxx@127.0.0.1:1/tenders") ||
		strings.Contains(got.stderr, "s3cret") || got.stdout != "" {
		t.Errorf("exit %d, stdout %q, stderr %q; want exit 1 and the redacted URL on stderr", got.code, got.stdout, got.stderr)
	}
}
