package main

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/freshness"
	"github.com/tenderbase/tenderbase/internal/harvest"
	"github.com/tenderbase/tenderbase/internal/harvest/eisdocs"
	"github.com/tenderbase/tenderbase/internal/harvest/eisdocs/eistest"
	"github.com/tenderbase/tenderbase/internal/postgres/pgtest"
	"github.com/tenderbase/tenderbase/internal/sqlite"
)

const eisFixtures = "../../internal/source/eis/testdata/"

// eisDay returns a recorded EIS service publishing 2026-11-20 in regions
// 03, 08 and 77, and the sync arguments that fetch that day from it.
func eisDay(t *testing.T, db string) (*eistest.Service, []string) {
	s := eistest.New(t, "good-token")
	d := "/2026-11-20"
	s.Add("08/PRIZ/epNotificationEOK2020"+d, eisFixtures+"notice/epNotificationEOK2020_0811200000126000042_1.xml")
	s.Add("08/PRIZ/epNotificationEOK2020"+d, eisFixtures+"notice/epNotificationEOK2020_0811200000126000057_1.xml")
	s.Add("03/PRIZ/epNotificationEZK2020"+d, eisFixtures+"notice/epNotificationEZK2020_0301300012426000118_3.xml")
	s.Add("77/RJ/complaint"+d, eisFixtures+"complaint/complaint_202400114801003_41977215.xml")
	return s, []string{"sync", "--db", db, "--sources", "eis", "--documents=false", "--since", "2026-11-20", "--until", "2026-11-20", "--regions", "3,8,77",
		"--eis-endpoint", s.URL(), "--eis-types", "PRIZ:epNotificationEOK2020,PRIZ:epNotificationEZK2020,RJ:complaint"}
}

var goodToken = map[string]string{"TENDERBASE_EIS_TOKEN": "good-token"}

// A sync fetches a day from the EIS into the store, where search finds it,
// and status tells how it went.
func TestSyncThenSearch(t *testing.T) {
	db := filepath.Join(t.TempDir(), "store.db")
	_, args := eisDay(t, db)
	if got := runCLI(t, goodToken, args...); got.code != 0 {
		t.Fatalf("sync: exit %d\n%s%s", got.code, got.stdout, got.stderr)
	}
	if got := runCLI(t, nil, "search", "--db", db, "ru", "кровли"); got.code != 0 || !strings.Contains(got.stdout, "0811200000126000042") {
		t.Errorf("search after sync: exit %d\n%s%s", got.code, got.stdout, got.stderr)
	}
	if got := runCLI(t, nil, "search", "--db", db, "complaints"); !strings.HasPrefix(got.stdout, "1 found") {
		t.Errorf("complaints after sync:\n%s%s", got.stdout, got.stderr)
	}
	status := syncStatus(t, db)
	if status.LastError != "" || status.Files != 4 || status.Inserted == 0 || status.LagSeconds <= 0 {
		t.Errorf("status %+v", status)
	}
	text := runCLI(t, nil, "sync", "status", "--db", db)
	if text.code != 0 || !strings.Contains(text.stdout, "eis ") || !strings.Contains(text.stdout, "CURRENT TO") {
		t.Errorf("sync status:\n%s%s", text.stdout, text.stderr)
	}
}

// A sync with a token the EIS refuses fails, says why in its status, and
// never shows the token.
func TestSyncRefusedTokenInStatus(t *testing.T) {
	db := filepath.Join(t.TempDir(), "store.db")
	_, args := eisDay(t, db)
	got := runCLI(t, map[string]string{"TENDERBASE_EIS_TOKEN": "expired-token"}, args...)
	if got.code != exitFailure || !strings.Contains(got.stderr, "refused the token") {
		t.Errorf("sync with a refused token: exit %d\n%s", got.code, got.stderr)
	}
	text := runCLI(t, nil, "sync", "status", "--db", db)
	if !strings.Contains(text.stdout, "eis: last error: the EIS refused the token (error 5") {
		t.Errorf("status does not say the token was refused:\n%s", text.stdout)
	}
	if strings.Contains(got.stderr+text.stdout, "expired-token") {
		t.Error("the token was shown")
	}
}

