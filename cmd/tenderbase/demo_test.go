package main

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/postgres/pgtest"
)

// demoStores names a fresh store of each kind, as --db takes it.
var demoStores = map[string]func(t *testing.T) string{
	"sqlite":   func(t *testing.T) string { return filepath.Join(t.TempDir(), "store.db") },
	"postgres": func(t *testing.T) string { return pgtest.URL(t) },
}

// demoKeyLine matches a line of serve --demo that prints a demo key: its
// plan, and the secret of a new key or the id of one kept.
var demoKeyLine = regexp.MustCompile(`(?m)^demo key (\w+): (tb_\S+|k_\S+, kept from an earlier run)`)

// serveDemo runs serve --demo with args and env until it listens, stops
// it, and returns what it printed.
func serveDemo(t *testing.T, env map[string]string, args ...string) (stdout, stderr string) {
	t.Helper()
	_, out, errOut, cancel, exited := startServeEnv(t, env, append([]string{"--demo"}, args...)...)
	cancel()
	if code := waitExit(t, exited); code != 0 {
		t.Fatalf("serve --demo exit %d:\n%s", code, errOut)
	}
	return out.String(), errOut.String()
}

// TestServeDemoIgnoresEnvDB checks that serve --demo leaves the store that
// TENDERBASE_DB names alone, without --db on its command line, and says so.
func TestServeDemoIgnoresEnvDB(t *testing.T) {
	for name, newDB := range demoStores {
		t.Run(name, func(t *testing.T) {
			db := newDB(t)
			createKey(t, db, "--plan", "standard", "--name", "production")
			stdout, stderr := serveDemo(t, map[string]string{"TENDERBASE_DB": db})
			if !strings.Contains(stderr, "TENDERBASE_DB is ignored without --db on the command line") {
				t.Errorf("the log does not say TENDERBASE_DB is ignored:\n%s", stderr)
			}
			if !strings.Contains(stdout, "(store "+os.TempDir()) || len(demoKeyLine.FindAllString(stdout, -1)) != len(tenderbase.PlanNames) {
				t.Errorf("the demo is not served from a temporary store with new keys:\n%s", stdout)
			}
			if keys := listKeys(t, db); len(keys) != 1 || keys[0].Name != "production" {
				t.Errorf("the keys of the store TENDERBASE_DB names: %+v", keys)
			}
			if got := runCLI(t, nil, "search", "--db", db, "ru"); got.code != 0 || !strings.HasPrefix(got.stdout, "0 found") {
				t.Errorf("the store TENDERBASE_DB names got records:\n%s%s", got.stdout, got.stderr)
			}
		})
	}
}

// TestServeDemoRefusesOtherData checks that serve --demo --db refuses a
// store holding records or keys that are not the demo's, and changes
// nothing in it.
func TestServeDemoRefusesOtherData(t *testing.T) {
	for name, newDB := range demoStores {
		t.Run(name, func(t *testing.T) {
			records := newDB(t)
			if res := runCLI(t, nil, "import", "--db", records, tenders(t, t.TempDir(), "Ремонт кровли", "Поставка бумаги")); res.code != 0 {
				t.Fatalf("import: exit %d\n%s", res.code, res.stderr)
			}
			keys := newDB(t)
			_, id := createKey(t, keys, "--plan", "guru", "--name", "analytics")
			for _, c := range []struct {
				db, says string
				keys     int
			}{
				{records, "(2 tender records)", 0},
				{keys, `(key ` + id + ` "analytics")`, 1},
			} {
				res := serveRefused(t, "--demo", "--db", c.db)
				if res.code != 1 || !strings.Contains(res.stderr, "holds data that is not the demo's "+c.says) ||
					!strings.Contains(res.stderr, "leave out --db to serve the demo from a temporary store") || strings.Contains(res.stdout, "demo key") {
					t.Errorf("serve --demo --db %s: exit %d, want 1 saying %s\n%s%s", c.db, res.code, c.says, res.stdout, res.stderr)
				}
				if got := listKeys(t, c.db); len(got) != c.keys {
					t.Errorf("%d keys after the refusal, want %d: %+v", len(got), c.keys, got)
				}
			}
			if got := runCLI(t, nil, "search", "--db", records, "complaints"); got.code != 0 || !strings.HasPrefix(got.stdout, "0 found") {
				t.Errorf("the refused store got the demo's records:\n%s%s", got.stdout, got.stderr)
			}
		})
	}
}

// serveRefused runs serve with args, which should fail before it
// listens, and returns what it said; one that listens is stopped, and
// the test fails.
func serveRefused(t *testing.T, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	stdout, stderr := &syncBuffer{}, &syncBuffer{}
	done := make(chan int, 1)
	c := &cli{stdout: stdout, stderr: stderr, getenv: func(string) string { return "" }}
	go func() { done <- run(ctx, append([]string{"serve", "--addr", "127.0.0.1:0"}, args...), c) }()
	for {
		select {
		case code := <-done:
			return result{code, stdout.String(), stderr.String()}
		case <-time.After(10 * time.Millisecond):
		}
		if strings.Contains(stdout.String(), "listening on http://") {
			cancel()
			t.Errorf("serve %s listens, want it refused", strings.Join(args, " "))
			<-done
			return result{0, stdout.String(), stderr.String()}
		}
	}
}

// TestServeDemoKeepsKeys checks that serve --demo --db, started again,
// keeps the demo's keys instead of adding more, and makes a new one for
// a plan whose demo key was revoked.
func TestServeDemoKeepsKeys(t *testing.T) {
	for name, newDB := range demoStores {
		t.Run(name, func(t *testing.T) {
			db := newDB(t)
			first, _ := serveDemo(t, nil, "--db", db)
			made := demoKeyLine.FindAllStringSubmatch(first, -1)
			if len(made) != len(tenderbase.PlanNames) || !strings.HasPrefix(made[0][2], "tb_") {
				t.Fatalf("the first run's keys:\n%s", first)
			}
			keys := listKeys(t, db)
			again, _ := serveDemo(t, nil, "--db", db)
			for _, k := range keys {
				if !strings.Contains(again, "demo key "+string(k.Plan)+": "+k.ID+", kept from an earlier run") {
					t.Errorf("the second run does not name the kept key %s of %s:\n%s", k.ID, k.Plan, again)
				}
			}
			if strings.Contains(again, "tb_") || len(listKeys(t, db)) != len(keys) {
				t.Errorf("the second run made keys:\n%s", again)
			}
			if got := runCLI(t, nil, "search", "--db", db, "complaints"); got.code != 0 || strings.HasPrefix(got.stdout, "0 found") {
				t.Errorf("the store lacks the demo's records:\n%s%s", got.stdout, got.stderr)
			}

			i := slices.IndexFunc(keys, func(k tenderbase.Key) bool { return k.Plan == tenderbase.PlanFree })
			if res := runCLI(t, nil, "keys", "revoke", "--db", db, keys[i].ID); res.code != 0 {
				t.Fatalf("keys revoke: exit %d\n%s", res.code, res.stderr)
			}
			third, _ := serveDemo(t, nil, "--db", db)
			if !regexp.MustCompile(`(?m)^demo key free: tb_`).MatchString(third) || strings.Count(third, "kept from an earlier run") != len(keys)-1 {
				t.Errorf("after the free key was revoked:\n%s", third)
			}
			if n := len(listKeys(t, db)); n != len(keys)+1 {
				t.Errorf("%d keys after the third run, want %d", n, len(keys)+1)
			}
		})
	}
}
