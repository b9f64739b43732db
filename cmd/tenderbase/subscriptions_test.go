package main

import (
	"context"
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/postgres/pgtest"
	"github.com/tenderbase/tenderbase/internal/sqlite"
)

// createSubscription runs subscriptions create and returns the secret and
// the subscription id it printed.
func createSubscription(t *testing.T, db string, args ...string) (secret, id string) {
	t.Helper()
	return runCreate(t, db, "subscriptions", "s_", args...)
}

// listedJSON is what a test reads of subscriptions list --json.
type listedJSON struct {
	ID         string              `json:"id"`
	Account    string              `json:"account"`
	Name       string              `json:"name"`
	Schedule   tenderbase.Schedule `json:"schedule"`
	Recipients []string            `json:"recipients"`
	Deliveries []deliveryLine      `json:"deliveries"`
}

// listSubscriptionsJSON runs subscriptions list --json with more flags.
func listSubscriptionsJSON(t *testing.T, db string, more ...string) []listedJSON {
	t.Helper()
	res := runCLI(t, nil, append([]string{"subscriptions", "list", "--json", "--db", db}, more...)...)
	if res.code != 0 {
		t.Fatalf("subscriptions list --json: exit %d\n%s", res.code, res.stderr)
	}
	var list []listedJSON
	if err := json.Unmarshal([]byte(res.stdout), &list); err != nil {
		t.Fatalf("subscriptions list --json: %v\n%s", err, res.stdout)
	}
	return list
}

func TestSubscriptionsSQLite(t *testing.T) {
	subscriptionsLifecycle(t, filepath.Join(t.TempDir(), "subs.db"))
}

func TestSubscriptionsPostgres(t *testing.T) {
	subscriptionsLifecycle(t, pgtest.URL(t))
}

// subscriptionsLifecycle creates a subscription for a key's account, lists
// it, shows its deliveries and deletes it, in the store db.
func subscriptionsLifecycle(t *testing.T, db string) {
	createKey(t, db, "--plan", "standard", "--name", "buyer", "--account", "acme")
	res := runCLI(t, nil, "subscriptions", "create", "--db", db, "--account", "acme", "--name", "Кровля",
		"--resource", "ru", "--search", `{"query": "ремонт кровли", "regions": [77]}`, "--schedule", "daily", "--hour", "9",
		"--recipient", "Buyer@Example.com", "--recipient", "boss@example.com", "--webhook", "https://example.com/hook")
	if res.code != 0 {
		t.Fatalf("create: exit %d\n%s", res.code, res.stderr)
	}
	secret, _, _ := strings.Cut(res.stdout, "\n")
	if !regexp.MustCompile(`^whsec_[0-9a-f]{64}$`).MatchString(secret) {
		t.Fatalf("first line is not the secret alone: %q", secret)
	}
	id := regexp.MustCompile(`(?m)^id\s+(s_[0-9a-f]{8})$`).FindStringSubmatch(res.stdout)
	if id == nil {
		t.Fatalf("create printed no id:\n%s", res.stdout)
	}
	for _, want := range []string{"account      acme", "schedule     daily 09:00 MSK",
		"mails to     buyer@example.com, boss@example.com, https://example.com/hook", "matches now  0,"} {
		if !strings.Contains(res.stdout, want) {
			t.Errorf("create's stdout lacks %q:\n%s", want, res.stdout)
		}
	}
	if !strings.Contains(res.stderr, "shown only this once") {
		t.Errorf("stderr does not say the secret is shown once:\n%s", res.stderr)
	}

	env := map[string]string{"TENDERBASE_DB": db}
	steps := []struct {
		args     []string
		code     int
		stdout   *regexp.Regexp
		inStderr string
	}{
		{[]string{"list"}, 0, regexp.MustCompile(`^ID +ACCOUNT +BRANCH .*\n` + id[1] +
			` +acme +- +Кровля +ru +daily 09:00 MSK +buyer@example.com, boss@example.com, https://example.com/hook +\S+Z +-\n$`), ""},
		{[]string{"list", "--account", "other"}, 0, regexp.MustCompile(`^$`), `account "other" has no subscriptions`},
		{[]string{"deliveries", id[1]}, 0, regexp.MustCompile(`^$`), "has mailed nothing yet"},
		{[]string{"deliveries", id[1], "--json"}, 0, regexp.MustCompile(`^\[\]\n$`), ""},
		{[]string{"delete", id[1]}, 0, regexp.MustCompile(`^` + id[1] + ` \(Кровля, account acme\): deleted\n$`), ""},
		{[]string{"list", "--json"}, 0, regexp.MustCompile(`^\[\]\n$`), ""},
		{[]string{"delete", id[1]}, 1, regexp.MustCompile(`^$`), `no subscription with id "` + id[1] + `"`},
	}
	checkListedJSON(t, db, id[1], secret)
	for _, st := range steps {
		got := runCLI(t, env, append([]string{"subscriptions"}, st.args...)...)
		if got.code != st.code || !st.stdout.MatchString(got.stdout) || !strings.Contains(got.stderr, st.inStderr) {
			t.Errorf("subscriptions %v: exit %d, want %d\nstdout %q\nstderr %s", st.args, got.code, st.code, got.stdout, got.stderr)
		}
		if strings.Contains(got.stdout, secret) {
			t.Errorf("subscriptions %v shows the secret", st.args)
		}
	}
}

