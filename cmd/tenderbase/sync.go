package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/fetch"
	"github.com/tenderbase/tenderbase/internal/freshness"
	"github.com/tenderbase/tenderbase/internal/harvest"
	"github.com/tenderbase/tenderbase/internal/harvest/eisdocs"
	"github.com/tenderbase/tenderbase/internal/harvest/fedresurs"
	rsmpsync "github.com/tenderbase/tenderbase/internal/harvest/rsmp"
	tedsync "github.com/tenderbase/tenderbase/internal/harvest/ted"
	"github.com/tenderbase/tenderbase/internal/harvest/torgicards"
	"github.com/tenderbase/tenderbase/internal/harvest/torgiopen"
	"github.com/tenderbase/tenderbase/internal/importer"
)

// syncConfig is the configuration of the sync command, and of serve --sync.
type syncConfig struct {
	Sources []string // names; every source when empty
	Since   string   // YYYY-MM-DD; where each source is when empty
	Until   string   // YYYY-MM-DD, the last day; up to now when empty
	Regions []int
	Follow  bool
	Every   time.Duration
	// Documents has the files of documentation of the notices fetched
	// and their text read.
	Documents bool
	EIS       eisdocs.Config
	Fedresurs fedresurs.Config
	// eisTokenFile is where the EIS token is read from, when given.
	eisTokenFile string
	eisTypes     string
	// Limits bound what the import of a download reads.
	Limits importer.Limits
	TED    tedsync.Config // on once its first day is given (--ted-since)
	// MaxDownloadBytes bounds every answer of a publisher's service.
	MaxDownloadBytes int64
	// CAFile holds certificates trusted besides the system's; transport
	// is made from it.
	CAFile    string
	transport http.RoundTripper
}

// moscow is the zone the days of a sync are counted in: the EIS's.
var moscow = time.FixedZone("MSK", 3*60*60)

// maxDownloadSetting names the bound of a publisher's answers in the error
// of one past it.
const maxDownloadSetting = "--max-download-bytes, env TENDERBASE_MAX_DOWNLOAD_BYTES"

// defaultEvery is how often a continuous sync runs.
const defaultEvery = 15 * time.Minute

// syncFlags adds the flags of a sync's scope and sources to fs; the error
// is of an environment variable that does not parse.
func (c *cli) syncFlags(fs *flag.FlagSet, sc *syncConfig) error {
	fs.Func("sources", "`NAMES` of the sources to fetch, comma-separated: "+strings.Join(sourceNames(), ", ")+" (default all)", func(s string) error {
		for name := range strings.SplitSeq(s, ",") {
			if name = strings.TrimSpace(name); !slices.Contains(sourceNames(), name) {
				return fmt.Errorf("%q is not a source: use %s", name, strings.Join(sourceNames(), ", "))
			}
			sc.Sources = append(sc.Sources, name)
		}
		return nil
	})
	fs.StringVar(&sc.Since, "since", "", "first `DATE` (YYYY-MM-DD, Moscow) fetched; what was completed is not fetched again (default: a day before where each source is current to, or yesterday)")
	fs.StringVar(&sc.Until, "until", "", "last `DATE` (YYYY-MM-DD, Moscow) fetched, for a backfill (default: up to now)")
	fs.Var(intList{values: &sc.Regions, lo: 1, hi: 99}, "regions", "region `CODES` to fetch, comma-separated (default all)")
	fs.BoolVar(&sc.Documents, "documents", true, "download the files of documentation the notices list and read their text, for docs.search (--documents=false to skip)")
	fs.DurationVar(&sc.Every, "every", defaultEvery, "how often a continuous sync runs: `DURATION`")
	fs.StringVar(&sc.EIS.Endpoint, "eis-endpoint", eisdocs.DefaultEndpoint, "`URL` of the EIS document service")
	fs.StringVar(&sc.Fedresurs.BaseURL, "fedresurs-url", fedresurs.DefaultBaseURL, "`URL` of the fedresurs (EFRSB) REST service; its demo is "+fedresurs.DemoBaseURL)
	fs.DurationVar(&sc.EIS.BlockedWait, "eis-blocked-wait", eisdocs.DefaultBlockedWait,
		"how long to wait, `DURATION`, when the EIS answers that it blocked an archive's downloads for now")
	fs.StringVar(&sc.eisTokenFile, "eis-token-file", "", "`PATH` of a file holding the EIS token (else env TENDERBASE_EIS_TOKEN)")
	fs.StringVar(&sc.eisTypes, "eis-types", "", "EIS `TYPES` to fetch, SUBSYSTEM:documentType comma-separated (default: docs/sync.md)")
	fs.StringVar(&sc.CAFile, "ca-file", c.getenv("TENDERBASE_CA_FILE"),
		"`PATH` of PEM certificates the sync trusts besides the system's, such as the Russian root that the EIS's certificate is issued under (env TENDERBASE_CA_FILE)")
	sc.MaxDownloadBytes = fetch.DefaultMaxBytes
	var sizeErr error
	if v := c.getenv("TENDERBASE_MAX_DOWNLOAD_BYTES"); v != "" {
		if sc.MaxDownloadBytes, sizeErr = parseSize(v); sizeErr != nil {
			sizeErr = fmt.Errorf("TENDERBASE_MAX_DOWNLOAD_BYTES=%s: %v", v, sizeErr)
		}
	}
	fs.Var(byteSize{&sc.MaxDownloadBytes}, "max-download-bytes",
		"the largest answer taken of a publisher's service, an archive or a page: `SIZE` in bytes, or with KiB, MiB or GiB (env TENDERBASE_MAX_DOWNLOAD_BYTES)")
	fs.Func("eis-purchase", "fetch the EIS documents of purchase `NUMBER` now, instead of the walk by day (repeatable)", func(s string) error {
		sc.EIS.Purchases = append(sc.EIS.Purchases, strings.TrimSpace(s))
		return nil
	})
	return errors.Join(sizeErr, c.tedFlags(fs, sc), c.limitFlags(fs, &sc.Limits))
}

