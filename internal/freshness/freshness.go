// Package freshness says how current the store's data is, in one screen:
// for each sync source what its data is current to, the lag, the last
// success and the last error, and the data set aside because its
// partitions keep failing; and for each kind of record the newest one the
// store holds, which dates what was imported by hand too. The MCP tool
// data.freshness and GET /freshness answer it, so that an agent that finds
// no new tenders can tell whether none were published or the data is stale.
//
// It reads the sources' states as `tenderbase sync status` does
// (harvest.Status), so that both give the same figures.
package freshness

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/harvest"
)

// Source is a source the report covers, as cmd wires it.
type Source struct {
	Name  string
	About harvest.About
	// Syncing says whether this server syncs the source now: SyncOn, or
	// "off: " and why not.
	Syncing string
}

// SyncOn is Source.Syncing of a source this server syncs.
const SyncOn = "on"

// Config is what a report needs besides the store.
type Config struct {
	// Sources are every source of the build, in the order the sync lists
	// them; a report of none says only what the store holds.
	Sources []Source
	// Secrets are removed from every message a report shows (the EIS
	// token, a password), besides what RedactText removes by its shape.
	Secrets []string
	// Now is the clock; time.Now when nil.
	Now func() time.Time
}

// Kinds are the kinds of records a report dates, the newest of each: those
// that the search tools find and the sources fill.
var Kinds = []tenderbase.Kind{
	tenderbase.KindTender, tenderbase.KindProtocol, tenderbase.KindContract, tenderbase.KindComplaint,
	tenderbase.KindUnfairSupplier, tenderbase.KindPlannedPurchase, tenderbase.KindDoc,
	tenderbase.KindWorldTender, tenderbase.KindLot, tenderbase.KindOrg,
}

// Report is how current the data is.
type Report struct {
	CheckedAt time.Time      `json:"checked_at"`
	Sources   []SourceReport `json:"sources" jsonschema:"Each sync source."`
	Newest    []KindNewest   `json:"newest" jsonschema:"Per kind of record, the newest the store holds, synced or imported."`
	Next      string         `json:"next"`
}

// SourceReport is one source's part of a report.
type SourceReport struct {
	Name    string `json:"name"`
	Fetches string `json:"fetches"`
	Syncing string `json:"syncing" jsonschema:"Whether this server syncs it now: on, or off and why."`
	// State is StateCurrent, StateStale or StateNeverRun.
	State       string    `json:"state" jsonschema:"current, stale (behind more than normal), or never run."`
	CurrentTo   time.Time `json:"current_to,omitzero" jsonschema:"Every partition up to here was fetched."`
	Lag         string    `json:"lag,omitempty" jsonschema:"How far behind now current_to is."`
	LastSuccess time.Time `json:"last_success,omitzero"`
	LastError   string    `json:"last_error,omitempty" jsonschema:"Why the last run failed; absent after a run without error."`
	LastErrorAt time.Time `json:"last_error_at,omitzero"`
	// SetAside counts the partitions set aside, whose data is missing;
	// Missing names them in groups, MissingMore counts those it leaves out.
	SetAside    int64    `json:"set_aside,omitempty" jsonschema:"Partitions that keep failing, retried daily for a week: their data is missing."`
	Missing     []string `json:"missing,omitempty"`
	MissingMore int64    `json:"missing_more,omitempty"`
	GivenUp     int64    `json:"given_up,omitempty" jsonschema:"Partitions set aside that failed for a week and are no longer tried."`
	Throttled   int64    `json:"throttled,omitempty" jsonschema:"Downloads the publisher said to wait for."`
}

// The states of a source.
const (
	StateCurrent  = "current"
	StateStale    = "stale"
	StateNeverRun = "never run"
)

// KindNewest is the newest record of a kind the store holds.
type KindNewest struct {
	Kind    tenderbase.Kind `json:"kind"`
	Records int             `json:"records"`
	Newest  time.Time       `json:"newest,omitzero" jsonschema:"Its date (a tender's publication); absent when the store holds none."`
	Age     string          `json:"age,omitempty" jsonschema:"How long before now that was."`
}

