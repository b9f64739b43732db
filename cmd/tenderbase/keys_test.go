package main

import (
	"context"
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/sqlite"
)

// createKey runs keys create and returns the secret and the key id it
// printed.
func createKey(t *testing.T, db string, args ...string) (secret, id string) {
	t.Helper()
	return runCreate(t, db, "keys", "k_", args...)
}

// runCreate runs the create subcommand of command (keys, subscriptions)
// and returns the secret it printed on its first line and the id, of
// prefix, on the line "id ...".
func runCreate(t *testing.T, db, command, prefix string, args ...string) (secret, id string) {
	t.Helper()
	res := runCLI(t, nil, append([]string{command, "create", "--db", db}, args...)...)
	if res.code != 0 {
		t.Fatalf("%s create: exit %d\n%s", command, res.code, res.stderr)
	}
	m := regexp.MustCompile(`(?m)^id\s+(` + prefix + `[0-9a-f]{8})$`).FindStringSubmatch(res.stdout)
	if m == nil {
		t.Fatalf("%s create printed no id:\n%s", command, res.stdout)
	}
	return strings.Split(res.stdout, "\n")[0], m[1]
}

// listKeys runs keys list --json.
func listKeys(t *testing.T, db string) []tenderbase.Key {
	t.Helper()
	res := runCLI(t, nil, "keys", "list", "--json", "--db", db)
	if res.code != 0 {
		t.Fatalf("keys list: exit %d\n%s", res.code, res.stderr)
	}
	var keys []tenderbase.Key
	if err := json.Unmarshal([]byte(res.stdout), &keys); err != nil {
		t.Fatalf("keys list --json: %v\n%s", err, res.stdout)
	}
	return keys
}

// authenticate opens the store the way serve does and checks a secret.
func authenticate(t *testing.T, db, secret string) (tenderbase.Key, error) {
	t.Helper()
	s, err := sqlite.Open(context.Background(), db, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	return s.Authenticate(context.Background(), secret)
}

func TestKeysCreate(t *testing.T) {
	db := filepath.Join(t.TempDir(), "keys.db")
	res := runCLI(t, nil, "keys", "create", "--plan", "guru", "--name", "CRM", "--account", "acme",
		"--db", db, "--rate-per-minute", "600", "--row-cap", "-1")
	if res.code != 0 {
		t.Fatalf("exit %d\n%s", res.code, res.stderr)
	}
	lines := strings.Split(strings.TrimSpace(res.stdout), "\n")
	if !regexp.MustCompile(`^tb_[0-9A-Za-z]{43}$`).MatchString(lines[0]) {
		t.Fatalf("first line is not the secret alone: %q", lines[0])
	}
	for _, want := range []string{"name     CRM", "account  acme", "plan     guru", "status   active",
		"limits   600 requests a minute (agreed), 60 at once, no row cap (agreed)"} {
		if !strings.Contains(res.stdout, want+"\n") {
			t.Errorf("stdout lacks %q:\n%s", want, res.stdout)
		}
	}
	if !strings.Contains(res.stderr, "shown only this once") {
		t.Errorf("stderr does not say the secret is shown once:\n%s", res.stderr)
	}
	k, err := authenticate(t, db, lines[0])
	if err != nil {
		t.Fatalf("the printed secret does not open the store: %v", err)
	}
	if k.Overrides != (tenderbase.Limits{RatePerMinute: 600, RowCap: -1}) {
		t.Errorf("overrides %+v", k.Overrides)
	}
}

func TestKeysCreateRefused(t *testing.T) {
	db := filepath.Join(t.TempDir(), "keys.db")
	createKey(t, db, "--plan", "free", "--name", "one", "--account", "acme")
	tests := []struct {
		args     []string
		code     int
		inStderr string
	}{
		{[]string{"--name", "n"}, 2, "--plan and --name are required"},
		{[]string{"--plan", "free"}, 2, "--plan and --name are required"},
		{[]string{"--plan", "gold", "--name", "n"}, 2, `unknown plan "gold"`},
		{[]string{"--plan", "free", "--name", "n", "--burst", "-3"}, 2, "burst must be positive"},
		{[]string{"--plan", "free", "--name", "n", "--account", "acme"}, 1,
			"account acme on plan free has 1 of 1 seats in use; revoke a key or choose a larger plan"},
		{[]string{"--plan", "guru", "--name", "n", "--account", "acme"}, 2, "account acme is on plan free"},
		{[]string{"--plan", "free", "--name", "n", "extra"}, 2, `unexpected argument "extra"`},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			res := runCLI(t, nil, append([]string{"keys", "create", "--db", db}, tt.args...)...)
			if res.code != tt.code || !strings.Contains(res.stderr, tt.inStderr) {
				t.Errorf("exit %d, want %d; stderr lacks %q:\n%s", res.code, tt.code, tt.inStderr, res.stderr)
			}
			if res.stdout != "" {
				t.Errorf("stdout of a refusal: %q", res.stdout)
			}
		})
	}
}