// finish reads what the flags left to read: the token, the types, the day.
func (c *cli) finishSync(sc *syncConfig) error {
	sc.EIS.Limits = sc.Limits
	sc.EIS.Token = strings.TrimSpace(c.getenv("TENDERBASE_EIS_TOKEN"))
	sc.Fedresurs.Login = c.getenv("TENDERBASE_FEDRESURS_LOGIN")
	sc.Fedresurs.Password = c.getenv("TENDERBASE_FEDRESURS_PASSWORD")
	if sc.eisTokenFile != "" {
		b, err := os.ReadFile(sc.eisTokenFile)
		if err != nil {
			return tenderbase.Errorf(tenderbase.EINVALID, "read the EIS token: %v", err)
		}
		sc.EIS.Token = strings.TrimSpace(string(b))
	}
	var err error
	if sc.transport, err = fetch.Transport(sc.CAFile); err != nil {
		return tenderbase.Errorf(tenderbase.EINVALID, "--ca-file: %v", err)
	}
	sc.EIS.Fetch.MaxBytes, sc.EIS.Fetch.MaxBytesSetting = sc.MaxDownloadBytes, maxDownloadSetting
	sc.Fedresurs.Fetch.MaxBytes, sc.Fedresurs.Fetch.MaxBytesSetting = sc.MaxDownloadBytes, maxDownloadSetting
	sc.EIS.Transport, sc.Fedresurs.Transport = sc.transport, sc.transport
	if sc.eisTypes != "" {
		for s := range strings.SplitSeq(sc.eisTypes, ",") {
			t, err := eisdocs.ParseType(strings.TrimSpace(s))
			if err != nil {
				return tenderbase.Errorf(tenderbase.EINVALID, "%v", err)
			}
			sc.EIS.Types = append(sc.EIS.Types, t)
		}
	}
	for flag, day := range map[string]string{"since": sc.Since, "until": sc.Until} {
		if _, err := time.ParseInLocation(time.DateOnly, day, moscow); day != "" && err != nil {
			return tenderbase.Errorf(tenderbase.EINVALID, "--%s %q: want a date such as 2026-11-20", flag, day)
		}
	}
	if sc.Since != "" && sc.Until != "" && sc.Until < sc.Since {
		return tenderbase.Errorf(tenderbase.EINVALID, "--until %s is before --since %s", sc.Until, sc.Since)
	}
	return nil
}

// scope returns the scope of a run: from --since, or where each source
// is, to the end of --until, or now.
func (sc syncConfig) scope() harvest.Scope {
	var since, until time.Time
	if sc.Since != "" {
		since, _ = time.ParseInLocation(time.DateOnly, sc.Since, moscow)
	}
	if sc.Until != "" {
		until, _ = time.ParseInLocation(time.DateOnly, sc.Until, moscow)
		until = until.AddDate(0, 0, 1)
	}
	return harvest.Scope{Since: since, Until: until, Regions: sc.Regions}
}