// What a report reads and shows of the partitions set aside.
const (
	asideRead   = 1000 // of each source's, to group them
	groupsShown = 4    // groups named
	errorShown  = 240  // characters of an error
)

// Build reports on the store's data; only, when not "", narrows it to
// that source and the kinds it fills. The store must keep a sync log for
// a report on sources; one without shows every source as never run.
func Build(ctx context.Context, store tenderbase.Store, cfg Config, only string) (Report, error) {
	now := time.Now()
	if cfg.Now != nil {
		now = cfg.Now()
	}
	sources, err := chosen(cfg.Sources, only)
	if err != nil {
		return Report{}, err
	}
	rep := Report{CheckedAt: utc(now), Sources: []SourceReport{}}
	statuses, err := status(ctx, store, sources, now)
	if err != nil {
		return Report{}, err
	}
	for i, src := range sources {
		rep.Sources = append(rep.Sources, cfg.sourceReport(src, statuses[i], now))
	}
	if rep.Newest, err = newest(ctx, store, kindsOf(sources, only), now); err != nil {
		return Report{}, err
	}
	rep.Next = next(rep)
	return rep, nil
}

// chosen returns the sources, or the one named only.
func chosen(sources []Source, only string) ([]Source, error) {
	if only == "" {
		return sources, nil
	}
	var names []string
	for _, s := range sources {
		if s.Name == only {
			return []Source{s}, nil
		}
		names = append(names, s.Name)
	}
	return nil, tenderbase.Errorf(tenderbase.EINVALID, "no source %s; the sources are %s", tenderbase.Quote(only), strings.Join(names, ", "))
}

// status returns the sync log's state of each source.
func status(ctx context.Context, store tenderbase.Store, sources []Source, now time.Time) ([]harvest.SourceStatus, error) {
	names := make([]string, len(sources))
	for i, s := range sources {
		names[i] = s.Name
	}
	log, ok := tenderbase.StoreAs[tenderbase.SyncLog](store)
	if !ok {
		rows := make([]harvest.SourceStatus, len(names))
		for i, name := range names {
			rows[i] = harvest.SourceStatus{SyncState: tenderbase.SyncState{Source: name}, NeverRun: true}
		}
		return rows, nil
	}
	rows, err := harvest.Status(ctx, log, names, asideRead, now)
	if err != nil {
		return nil, fmt.Errorf("read the sync log: %w", err)
	}
	return rows, nil
}

// sourceReport is what a report shows of a source's status.
func (cfg Config) sourceReport(src Source, st harvest.SourceStatus, now time.Time) SourceReport {
	r := SourceReport{Name: src.Name, Fetches: src.About.Fetches, Syncing: src.Syncing, State: StateNeverRun}
	if r.Syncing == "" {
		r.Syncing = "off"
	}
	if st.NeverRun {
		return r
	}
	r.State = StateCurrent
	if st.Through.IsZero() || (src.About.StaleAfter > 0 && st.Lag(now) > src.About.StaleAfter) {
		r.State = StateStale
	}
	if !st.Through.IsZero() {
		r.CurrentTo, r.Lag = utc(st.Through), lagText(st.Lag(now))
	}
	r.LastSuccess, r.LastErrorAt = utc(st.LastSuccess), utc(st.LastErrorAt)
	r.LastError = cfg.shown(st.LastError)
	r.SetAside, r.GivenUp, r.Throttled = st.SetAside, st.GivenUp, st.Throttled
	var shown int64
	r.Missing, shown = cfg.missing(st.Missing)
	r.MissingMore = max(0, st.SetAside-shown)
	return r
}

// shown returns an error's message as a caller may read it: without
// secrets, and cut.
func (cfg Config) shown(msg string) string {
	msg = tenderbase.RedactText(msg, cfg.Secrets...)
	if r := []rune(msg); len(r) > errorShown {
		return string(r[:errorShown-1]) + "…"
	}
	return msg
}