// checkListedJSON checks list --json, whole and for one account, against
// the subscription created by subscriptionsLifecycle.
func checkListedJSON(t *testing.T, db, id, secret string) {
	t.Helper()
	want := []listedJSON{{ID: id, Account: "acme", Name: "Кровля",
		Schedule:   tenderbase.Schedule{Every: tenderbase.ScheduleDaily, Hour: 9},
		Recipients: []string{"buyer@example.com", "boss@example.com"}, Deliveries: []deliveryLine{}}}
	for _, more := range [][]string{nil, {"--account", "acme"}} {
		if diff := cmp.Diff(want, listSubscriptionsJSON(t, db, more...)); diff != "" {
			t.Errorf("list --json %v (-want +got):\n%s", more, diff)
		}
	}
	if out := runCLI(t, nil, "subscriptions", "list", "--json", "--db", db).stdout; strings.Contains(out, secret) {
		t.Error("list --json shows the secret")
	}
}

func TestSubscriptionsCreateRefused(t *testing.T) {
	db := filepath.Join(t.TempDir(), "subs.db")
	createKey(t, db, "--plan", "standard", "--name", "buyer", "--account", "acme")
	createKey(t, db, "--plan", "free", "--name", "trial", "--account", "solo")
	_, paused := createKey(t, db, "--plan", "standard", "--name", "paused", "--account", "paused")
	if res := runCLI(t, nil, "keys", "suspend", "--db", db, paused); res.code != 0 {
		t.Fatalf("keys suspend: exit %d\n%s", res.code, res.stderr)
	}
	base := []string{"--name", "n", "--resource", "ru", "--recipient", "buyer@example.com"}
	tests := []struct {
		name     string
		args     []string
		code     int
		inStderr string
	}{
		{"no account", []string{"--name", "n", "--resource", "ru"}, 2, "--account, --name and --resource are required"},
		{"unknown account", []string{"--account", "nobody"}, 1,
			`account "nobody" has no active key, and so no plan; create a key first: tenderbase keys create --account nobody`},
		{"suspended account", []string{"--account", "paused"}, 1, `account "paused" has no active key`},
		{"search not JSON", []string{"--account", "acme", "--search", `{"query": `}, 2, "is not a JSON object"},
		{"search not an object", []string{"--account", "acme", "--search", `["кровля"]`}, 2, "is not a JSON object"},
		{"search with a page", []string{"--account", "acme", "--search", `{"page": 1}`}, 2,
			`argument "search" takes no page: a subscription mails what comes`},
		{"search out of range", []string{"--account", "acme", "--search", `{"regions": [100]}`}, 2,
			`search of ru.search: argument "regions" holds codes from 1 to 99, got 100`},
		{"unknown weekday", []string{"--account", "acme", "--schedule", "weekly", "--weekday", "someday"}, 2,
			`argument "weekday" is one of sunday`},
		{"daily on free", []string{"--account", "solo", "--schedule", "daily"}, 1,
			"plan free mails as records are published; daily and weekly mailings come with plans standard"},
		{"winners on standard", []string{"--account", "acme", "--winners"}, 1, "plan standard has no winners mailing"},
		{"nobody to mail", []string{"--account", "acme", "--recipient", "not an address"}, 2,
			`recipient "not an address" is no e-mail address`},
		{"a webhook at the metadata address", []string{"--account", "acme", "--webhook", "http://169.254.169.254/latest/meta-data/"}, 2,
			`webhook "http://169.254.169.254/latest/meta-data/": address 169.254.169.254 is link-local`},
		{"a webhook outside the allowed network", []string{"--account", "acme", "--webhook-allow", "10.1.0.0/16", "--webhook", "http://10.2.0.1/hook"}, 2,
			"address 10.2.0.1 is private (RFC 1918)"},
		{"a bad allowed network", []string{"--account", "acme", "--webhook-allow", "10.1.0.0/40"}, 2,
			`invalid value "10.1.0.0/40" for flag -webhook-allow`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"subscriptions", "create", "--db", db}, base...)
			res := runCLI(t, nil, append(args, tt.args...)...)
			if res.code != tt.code || !strings.Contains(res.stderr, tt.inStderr) {
				t.Errorf("exit %d, want %d; stderr lacks %q:\n%s", res.code, tt.code, tt.inStderr, res.stderr)
			}
			if res.stdout != "" {
				t.Errorf("stdout of a refusal: %q", res.stdout)
			}
		})
	}
	if list := listSubscriptionsJSON(t, db); len(list) != 0 {
		t.Errorf("refusals left subscriptions: %+v", list)
	}
}

