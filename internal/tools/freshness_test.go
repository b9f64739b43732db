package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/demo"
	"github.com/tenderbase/tenderbase/internal/freshness"
	"github.com/tenderbase/tenderbase/internal/harvest"
	"github.com/tenderbase/tenderbase/internal/harvest/eisdocs"
	"github.com/tenderbase/tenderbase/internal/harvest/fedresurs"
	"github.com/tenderbase/tenderbase/internal/harvest/rsmp"
	"github.com/tenderbase/tenderbase/internal/harvest/ted"
	"github.com/tenderbase/tenderbase/internal/harvest/torgicards"
	"github.com/tenderbase/tenderbase/internal/harvest/torgiopen"
)

// freshnessNow is the moment the freshness tests report at.
var freshnessNow = time.Date(2026, 12, 3, 9, 0, 0, 0, time.UTC)

// eisToken is the EIS token of the freshness tests, which no answer may
// show.
const eisToken = "c0ffee00-5ec2-e7ee-4a11-0b5e55ed70ce"

// freshnessConfig is the configuration cmd gives serve --sync with an
// EIS token and no fedresurs account: the sources of the build, in its
// order, each with what it says of itself.
func freshnessConfig() freshness.Config {
	off := map[string]string{
		"fedresurs": "off: no account: set TENDERBASE_FEDRESURS_LOGIN and TENDERBASE_FEDRESURS_PASSWORD (docs/sync.md)",
		"ted":       "off: no first day: set --ted-since or TENDERBASE_TED_SINCE (docs/sync.md)",
	}
	cfg := freshness.Config{Secrets: []string{eisToken}, Now: func() time.Time { return freshnessNow }}
	for _, src := range []harvest.Source{
		eisdocs.New(eisdocs.Config{}, nil), torgiopen.New(torgiopen.Config{}, nil), torgicards.New(torgicards.Config{}, nil),
		fedresurs.New(fedresurs.Config{}, nil), ted.New(ted.Config{}, nil), rsmp.New(rsmp.Config{}, nil),
	} {
		syncing := freshness.SyncOn
		if why, ok := off[src.Name()]; ok {
			syncing = why
		}
		cfg.Sources = append(cfg.Sources, freshness.Source{Name: src.Name(), About: src.About(), Syncing: syncing})
	}
	return cfg
}