// A sync killed in the middle of a day, restarted, completes the day with
// every document stored once.
func TestSyncKilledAndRestarted(t *testing.T) {
	dir := t.TempDir()
	bin := buildBinary(t, dir)
	db := filepath.Join(dir, "store.db")
	svc, args := eisDay(t, db)
	arrived := make(chan struct{})
	svc.Inject(eistest.Fault{Prefix: "/archive/" + eistest.ArchiveID("08/PRIZ/epNotificationEOK2020/2026-11-20", 1),
		Do: func(w http.ResponseWriter, r *http.Request) {
			close(arrived)
			<-r.Context().Done()
		}})
	cmd := exec.Command(bin, args...)
	// Killed, the sync cannot remove its folder of downloads: it goes
	// into the test's own.
	cmd.Env = append(os.Environ(), "TENDERBASE_EIS_TOKEN=good-token", "TMPDIR="+t.TempDir())
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-arrived:
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		t.Fatal("the sync never reached the second archive")
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()

	if got := runCLI(t, goodToken, args...); got.code != 0 {
		t.Fatalf("sync after kill -9: exit %d\n%s%s", got.code, got.stdout, got.stderr)
	}
	store, err := sqlite.Open(context.Background(), db, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	for _, number := range []string{"0811200000126000042", "0811200000126000057", "0301300012426000118"} {
		versions, err := store.Versions(context.Background(), tenderbase.KindTender, number)
		if err != nil || len(versions) != 1 {
			t.Errorf("tender %s: %d versions, %v; want 1", number, len(versions), err)
		}
	}
	if status := syncStatus(t, db); status.LastError != "" {
		t.Errorf("status after the restart: %+v", status)
	}
}

// syncStatus returns the EIS source's status.
func syncStatus(t *testing.T, db string) harvest.SourceStatus {
	t.Helper()
	got := runCLI(t, nil, "sync", "status", "--json", "--db", db)
	var rows []harvest.SourceStatus
	if err := json.Unmarshal([]byte(got.stdout), &rows); err != nil {
		t.Fatalf("sync status --json: %v\n%s%s", err, got.stdout, got.stderr)
	}
	for _, r := range rows {
		if r.Source == "eis" {
			return r
		}
	}
	t.Fatalf("sync status has no eis: %s", got.stdout)
	return harvest.SourceStatus{}
}

// serve --sync keeps the store current while it serves, with the token
// read from a file, and stops with the server.
func TestServeSync(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "store.db")
	_, args := eisDay(t, db)
	tokenFile := filepath.Join(dir, "token")
	if err := os.WriteFile(tokenFile, []byte("good-token\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	serveArgs := append([]string{"--sync", "--eis-token-file", tokenFile}, args[1:]...)
	_, _, cancel, exited := startServe(t, serveArgs...)
	defer cancel()
	deadline := time.Now().Add(60 * time.Second)
	for syncStatus(t, db).Files < 4 {
		if time.Now().After(deadline) {
			t.Fatalf("serve --sync did not fetch the day: %+v", syncStatus(t, db))
		}
		time.Sleep(100 * time.Millisecond)
	}
	if got := runCLI(t, nil, "search", "--db", db, "ru", "кровли"); !strings.Contains(got.stdout, "0811200000126000042") {
		t.Errorf("search while serving:\n%s%s", got.stdout, got.stderr)
	}
	cancel()
	if code := waitExit(t, exited); code != 0 {
		t.Errorf("serve --sync exit %d", code)
	}
}

// serve --sync is turned on by TENDERBASE_SYNC too; the flag overrides it,
// and a value that is no truth value is a usage error.
func TestServeSyncFromEnvironment(t *testing.T) {
	for _, tt := range []struct {
		env  string
		args []string
		want bool
		code int
	}{
		{"", nil, false, exitOK},
		{"true", nil, true, exitOK},
		{"1", nil, true, exitOK},
		{"On", nil, true, exitOK},
		{"false", nil, false, exitOK},
		{"off", []string{"--sync"}, true, exitOK},
		{"true", []string{"--sync=false"}, false, exitOK},
		{"sometimes", nil, false, exitUsage},
	} {
		var stderr strings.Builder
		env := map[string]string{"TENDERBASE_SYNC": tt.env}
		c := &cli{stdout: io.Discard, stderr: &stderr, getenv: func(k string) string { return env[k] }}
		cfg, code, ok := c.parseServe(tt.args)
		if code != tt.code || ok != (tt.code == exitOK) || (ok && cfg.Sync != tt.want) {
			t.Errorf("TENDERBASE_SYNC=%q %v: sync %v, exit %d; want %v, exit %d; %s", tt.env, tt.args, cfg.Sync, code, tt.want, tt.code, stderr.String())
		}
	}
}

// A source that needs an account and has none is left out of a sync,
// saying so in the log, unless named; the keyless ones run.
func TestRunnableSources(t *testing.T) {
	for _, tt := range []struct {
		sc   syncConfig
		want []string
		log  []string
	}{
		{syncConfig{}, []string{"torgi", "torgi-cards", "rsmp"}, []string{"sync of eis off", "TENDERBASE_EIS_TOKEN", "sync of fedresurs off", `"msg":"sync on"`}},
		{syncConfig{EIS: eisdocs.Config{Token: "t"}}, []string{"eis", "torgi", "torgi-cards", "rsmp"}, []string{"sync of fedresurs off"}},
		{syncConfig{Sources: []string{"eis"}}, []string{"eis"}, nil},
	} {
		var log strings.Builder
		var names []string
		for _, s := range runnable(tt.sc, slog.New(slog.NewJSONHandler(&log, nil))) {
			names = append(names, s.Name())
		}
		if !slices.Equal(names, tt.want) {
			t.Errorf("%+v: sources %v, want %v", tt.sc.Sources, names, tt.want)
		}
		for _, w := range tt.log {
			if !strings.Contains(log.String(), w) {
				t.Errorf("the log does not say %q:\n%s", w, log.String())
			}
		}
	}
}

// The bound of a publisher's answer is a setting, named in the error of
// an answer past it; a bound that does not parse, or a file of
// certificates that holds none, is refused at start.
func TestSyncDownloadBound(t *testing.T) {
	db := filepath.Join(t.TempDir(), "store.db")
	_, args := eisDay(t, db)
	env := map[string]string{"TENDERBASE_EIS_TOKEN": "good-token", "TENDERBASE_MAX_DOWNLOAD_BYTES": "100"}
	got := runCLI(t, env, args...)
	if got.code != exitFailure || !strings.Contains(got.stderr, "larger than 100 bytes (--max-download-bytes, env TENDERBASE_MAX_DOWNLOAD_BYTES)") {
		t.Errorf("sync with a bound of 100 bytes: exit %d\n%s", got.code, got.stderr)
	}
	// Every partition failed, set aside: the status says which data is missing.
	text := runCLI(t, nil, "sync", "status", "--db", db)
	if !strings.Contains(text.stdout, "eis: data missing: 9 partitions set aside") ||
		!strings.Contains(text.stdout, "  03/PRIZ/epNotificationEOK2020/2026-11-20  failing since") || !strings.Contains(text.stdout, "larger than 100 bytes") {
		t.Errorf("sync status does not name the data missing:\n%s", text.stdout)
	}
	if st := syncStatus(t, db); st.SetAside != 9 || len(st.Missing) != 9 || st.Missing[0].Tries != 1 {
		t.Errorf("sync status --json: %d set aside, %+v", st.SetAside, st.Missing)
	}
	_, args = eisDay(t, filepath.Join(t.TempDir(), "store.db"))
	if got := runCLI(t, env, append(args, "--max-download-bytes", "1KiB")...); got.code != exitFailure || !strings.Contains(got.stderr, "more than the 1024 bytes taken") {
		t.Errorf("the flag over the environment: exit %d\n%s", got.code, got.stderr)
	}
	env["TENDERBASE_MAX_DOWNLOAD_BYTES"] = "lots"
	if got := runCLI(t, env, args...); got.code != exitUsage || !strings.Contains(got.stderr, "TENDERBASE_MAX_DOWNLOAD_BYTES=lots") {
		t.Errorf("a bound that does not parse: exit %d\n%s", got.code, got.stderr)
	}
	bad := filepath.Join(t.TempDir(), "ca.pem")
	os.WriteFile(bad, []byte("no certificate"), 0o600)
	if got := runCLI(t, goodToken, append(args, "--ca-file", bad)...); got.code == exitOK || !strings.Contains(got.stderr, "no PEM certificate") {
		t.Errorf("a file of no certificates: exit %d\n%s", got.code, got.stderr)
	}
}

// The shipped unit and compose file run serve with the sync on, and
// without a token the EIS is off, the log saying so at start.
func TestDeployRunsTheSync(t *testing.T) {
	unit, err := os.ReadFile("../../deploy/tenderbase.service")
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{}
	for line := range strings.Lines(string(unit)) {
		if kv, ok := strings.CutPrefix(strings.TrimSpace(line), "Environment="); ok {
			k, v, _ := strings.Cut(kv, "=")
			env[k] = v
		}
	}
	c := &cli{stdout: io.Discard, stderr: io.Discard, getenv: func(k string) string { return env[k] }}
	cfg, _, ok := c.parseServe(nil)
	if !ok || !cfg.Sync {
		t.Errorf("the unit's environment %v: sync %v, want on", env, cfg.Sync)
	}
	var log strings.Builder
	runnable(cfg.SyncConfig, slog.New(slog.NewJSONHandler(&log, nil)))
	if !strings.Contains(log.String(), "sync of eis off until it is given an account") {
		t.Errorf("the log at start does not say the EIS is off:\n%s", log.String())
	}
	compose, err := os.ReadFile("../../compose.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(compose), `TENDERBASE_SYNC: "true"`); n != 2 {
		t.Errorf("compose.yaml turns the sync on in %d services, want both of tenderbase", n)
	}
}

// The wait for a download the EIS blocked is a setting, 10 minutes and
// 10 seconds unless given.
func TestEISBlockedWait(t *testing.T) {
	c := &cli{stdout: io.Discard, stderr: io.Discard, getenv: func(string) string { return "" }}
	for _, tt := range []struct {
		args []string
		want time.Duration
	}{
		{nil, 10*time.Minute + 10*time.Second},
		{[]string{"--eis-blocked-wait", "90s"}, 90 * time.Second},
	} {
		cfg, _, ok := c.parseServe(tt.args)
		if !ok || cfg.SyncConfig.EIS.BlockedWait != tt.want {
			t.Errorf("%v: wait %v, want %v", tt.args, cfg.SyncConfig.EIS.BlockedWait, tt.want)
		}
	}
}

// The freshness that serve reports says of every source whether this
// server syncs it, and why not, as the sync runs them; and it is given
// the secrets that no answer may show.
func TestFreshnessSyncing(t *testing.T) {
	noAccount := "off: no account: set TENDERBASE_FEDRESURS_LOGIN and TENDERBASE_FEDRESURS_PASSWORD (docs/sync.md)"
	noDay := "off: no first day: set --ted-since or TENDERBASE_TED_SINCE (docs/sync.md)"
	noSync := "off: this server runs without --sync"
	for _, tt := range []struct {
		on   bool
		sc   syncConfig
		want []string // eis, torgi, torgi-cards, fedresurs, ted, rsmp
	}{
		{false, syncConfig{EIS: eisdocs.Config{Token: "t0k3n-abc"}}, []string{noSync, noSync, noSync, noSync, noSync, noSync}},
		{true, syncConfig{EIS: eisdocs.Config{Token: "t0k3n-abc"}}, []string{"on", "on", "on", noAccount, noDay, "on"}},
		{true, syncConfig{}, []string{"off: no token: set TENDERBASE_EIS_TOKEN or --eis-token-file (docs/sync.md)", "on", "on", noAccount, noDay, "on"}},
		{true, syncConfig{Sources: []string{"eis", "ted"}}, []string{"on", "off: not in --sources", "off: not in --sources", "off: not in --sources", "on", "off: not in --sources"}},
	} {
		cfg := freshnessConfig(tt.on, tt.sc)
		var names, syncing []string
		for _, s := range cfg.Sources {
			names, syncing = append(names, s.Name), append(syncing, s.Syncing)
			if s.About.Fetches == "" || s.About.StaleAfter <= 0 || len(s.About.Kinds) == 0 {
				t.Errorf("%s says nothing of itself: %+v", s.Name, s.About)
			}
		}
		if !slices.Equal(names, sourceNames()) || !slices.Equal(syncing, tt.want) {
			t.Errorf("sync %v, sources %v: %v %q; want %q", tt.on, tt.sc.Sources, names, syncing, tt.want)
		}
		if tt.sc.EIS.Token != "" && !slices.Contains(cfg.Secrets, tt.sc.EIS.Token) {
			t.Errorf("the EIS token is not among the secrets %q", cfg.Secrets)
		}
	}
}

// serve answers GET /freshness with the figures sync status gives, on
// both stores: a sync whose every partition was set aside is stale, its
// data missing named, and this server, run without --sync, says it does
// not sync it.
func TestFreshnessServed(t *testing.T) {
	for name, db := range map[string]string{"sqlite": filepath.Join(t.TempDir(), "store.db"), "postgres": pgtest.URL(t)} {
		t.Run(name, func(t *testing.T) {
			_, args := eisDay(t, db)
			env := map[string]string{"TENDERBASE_EIS_TOKEN": "good-token", "TENDERBASE_MAX_DOWNLOAD_BYTES": "100"}
			if got := runCLI(t, env, args...); got.code != exitFailure {
				t.Fatalf("sync with a bound of 100 bytes: exit %d\n%s", got.code, got.stderr)
			}
			status := syncStatus(t, db)
			created := runCLI(t, nil, "keys", "create", "--db", db, "--plan", "free", "--name", "monitor")
			secret := regexp.MustCompile(`tb_[A-Za-z0-9]+`).FindString(created.stdout)
			addr, _, _, cancel, exited := startServeEnv(t, env, "--db", db)
			defer func() { cancel(); waitExit(t, exited) }()
			req, err := http.NewRequest(http.MethodGet, "http://"+addr+"/freshness?source=eis", nil)
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Authorization", "Bearer "+secret)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			body, _ := io.ReadAll(resp.Body)
			var rep freshness.Report
			if err := json.Unmarshal(body, &rep); err != nil || resp.StatusCode != http.StatusOK || len(rep.Sources) != 1 {
				t.Fatalf("GET /freshness?source=eis: %d %s", resp.StatusCode, body)
			}
			eis := rep.Sources[0]
			if eis.State != freshness.StateStale || eis.SetAside != status.SetAside || eis.SetAside != 9 || eis.MissingMore != 0 ||
				!eis.LastErrorAt.Equal(status.LastErrorAt.Truncate(time.Second)) || eis.Syncing != "off: this server runs without --sync" ||
				!strings.HasPrefix(eis.Missing[0], "03/*: 3 partitions 2026-11-20, failing since ") {
				t.Errorf("the freshness of eis against its status %+v:\n%s", status, body)
			}
			if strings.Contains(string(body), "good-token") {
				t.Errorf("the answer shows the token:\n%s", body)
			}
		})
	}
}