func TestSubscriptionsDeliveries(t *testing.T) {
	db := filepath.Join(t.TempDir(), "subs.db")
	createKey(t, db, "--plan", "standard", "--name", "buyer", "--account", "acme")
	_, id := createSubscription(t, db, "--account", "acme", "--name", "Кровля", "--resource", "ru",
		"--recipient", "buyer@example.com", "--webhook", "https://example.com/hook")
	mailed := time.Date(2025, 3, 4, 9, 0, 0, 0, time.UTC)
	commitMailing(t, db, id, mailed)

	env := map[string]string{"TENDERBASE_DB": db}
	tests := []struct {
		args   []string
		code   int
		stdout *regexp.Regexp
	}{
		{[]string{"deliveries", id}, 0, regexp.MustCompile(`^CREATED +STATUS +ATTEMPTS +TARGET +MAILING +ITEMS +SENT +LAST ERROR\n` +
			`2025-03-04T09:00:00Z +pending +2 +https://example.com/hook +new +1 +- +503 Service Unavailable\n` +
			`2025-03-04T09:00:00Z +sent +1 +mailto:buyer@example.com +new +1 +2025-03-04T09:01:00Z +-\n$`)},
		{[]string{"deliveries", id, "--limit", "1"}, 0, regexp.MustCompile(`^CREATED.*\n[^\n]+pending[^\n]+\n$`)},
		{[]string{"list"}, 0, regexp.MustCompile(`\n` + id + ` .* pending,sent\n$`)},
		{[]string{"deliveries", "s_00000000"}, 1, regexp.MustCompile(`^$`)},
		{[]string{"deliveries", id, "--limit", "0"}, 2, regexp.MustCompile(`^$`)},
		{[]string{"deliveries"}, 2, regexp.MustCompile(`^$`)},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			res := runCLI(t, env, append([]string{"subscriptions"}, tt.args...)...)
			if res.code != tt.code || !tt.stdout.MatchString(res.stdout) {
				t.Errorf("exit %d, want %d\nstdout %s\nstderr %s", res.code, tt.code, res.stdout, res.stderr)
			}
		})
	}
	list := listSubscriptionsJSON(t, db)
	want := []deliveryLine{
		{Status: tenderbase.DeliveryPending, Attempts: 2, Target: "https://example.com/hook", Mailing: tenderbase.MailingNew,
			Items: 1, CreatedAt: mailed, LastError: "503 Service Unavailable"},
		{Status: tenderbase.DeliverySent, Attempts: 1, Target: "mailto:buyer@example.com", Mailing: tenderbase.MailingNew,
			Items: 1, CreatedAt: mailed, SentAt: mailed.Add(time.Minute)},
	}
	if len(list) != 1 {
		t.Fatalf("list --json: %+v", list)
	}
	if diff := cmp.Diff(want, list[0].Deliveries, ignoreDeliveryIDs); diff != "" {
		t.Errorf("list --json deliveries (-want +got):\n%s", diff)
	}
}

var ignoreDeliveryIDs = cmp.Transformer("withoutID", func(d deliveryLine) deliveryLine { d.ID = ""; return d })