func TestKeysList(t *testing.T) {
	db := filepath.Join(t.TempDir(), "keys.db")
	env := map[string]string{"TENDERBASE_DB": db}
	if res := runCLI(t, env, "keys", "list"); res.code != 1 || !strings.Contains(res.stderr, "no store at "+db) {
		t.Errorf("list without a store: exit %d\n%s", res.code, res.stderr)
	}
	authenticate(t, db, "") // creates the store
	if res := runCLI(t, env, "keys", "list", "--json"); res.code != 0 || res.stdout != "[]\n" {
		t.Errorf("list --json of no keys: exit %d %q", res.code, res.stdout)
	}
	if res := runCLI(t, env, "keys", "list"); res.code != 0 || res.stdout != "" || !strings.Contains(res.stderr, "no keys yet") {
		t.Errorf("list of no keys: exit %d %q %q", res.code, res.stdout, res.stderr)
	}
	secret1, id1 := createKey(t, db, "--plan", "standard", "--name", "first")
	secret2, id2 := createKey(t, db, "--plan", "corporate", "--name", "second key", "--burst", "500")

	res := runCLI(t, env, "keys", "list")
	if res.code != 0 {
		t.Fatalf("exit %d\n%s", res.code, res.stderr)
	}
	lines := strings.Split(strings.TrimSpace(res.stdout), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "ID ") ||
		!strings.HasPrefix(lines[1], id2) || !strings.HasPrefix(lines[2], id1) {
		t.Fatalf("want a header and the keys newest first:\n%s", res.stdout)
	}
	if !strings.Contains(lines[1], "second key") || !strings.Contains(lines[1], "burst=500") ||
		!strings.HasSuffix(lines[2], " -") {
		t.Errorf("rows lack names or overrides:\n%s", res.stdout)
	}
	keys := listKeys(t, db)
	if len(keys) != 2 || keys[0].ID != id2 || keys[0].Overrides.Burst != 500 || keys[1].Plan != tenderbase.PlanStandard {
		t.Errorf("keys list --json: %+v", keys)
	}
	jsonOut := runCLI(t, env, "keys", "list", "--json").stdout
	for _, secret := range []string{secret1, secret2} {
		if strings.Contains(res.stdout+jsonOut, secret[3:]) {
			t.Error("keys list shows a secret")
		}
	}
}

func TestKeysStatus(t *testing.T) {
	db := filepath.Join(t.TempDir(), "keys.db")
	secret, id := createKey(t, db, "--plan", "free", "--name", "bot")
	steps := []struct {
		args     []string
		code     int
		inStdout string
		inStderr string
		opens    bool
	}{
		{[]string{"suspend", id}, 0, id + " (bot, account acct_", "", false},
		{[]string{"resume", id}, 0, "): active", "", true},
		{[]string{"revoke", "--db", db, id}, 0, "): revoked", "", false},
		{[]string{"resume", id}, 2, "", "a revoked key stays revoked", false},
		{[]string{"suspend", "k_00000000"}, 1, "", `no key with id "k_00000000"`, false},
		{[]string{"revoke"}, 2, "", "no key ID given", false},
		{[]string{"revoke", id, id}, 2, "", "unexpected argument", false},
	}
	for _, st := range steps {
		res := runCLI(t, map[string]string{"TENDERBASE_DB": db}, append([]string{"keys"}, st.args...)...)
		if res.code != st.code || !strings.Contains(res.stdout, st.inStdout) || !strings.Contains(res.stderr, st.inStderr) {
			t.Fatalf("keys %v: exit %d, want %d\nstdout %s\nstderr %s", st.args, res.code, st.code, res.stdout, res.stderr)
		}
		if _, err := authenticate(t, db, secret); (err == nil) != st.opens {
			t.Errorf("after keys %v the key opens: %v, want %v", st.args, err == nil, st.opens)
		}
	}
}