// sources are the publishers a sync fetches from: those --sources names,
// or every one not off.
func sources(sc syncConfig, logger *slog.Logger) []harvest.Source {
	all := everySource(sc, logger)
	if len(sc.Sources) == 0 {
		return slices.DeleteFunc(all, sc.off)
	}
	var chosen []harvest.Source
	for _, s := range all {
		if slices.Contains(sc.Sources, s.Name()) {
			chosen = append(chosen, s)
		}
	}
	return chosen
}

// everySource lists the publishers sync can fetch from, in the order
// they are listed: a new source is one package under internal/harvest and
// one line here. Each is bounded by the download setting and trusts the
// extra certificates.
func everySource(sc syncConfig, logger *slog.Logger) []harvest.Source {
	opendata, cards, ted := torgiopen.DefaultFetch, torgicards.DefaultFetch, tedsync.DefaultFetch
	for _, f := range []*fetch.Config{&opendata, &cards, &ted} {
		f.MaxBytes, f.MaxBytesSetting = sc.MaxDownloadBytes, maxDownloadSetting
	}
	tedConfig := sc.TED
	tedConfig.Fetch, tedConfig.Transport = ted, sc.transport
	return []harvest.Source{
		eisdocs.New(sc.EIS, logger),
		torgiopen.New(torgiopen.Config{Fetch: opendata, Transport: sc.transport}, logger),
		torgicards.New(torgicards.Config{Fetch: cards, Transport: sc.transport}, logger),
		fedresurs.New(sc.Fedresurs, logger),
		tedsync.New(tedConfig, logger),
		rsmpsync.New(rsmpsync.Config{Transport: sc.transport}, logger),
	}
}

// runnable returns the sources of sc that can run, as syncPlan does,
// saying in the log which ones are off for want of an account.
func runnable(sc syncConfig, logger *slog.Logger) []harvest.Source {
	run, off := syncPlan(sc, logger)
	var names []string
	for _, src := range run {
		names = append(names, src.Name())
	}
	missing := accountMissing(sc)
	for _, name := range sourceNames() {
		if why, ok := off[name]; ok && why == missing[name] {
			logger.Warn("sync of "+name+" off until it is given an account", "source", name, "why", why)
		}
	}
	logger.Info("sync on", "sources", strings.Join(names, ","), "every", sc.Every.String())
	return run
}

// syncPlan returns the sources of sc that can run, and why each other one
// is off: a source that needs an account and was given none is left out
// unless --sources names it (its run then fails, saying what is missing);
// the keyless sources run, TED once given its first day.
func syncPlan(sc syncConfig, logger *slog.Logger) (run []harvest.Source, off map[string]string) {
	missing := accountMissing(sc)
	off = map[string]string{}
	chosen := sources(sc, logger)
	for _, src := range chosen {
		if why, ok := missing[src.Name()]; ok && !slices.Contains(sc.Sources, src.Name()) {
			off[src.Name()] = why
			continue
		}
		run = append(run, src)
	}
	for _, name := range sourceNames() {
		if !slices.ContainsFunc(chosen, func(s harvest.Source) bool { return s.Name() == name }) {
			off[name] = "not in --sources"
			if name == "ted" && len(sc.Sources) == 0 {
				off[name] = "no first day: set --ted-since or TENDERBASE_TED_SINCE (docs/sync.md)"
			}
		}
	}
	return run, off
}

// accountMissing says, of the sources that need an account, which sc
// gives none, and what to set.
func accountMissing(sc syncConfig) map[string]string {
	missing := map[string]string{}
	if sc.EIS.Token == "" {
		missing["eis"] = "no token: set TENDERBASE_EIS_TOKEN or --eis-token-file (docs/sync.md)"
	}
	if sc.Fedresurs.Login == "" || sc.Fedresurs.Password == "" {
		missing["fedresurs"] = "no account: set TENDERBASE_FEDRESURS_LOGIN and TENDERBASE_FEDRESURS_PASSWORD (docs/sync.md)"
	}
	return missing
}

// freshnessConfig is what data.freshness and GET /freshness report on:
// every source, whether this server syncs it (syncOn: serve --sync), and
// the secrets that no answer may show.
func freshnessConfig(syncOn bool, sc syncConfig) freshness.Config {
	_, off := syncPlan(sc, nil)
	cfg := freshness.Config{Secrets: []string{sc.EIS.Token, sc.Fedresurs.Password}}
	for _, src := range everySource(sc, nil) {
		syncing := freshness.SyncOn
		switch why, isOff := off[src.Name()]; {
		case !syncOn:
			syncing = "off: this server runs without --sync"
		case isOff:
			syncing = "off: " + why
		}
		cfg.Sources = append(cfg.Sources, freshness.Source{Name: src.Name(), About: src.About(), Syncing: syncing})
	}
	return cfg
}