// TestSubscriptionsCreateAllowedWebhook checks that a webhook on a
// network that --webhook-allow or TENDERBASE_WEBHOOK_ALLOW names is taken.
func TestSubscriptionsCreateAllowedWebhook(t *testing.T) {
	db := filepath.Join(t.TempDir(), "subs.db")
	createKey(t, db, "--plan", "standard", "--name", "buyer", "--account", "acme")
	args := []string{"subscriptions", "create", "--db", db, "--account", "acme", "--name", "n", "--resource", "ru",
		"--webhook", "http://10.1.2.3:8080/hook"}
	if res := runCLI(t, nil, append(args, "--webhook-allow", "192.0.2.7, 10.1.0.0/16")...); res.code != 0 {
		t.Errorf("--webhook-allow: exit %d\n%s", res.code, res.stderr)
	}
	if res := runCLI(t, map[string]string{"TENDERBASE_WEBHOOK_ALLOW": "10.0.0.0/8"}, args...); res.code != 0 {
		t.Errorf("TENDERBASE_WEBHOOK_ALLOW: exit %d\n%s", res.code, res.stderr)
	}
	res := runCLI(t, map[string]string{"TENDERBASE_WEBHOOK_ALLOW": "10.0.0.0/8,intranet"}, args...)
	if res.code != 2 || !strings.Contains(res.stderr, `TENDERBASE_WEBHOOK_ALLOW: "intranet" is neither an address nor a CIDR block`) {
		t.Errorf("a bad TENDERBASE_WEBHOOK_ALLOW: exit %d\n%s", res.code, res.stderr)
	}
}

// commitMailing stores a mailing of one item to both targets of the
// subscription id at, as the mailer would, and records that the e-mail was
// sent a minute later and the webhook failed twice.
func commitMailing(t *testing.T, db, id string, at time.Time) {
	t.Helper()
	ctx := context.Background()
	s, err := sqlite.Open(ctx, db, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	subs, err := s.Subscriptions(ctx, "acme")
	if err != nil || len(subs) != 1 {
		t.Fatalf("subscriptions: %v %+v", err, subs)
	}
	mailing := tenderbase.Mailing{ID: "m_1", Type: tenderbase.MailingNew, Subscription: id,
		Items: []tenderbase.MailItem{{Kind: tenderbase.KindTender, Key: "0373100000125000001", Title: "Ремонт кровли"}}}
	var ds []tenderbase.Delivery
	for i, target := range subs[0].Targets() {
		ds = append(ds, tenderbase.Delivery{ID: "d_" + string(rune('1'+i)), Subscription: id, Target: target,
			Mailing: mailing, CreatedAt: at})
	}
	pos := subs[0].Position
	if err := s.CommitMailing(ctx, tenderbase.MailingCommit{Subscription: id, From: pos, To: pos, At: at, Deliveries: ds}); err != nil {
		t.Fatal(err)
	}
	outcomes := []tenderbase.Delivery{
		{ID: ds[0].ID, Status: tenderbase.DeliverySent, Attempts: 1, SentAt: at.Add(time.Minute)},
		{ID: ds[1].ID, Status: tenderbase.DeliveryPending, Attempts: 2, NextAttempt: at.Add(time.Hour), LastError: "503 Service Unavailable"},
	}
	for _, d := range outcomes {
		if err := s.FinishDelivery(ctx, d); err != nil {
			t.Fatal(err)
		}
	}
}

func TestSubscriptionsUsage(t *testing.T) {
	tests := []struct {
		args     []string
		code     int
		inStdout string
		inStderr string
	}{
		{[]string{"subscriptions"}, 2, "", "Usage: tenderbase subscriptions SUBCOMMAND"},
		{[]string{"subscriptions", "-h"}, 0, "", "subscriptions deliveries ID [--limit N]"},
		{[]string{"help", "subscriptions"}, 0, "subscriptions create --account ACCOUNT --name NAME --resource RESOURCE [flags]", ""},
		{[]string{"help"}, 0, "subscriptions SUBCOMMAND [ID]", ""},
		{[]string{"subscriptions", "edit"}, 2, "", `unknown subcommand "edit"`},
		{[]string{"subscriptions", "create", "-h"}, 0, "", "--watch-inn INN"},
		{[]string{"subscriptions", "list", "--yaml"}, 2, "", "flag provided but not defined: -yaml"},
		{[]string{"subscriptions", "delete"}, 2, "", "no subscription ID given"},
		{[]string{"subscriptions", "delete", "s_1", "s_2"}, 2, "", `unexpected argument "s_2"`},
		{[]string{"subscriptions", "list", "--db", filepath.Join(t.TempDir(), "none.db")}, 1, "", "no store at "},
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