func TestKeysLimits(t *testing.T) {
	db := filepath.Join(t.TempDir(), "keys.db")
	env := map[string]string{"TENDERBASE_DB": db}
	_, id := createKey(t, db, "--plan", "standard", "--name", "n", "--burst", "50")
	steps := []struct {
		args []string
		want string
	}{
		{[]string{id}, id + " (plan standard): 120 requests a minute, 50 at once (agreed), 500 rows a query\n"},
		{[]string{id, "--rate-per-minute", "600"}, id + " (plan standard): 600 requests a minute (agreed), 50 at once (agreed), 500 rows a query\n"},
		{[]string{"--burst", "0", "--row-cap", "-1", id}, id + " (plan standard): 600 requests a minute (agreed), 30 at once, no row cap (agreed)\n"},
	}
	for _, st := range steps {
		res := runCLI(t, env, append([]string{"keys", "limits"}, st.args...)...)
		if res.code != 0 || res.stdout != st.want {
			t.Errorf("keys limits %v: exit %d\n got %q\nwant %q\n%s", st.args, res.code, res.stdout, st.want, res.stderr)
		}
	}
	if res := runCLI(t, env, "keys", "limits", id, "--rate-per-minute", "-1"); res.code != 2 {
		t.Errorf("a negative rate: exit %d", res.code)
	}
	if res := runCLI(t, env, "keys", "limits", "k_nope"); res.code != 1 || !strings.Contains(res.stderr, `no key with id "k_nope"`) {
		t.Errorf("an unknown key: exit %d %s", res.code, res.stderr)
	}
}

func TestKeysUsage(t *testing.T) {
	tests := []struct {
		args     []string
		code     int
		inStdout string
		inStderr string
	}{
		{[]string{"keys"}, 2, "", "Usage: tenderbase keys SUBCOMMAND"},
		{[]string{"keys", "-h"}, 0, "", "keys limits ID [flags]"},
		{[]string{"help", "keys"}, 0, "keys create --plan PLAN --name NAME [flags]", ""},
		{[]string{"keys", "rotate"}, 2, "", `unknown subcommand "rotate"`},
		{[]string{"keys", "create", "-h"}, 0, "", "--rate-per-minute R"},
		{[]string{"keys", "list", "--yaml"}, 2, "", "flag provided but not defined: -yaml"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			res := runCLI(t, nil, tt.args...)
			if res.code != tt.code || !strings.Contains(res.stdout, tt.inStdout) || !strings.Contains(res.stderr, tt.inStderr) {
				t.Errorf("exit %d, want %d\nstdout %s\nstderr %s", res.code, tt.code, res.stdout, res.stderr)
			}
		})
	}
}

func TestServeRedisFlag(t *testing.T) {
	for _, tt := range []struct {
		args []string
		env  map[string]string
	}{
		{[]string{"serve", "--redis", "http://127.0.0.1:6379"}, nil},
		{[]string{"serve"}, map[string]string{"TENDERBASE_REDIS": "not a url"}},
	} {
		res := runCLI(t, tt.env, tt.args...)
		if res.code != 2 || !strings.Contains(res.stderr, "tenderbase: --redis: ") {
			t.Errorf("serve %v %v: exit %d, want 2 and a word on --redis\n%s", tt.args, tt.env, res.code, res.stderr)
		}
	}
}

// TestServeWithoutRedis starts with a Redis that does not answer: the
// service must come up all the same.
func TestServeWithoutRedis(t *testing.T) {
	db := filepath.Join(t.TempDir(), "test.db")
	addr, _, cancel, exited := startServe(t, "--db", db, "--redis", "redis://127.0.0.1:1/0")
	defer cancel()
	if status, _ := getJSON(t, "http://"+addr+"/health"); status != 200 {
		t.Errorf("GET /health: %d", status)
	}
	cancel()
	if code := waitExit(t, exited); code != 0 {
		t.Errorf("exit %d after shutdown, want 0", code)
	}
}