func sourceNames() []string {
	var names []string
	for _, s := range everySource(syncConfig{}, nil) {
		names = append(names, s.Name())
	}
	return names
}

// runSync fetches from the publishers into the store, once or until
// interrupted, or shows how the sync stands.
func runSync(ctx context.Context, c *cli, args []string) int {
	if len(args) > 0 && args[0] == "status" {
		return runSyncStatus(ctx, c, args[1:])
	}
	cmd, _ := lookupCommand("sync")
	fs := c.newFlagSet(cmd)
	var store storeConfig
	var sc syncConfig
	c.storeFlags(fs, &store, slog.LevelInfo)
	if err := c.syncFlags(fs, &sc); err != nil {
		fmt.Fprintf(c.stderr, "tenderbase sync: %v\n", err)
		return exitUsage
	}
	fs.BoolVar(&sc.Follow, "follow", false, "keep syncing, every --every, until interrupted")
	rest, err := parseArgs(fs, args)
	if err != nil {
		return parseExit(err)
	}
	if len(rest) > 0 {
		fmt.Fprintf(c.stderr, "tenderbase sync: unexpected argument %q (did you mean \"sync status\"?)\n", rest[0])
		return exitUsage
	}
	if err := c.finishSync(&sc); err != nil {
		return c.fail(err)
	}
	logger := store.newLogger(c.stderr)
	st, err := openStore(ctx, store, logger)
	if err != nil {
		return c.fail(err)
	}
	defer st.Close()
	runner, err := newRunner(st, sc, logger)
	if err != nil {
		return c.fail(err)
	}
	runner.Progress = newSyncProgress(c.stderr).show
	srcs := runnable(sc, logger)
	if sc.Follow {
		runner.Follow(ctx, sc.scope(), srcs, sc.Every)
		return exitOK
	}
	if err := runner.Run(ctx, sc.scope(), srcs); err != nil {
		fmt.Fprintln(c.stderr)
		return c.fail(fmt.Errorf("sync: %w (tenderbase sync status shows each source)", err))
	}
	fmt.Fprintln(c.stderr)
	return c.printStatus(ctx, st, false)
}

// newRunner returns a runner into store, which must keep a sync log.
func newRunner(store tenderbase.Store, sc syncConfig, logger *slog.Logger) (*harvest.Runner, error) {
	log, ok := store.(tenderbase.SyncLog)
	if !ok {
		return nil, errors.New("this store keeps no sync log")
	}
	r := &harvest.Runner{Store: store, Log: log, Decoders: formats(), Limits: sc.Limits, Logger: logger}
	if sc.Documents {
		// The publishers' file stores are slower and stricter than their
		// services: one file a second.
		cfg := fetch.Config{Rate: 1, Concurrency: 1, Timeout: 5 * time.Minute}
		r.Documents = &harvest.Documents{Client: fetch.New("documents", cfg, sc.transport, logger)}
	}
	return r, nil
}

// runSyncStatus prints each source's state.
func runSyncStatus(ctx context.Context, c *cli, args []string) int {
	cmd := command{name: "sync status", usage: "sync status [flags]", summary: "show each source's lag, last success and last error"}
	fs := c.newFlagSet(cmd)
	var store storeConfig
	var asJSON bool
	c.storeFlags(fs, &store, slog.LevelWarn)
	fs.BoolVar(&asJSON, "json", false, "print the states as JSON")
	if _, err := parseArgs(fs, args); err != nil {
		return parseExit(err)
	}
	if err := store.mustExist("nothing was synced into it"); err != nil {
		return c.fail(err)
	}
	st, err := openStore(ctx, store, store.newLogger(c.stderr))
	if err != nil {
		return c.fail(err)
	}
	defer st.Close()
	return c.printStatus(ctx, st, asJSON)
}

// missingShown is how many partitions set aside the status lists of a
// source; the count says how many there are.
const missingShown = 100