// newest returns the newest record of each kind, and how many the store
// holds: a search of one record, newest first.
func newest(ctx context.Context, store tenderbase.Store, kinds []tenderbase.Kind, now time.Time) ([]KindNewest, error) {
	out := make([]KindNewest, 0, len(kinds))
	for _, k := range kinds {
		page, err := store.Search(ctx, tenderbase.Search{Kind: k, Sort: tenderbase.SortNewest, PageSize: 1})
		if err != nil {
			return nil, fmt.Errorf("the newest %s: %w", k, err)
		}
		n := KindNewest{Kind: k, Records: page.Total}
		if len(page.Items) > 0 {
			n.Newest = utc(page.Items[0].Date())
			n.Age = lagText(max(0, now.Sub(n.Newest)))
		}
		out = append(out, n)
	}
	return out, nil
}

// kindsOf returns the kinds a report dates: every one of Kinds, or those
// the one source asked for fills.
func kindsOf(sources []Source, only string) []tenderbase.Kind {
	if only == "" || len(sources) != 1 {
		return Kinds
	}
	return slices.DeleteFunc(slices.Clone(Kinds), func(k tenderbase.Kind) bool { return !slices.Contains(sources[0].About.Kinds, k) })
}

// next says what a report means for an answer, and what to do next.
func next(rep Report) string {
	var stale, never, missing, off []string
	for _, s := range rep.Sources {
		switch s.State {
		case StateStale:
			to := "nothing completed yet"
			if !s.CurrentTo.IsZero() {
				to = "current to " + s.CurrentTo.Format("2006-01-02 15:04 UTC")
			}
			stale = append(stale, fmt.Sprintf("%s (%s)", s.Name, to))
		case StateNeverRun:
			never = append(never, s.Name)
		}
		if s.SetAside > 0 || s.GivenUp > 0 {
			missing = append(missing, s.Name)
		}
		if s.Syncing != SyncOn {
			off = append(off, s.Name)
		}
	}
	var b strings.Builder
	if len(stale) > 0 || len(never) > 0 {
		b.WriteString("Say how old the data is in an answer from these sources; finding nothing there does not mean nothing was published.")
		if len(stale) > 0 {
			fmt.Fprintf(&b, " Stale: %s.", strings.Join(stale, ", "))
		}
		if len(never) > 0 {
			fmt.Fprintf(&b, " Never synced: %s; their data, if any, was imported and is as new as newest says.", strings.Join(never, ", "))
		}
	} else if len(rep.Sources) > 0 {
		b.WriteString("Every source is current: finding nothing new means nothing new was published.")
	} else {
		b.WriteString("This server reports no sync sources: the data is what was imported, as new as newest says.")
	}
	if len(missing) > 0 {
		fmt.Fprintf(&b, " Data missing from %s (missing): a search may lack those partitions.", strings.Join(missing, ", "))
	}
	// Another process (tenderbase sync --follow) may sync what this
	// server does not: the lag says whether one does.
	if len(off) > 0 && len(off) < len(rep.Sources) {
		fmt.Fprintf(&b, " Not synced by this server: %s.", strings.Join(off, ", "))
	} else if len(off) > 0 {
		b.WriteString(" This server syncs none of them itself; their lag says whether another process does.")
	}
	return b.String()
}

// lagText writes a lag as a person reads it: 2d3h, 5h07m, 12m.
func lagText(d time.Duration) string {
	switch {
	case d >= 24*time.Hour:
		return fmt.Sprintf("%dd%dh", d/(24*time.Hour), d%(24*time.Hour)/time.Hour)
	case d >= time.Hour:
		return fmt.Sprintf("%dh%02dm", d/time.Hour, d%time.Hour/time.Minute)
	}
	return fmt.Sprintf("%dm", d/time.Minute)
}

func day(t time.Time) string { return t.Format(time.DateOnly) }

// utc returns t in UTC to the second, as every moment of a report is
// written: both stores then write the same.
func utc(t time.Time) time.Time {
	if t.IsZero() {
		return t
	}
	return t.UTC().Truncate(time.Second)
}