// putSyncLog records, in store's sync log, the states and partitions set
// aside of a sync that has run a while: the EIS current to three hours
// ago, with a refused type set aside in every region and one archive that
// cannot be read, its last error holding the token in the forms an error
// may hold it; the torgi open data five days behind; the lot cards
// refused before they completed anything; the SME register a release of
// three weeks ago, which is current for a monthly register.
func putSyncLog(t *testing.T, store tenderbase.Store) {
	t.Helper()
	ctx := context.Background()
	log, ok := tenderbase.StoreAs[tenderbase.SyncLog](store)
	if !ok {
		t.Fatal("the store keeps no sync log")
	}
	at := freshnessNow.Add(-20 * time.Minute)
	refused := "the EIS answered 500: <individualPerson_token>" + eisToken + "</individualPerson_token> type not known"
	states := []tenderbase.SyncState{
		{Source: "eis", Through: freshnessNow.Add(-3 * time.Hour), LastAttempt: at, LastSuccess: freshnessNow.Add(-24 * time.Hour),
			LastError: `request to https://int.zakupki.gov.ru/eis-integration/services/getDocsIP: Get "https://int44.zakupki.gov.ru/dl?uid=9&token=` +
				eisToken + `": header individualPerson_token: ` + eisToken + ": connection reset",
			LastErrorAt: at, Partitions: 4000, Files: 9000, Records: 120000, Inserted: 90000, Throttled: 3, SetAside: 7, GivenUp: 1,
			LastGivenUp: "01/RGK/contract/2026-11-01 (set aside 2026-11-01T00:00:00Z, 8 tries): " + eisToken},
		{Source: "torgi", Through: freshnessNow.Add(-5*24*time.Hour - 2*time.Hour), LastAttempt: at, LastSuccess: freshnessNow.Add(-5 * 24 * time.Hour),
			LastError: "torgi.gov.ru answered 503 Service Unavailable", LastErrorAt: at},
		{Source: "rsmp", Through: freshnessNow.Add(-23 * 24 * time.Hour), LastAttempt: at, LastSuccess: at},
		{Source: "torgi-cards", LastAttempt: at, LastError: "torgi.gov.ru answered 403 Forbidden", LastErrorAt: at},
	}
	for _, s := range states {
		if err := log.PutSyncState(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	var asides []harvest.Aside
	for _, region := range []string{"01", "02", "16", "50", "77", "78"} {
		asides = append(asides, harvest.Aside{Partition: region + "/PRIZ/epNotificationEZT2020/2026-11-28", Error: refused,
			Since: freshnessNow.Add(-5 * 24 * time.Hour), Last: at, Tries: 5, Next: freshnessNow.Add(4 * time.Hour)})
	}
	asides = append(asides, harvest.Aside{Partition: "77/RGK/contract/2026-11-30", Error: "archive 3.zip is not a whole ZIP archive; the service echoed " + eisToken,
		Since: freshnessNow.Add(-2 * 24 * time.Hour), Last: at.Add(-time.Hour), Tries: 2, Next: freshnessNow.Add(time.Hour)})
	for _, a := range asides {
		raw, err := json.Marshal(a)
		if err != nil {
			t.Fatal(err)
		}
		if err := log.SetCheckpoint(ctx, tenderbase.Checkpoint{Source: "eis", Partition: "aside/" + a.Partition, Value: string(raw), At: a.Last}); err != nil {
			t.Fatal(err)
		}
	}
}

// TestFreshness checks, on both stores, what data.freshness says of a
// sync that has run a while: each source's state, lag, errors without the
// token, the data set aside in groups, whether this server syncs it; the
// newest record of each kind, as the demo dataset dates them; and that
// both stores say the same.
func TestFreshness(t *testing.T) {
	recs, err := demo.Records()
	if err != nil {
		t.Fatal(err)
	}
	// The store holds the newest version of each record.
	current := map[string]tenderbase.Record{}
	for _, r := range recs {
		id := string(r.Kind()) + " " + r.Key()
		if c, ok := current[id]; !ok || r.Revision() > c.Revision() {
			current[id] = r
		}
	}
	newest := map[tenderbase.Kind]freshness.KindNewest{}
	for _, r := range current {
		n := newest[r.Kind()]
		n.Records++
		if r.Date().After(n.Newest) {
			n.Newest = r.Date().UTC()
		}
		newest[r.Kind()] = n
	}
	var wantNewest []freshness.KindNewest
	for _, k := range freshness.Kinds {
		n := freshness.KindNewest{Kind: k, Records: newest[k].Records, Newest: newest[k].Newest}
		if !n.Newest.IsZero() {
			n.Age = fmt.Sprintf("%dd%dh", freshnessNow.Sub(n.Newest)/(24*time.Hour), freshnessNow.Sub(n.Newest)%(24*time.Hour)/time.Hour)
		}
		wantNewest = append(wantNewest, n)
	}
	refused := "the EIS answered 500: <individualPerson_token>…</individualPerson_token> type not known"
	cfg := freshnessConfig()
	want := freshness.Report{CheckedAt: freshnessNow, Newest: wantNewest, Sources: []freshness.SourceReport{
		{Name: "eis", Fetches: cfg.Sources[0].About.Fetches, Syncing: "on", State: "current", CurrentTo: freshnessNow.Add(-3 * time.Hour), Lag: "3h00m",
			LastSuccess: freshnessNow.Add(-24 * time.Hour), LastErrorAt: freshnessNow.Add(-20 * time.Minute),
			LastError: `request to https://int.zakupki.gov.ru/eis-integration/services/getDocsIP: Get "https://int44.zakupki.gov.ru/dl?…": ` +
				`header individualPerson_token: … connection reset`,
			SetAside: 7, GivenUp: 1, Throttled: 3, Missing: []string{
				"*/PRIZ/epNotificationEZT2020: 6 partitions 2026-11-28, failing since 2026-11-28: " + refused,
				"77/RGK/contract/2026-11-30: 2 tries, failing since 2026-12-01: archive 3.zip is not a whole ZIP archive; the service echoed …",
			}},
		{Name: "torgi", Fetches: cfg.Sources[1].About.Fetches, Syncing: "on", State: "stale", CurrentTo: freshnessNow.Add(-5*24*time.Hour - 2*time.Hour), Lag: "5d2h",
			LastSuccess: freshnessNow.Add(-5 * 24 * time.Hour), LastError: "torgi.gov.ru answered 503 Service Unavailable", LastErrorAt: freshnessNow.Add(-20 * time.Minute)},
		{Name: "torgi-cards", Fetches: cfg.Sources[2].About.Fetches, Syncing: "on", State: "stale",
			LastError: "torgi.gov.ru answered 403 Forbidden", LastErrorAt: freshnessNow.Add(-20 * time.Minute)},
		{Name: "fedresurs", Fetches: cfg.Sources[3].About.Fetches, Syncing: cfg.Sources[3].Syncing, State: "never run"},
		{Name: "ted", Fetches: cfg.Sources[4].About.Fetches, Syncing: cfg.Sources[4].Syncing, State: "never run"},
		{Name: "rsmp", Fetches: cfg.Sources[5].About.Fetches, Syncing: "on", State: "current", CurrentTo: freshnessNow.Add(-23 * 24 * time.Hour), Lag: "23d0h",
			LastSuccess: freshnessNow.Add(-20 * time.Minute)},
	}}
	answers := map[string]string{}
	for name, store := range demoStores(t) {
		t.Run(name, func(t *testing.T) {
			putSyncLog(t, store)
			set := New(store, nil)
			set.SetFreshness(cfg)
			out, err := call(t, set, asPlan(tenderbase.PlanFree), "data.freshness", `{}`)
			if err != nil {
				t.Fatal(err)
			}
			validateOutput(t, "data.freshness", out)
			if strings.Contains(string(out.Value), eisToken) {
				t.Errorf("the answer shows the EIS token:\n%s", out.Value)
			}
			var got freshness.Report
			if err := json.Unmarshal(out.Value, &got); err != nil {
				t.Fatal(err)
			}
			next := got.Next
			got.Next = ""
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("data.freshness (-want +got):\n%s", diff)
			}
			for _, w := range []string{"Stale: torgi (current to 2026-11-28 07:00 UTC), torgi-cards (nothing completed yet).",
				"Never synced: fedresurs, ted", "Data missing from eis",
				"Not synced by this server: fedresurs, ted"} {
				if !strings.Contains(next, w) {
					t.Errorf("next does not say %q: %s", w, next)
				}
			}
			answers[name] = string(out.Value)

			// One source: its report and the kinds it fills alone.
			out, err = call(t, set, asPlan(tenderbase.PlanFree), "data.freshness", `{"source": "torgi"}`)
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(out.Value, &got); err != nil {
				t.Fatal(err)
			}
			if len(got.Sources) != 1 || got.Sources[0].Name != "torgi" || len(got.Newest) != 1 || got.Newest[0].Kind != tenderbase.KindLot {
				t.Errorf(`{"source": "torgi"}: %s`, out.Value)
			}
			_, err = call(t, set, asPlan(tenderbase.PlanFree), "data.freshness", `{"source": "zakupki"}`)
			if tenderbase.ErrorCode(err) != tenderbase.EINVALID || !strings.Contains(err.Error(), "the sources are eis, torgi, torgi-cards, fedresurs, ted, rsmp") {
				t.Errorf("an unknown source: %v", err)
			}
		})
	}
	if answers["sqlite"] != answers["postgres"] {
		t.Errorf("the stores answer apart:\nsqlite   %s\npostgres %s", answers["sqlite"], answers["postgres"])
	}
}