func (c *cli) printStatus(ctx context.Context, store tenderbase.Store, asJSON bool) int {
	log, ok := store.(tenderbase.SyncLog)
	if !ok {
		return c.fail(errors.New("this store keeps no sync log"))
	}
	now := time.Now()
	rows, err := harvest.Status(ctx, log, sourceNames(), missingShown, now)
	if err != nil {
		return c.fail(err)
	}
	if asJSON {
		enc := json.NewEncoder(c.stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rows); err != nil {
			return c.fail(err)
		}
		return exitOK
	}
	writeStatus(c.stdout, rows, now)
	return exitOK
}

// writeStatus writes the states as a table, and under it the errors and
// rejections in full.
func writeStatus(w io.Writer, rows []harvest.SourceStatus, now time.Time) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "SOURCE\tCURRENT TO\tLAG\tLAST SUCCESS\tPARTITIONS\tFILES\tRECORDS\tNEW\tREJECTED\tDOC TEXTS\tLAST RUN")
	for _, r := range rows {
		if r.NeverRun {
			fmt.Fprintf(tw, "%s\t-\t-\t-\t0\t0\t0\t0\t0\t0\tnever run\n", r.Source)
			continue
		}
		last := "ok"
		if r.LastError != "" {
			last = "failed " + moment(r.LastErrorAt)
		}
		texts := fmt.Sprint(r.Documents)
		if r.DocumentsFailed > 0 {
			texts += fmt.Sprintf(" (%d failed)", r.DocumentsFailed)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%d\t%d\t%d\t%d\t%s\t%s\n", r.Source, moment(r.Through), lag(r.SyncState, now),
			moment(r.LastSuccess), r.Partitions, r.Files, r.Records, r.Inserted, r.Rejected, texts, last)
	}
	tw.Flush()
	for _, r := range rows {
		if r.LastError != "" {
			fmt.Fprintf(w, "\n%s: last error: %s\n", r.Source, r.LastError)
		}
		if r.LastRejection != "" {
			fmt.Fprintf(w, "%s: last document rejected: %s\n", r.Source, r.LastRejection)
		}
		if r.LastDocumentError != "" {
			fmt.Fprintf(w, "%s: last file of documentation not read: %s\n", r.Source, r.LastDocumentError)
		}
		if r.Throttled > 0 {
			fmt.Fprintf(w, "%s: downloads the publisher said to wait for: %d\n", r.Source, r.Throttled)
		}
		writeMissing(w, r)
	}
}

// writeMissing lists a source's partitions set aside: the data missing.
func writeMissing(w io.Writer, r harvest.SourceStatus) {
	if r.SetAside > 0 {
		fmt.Fprintf(w, "%s: data missing: %d partitions set aside, tried again the next run, then daily for a week:\n", r.Source, r.SetAside)
	}
	for _, a := range r.Missing[:min(len(r.Missing), 10)] {
		fmt.Fprintf(w, "  %s  failing since %s, %d tries, next %s: %s\n", a.Partition, moment(a.Since), a.Tries, moment(a.Next), a.Error)
	}
	if n := r.SetAside - int64(min(len(r.Missing), 10)); n > 0 {
		fmt.Fprintf(w, "  and %d more (sync status --json lists %d)\n", n, missingShown)
	}
	if r.GivenUp > 0 {
		fmt.Fprintf(w, "%s: data given up after a week of failures: %d partitions, the last %s\n", r.Source, r.GivenUp, r.LastGivenUp)
	}
}

func moment(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.In(moscow).Format("2006-01-02 15:04 MSK")
}

func lag(s tenderbase.SyncState, now time.Time) string {
	if s.Through.IsZero() {
		return "-"
	}
	return s.Lag(now).Truncate(time.Minute).String()
}

// syncProgress shows each source's progress on one line of a terminal,
// and nothing elsewhere: the log says it there.
type syncProgress struct {
	w    io.Writer
	on   bool
	mu   sync.Mutex
	by   map[string]harvest.Progress
	last time.Time
}

func newSyncProgress(w io.Writer) *syncProgress {
	return &syncProgress{w: w, on: isTerminal(w), by: map[string]harvest.Progress{}}
}

func (p *syncProgress) show(source string, pr harvest.Progress) {
	if !p.on {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.by[source] = pr
	if time.Since(p.last) < 200*time.Millisecond {
		return
	}
	p.last = time.Now()
	var parts []string
	for _, name := range slices.Sorted(maps.Keys(p.by)) {
		s := p.by[name]
		parts = append(parts, fmt.Sprintf("%s %d/%d partitions, %d files", name, s.Done, s.Total, s.Files))
	}
	fmt.Fprintf(p.w, "\r\033[Ksyncing: %s", strings.Join(parts, "; "))
}
