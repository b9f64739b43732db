package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/tools"
	"github.com/tenderbase/tenderbase/internal/webhook"
)

// subscriptionsCommands are the subcommands of subscriptions.
func subscriptionsCommands() []command {
	return []command{
		{"list", "subscriptions list [--account ACCOUNT] [--json]",
			"list the subscriptions, oldest first, with their newest deliveries", runSubscriptionsList},
		{"create", "subscriptions create --account ACCOUNT --name NAME --resource RESOURCE [flags]",
			"subscribe an account to a search; print the secret that signs its mail, shown only this once", runSubscriptionsCreate},
		{"delete", "subscriptions delete ID", "delete a subscription and its mailings not yet sent", runSubscriptionsDelete},
		{"deliveries", "subscriptions deliveries ID [--limit N] [--json]",
			"list a subscription's deliveries, newest first", runSubscriptionsDeliveries},
	}
}

// subscriptionsGroup is the subscriptions command's subcommands.
func subscriptionsGroup() subcommands {
	return subcommands{name: "subscriptions",
		intro: "Manage the accounts' subscriptions: saved searches whose new matches are mailed.", list: subscriptionsCommands()}
}

// runSubscriptions runs the subscriptions subcommand named by args[0].
func runSubscriptions(ctx context.Context, c *cli, args []string) int {
	return subscriptionsGroup().run(ctx, c, args)
}

// subscriptionsCommand looks up a subcommand for its flag set.
func subscriptionsCommand(name string) command { return subscriptionsGroup().command(name) }

// subscriptionsConfig is the command line of one subscriptions subcommand.
type subscriptionsConfig struct {
	Store storeConfig
	ID    string // of the subscription to delete or show
}

// parseSubscriptions parses the flags of subcommand cmd, which takes an ID
// when wantID is true, after more adds its own flags to the flag set.
func (c *cli) parseSubscriptions(cmd command, args []string, wantID bool, more func(*flag.FlagSet)) (cfg subscriptionsConfig, fs *flag.FlagSet, code int, ok bool) {
	cfg.ID, fs, code, ok = c.parseSubcommand(cmd, args, &cfg.Store, "subscription", wantID, more)
	return cfg, fs, code, ok
}

// withSubscriptions opens the store of sc, which must exist, runs f on it
// and closes it.
func (c *cli) withSubscriptions(ctx context.Context, sc storeConfig, f func(tenderbase.Store, tenderbase.SubscriptionStore) error) int {
	return withStoreOf(ctx, c, sc, false, "subscriptions", f)
}

// subscribeArgs are the arguments of the tool subscriptions.create, which
// create passes on so that they are checked exactly as over MCP.
type subscribeArgs struct {
	Name       string          `json:"name"`
	Resource   string          `json:"resource"`
	Search     json.RawMessage `json:"search,omitempty"`
	Schedule   string          `json:"schedule,omitempty"`
	Hour       int             `json:"hour,omitempty"`
	Weekday    string          `json:"weekday,omitempty"`
	Recipients []string        `json:"recipients,omitempty"`
	Webhook    string          `json:"webhook,omitempty"`
	Winners    bool            `json:"winners,omitempty"`
	WatchINNs  []string        `json:"watch_inns,omitempty"`
	Branch     string          `json:"branch,omitempty"`
}

// subscribed is what create reads of the output of subscriptions.create.
type subscribed struct {
	Subscription struct {
		ID string `json:"id"`
	} `json:"subscription"`
	Secret     string `json:"secret"`
	MatchesNow int    `json:"matches_now"`
}

// runSubscriptionsCreate creates a subscription for an account through the
// tool subscriptions.create, on the plan of the account's keys. As with a
// key, the secret alone goes on the first line of stdout and the
// subscription's description follows.
func runSubscriptionsCreate(ctx context.Context, c *cli, args []string) int {
	var a subscribeArgs
	var account, search string
	var hooks webhook.Policy
	var envErr error
	cmd := subscriptionsCommand("create")
	cfg, fs, code, ok := c.parseSubscriptions(cmd, args, false, func(fs *flag.FlagSet) {
		fs.StringVar(&account, "account", "", "`ACCOUNT` that holds the subscription; it needs an active key, whose plan applies")
		fs.StringVar(&a.Name, "name", "", "`NAME` the subscription's mail is titled by")
		fs.StringVar(&a.Resource, "resource", "", "`RESOURCE` it watches: "+strings.Join(tenderbase.SubscriptionResources, ", "))
		fs.StringVar(&search, "search", "", "`JSON` object of the resource's search tool arguments, as over MCP: {\"query\": \"...\", \"regions\": [77]}")
		fs.StringVar(&a.Schedule, "schedule", "", "`SCHEDULE` of its mail: published (the default), daily or weekly")
		fs.IntVar(&a.Hour, "hour", 0, "`HOUR` of a daily or weekly mailing, 0 to 23, Moscow time")
		fs.StringVar(&a.Weekday, "weekday", "", "`DAY` of a weekly mailing: monday ... sunday")
		fs.Var(stringList{&a.Recipients}, "recipient", "e-mail `ADDRESS` to mail; repeatable")
		fs.StringVar(&a.Webhook, "webhook", "", "http(s) `URL` that receives each mailing as signed JSON")
		fs.BoolVar(&a.Winners, "winners", false, "also mail the winners of the tenders it finds (resource ru)")
		fs.Var(stringList{&a.WatchINNs}, "watch-inn", "`INN` whose wins the winners mailing reports; repeatable")
		fs.StringVar(&a.Branch, "branch", "", "`BRANCH` of a corporate account the subscription serves")
		envErr = c.webhookAllowFlag(fs, &hooks)
	})
	if !ok {
		return code
	}
	if envErr != nil {
		fmt.Fprintf(c.stderr, "tenderbase %s: %v\n", cmd.name, envErr)
		return exitUsage
	}
	account = strings.TrimSpace(account)
	if account == "" || strings.TrimSpace(a.Name) == "" || strings.TrimSpace(a.Resource) == "" {
		fmt.Fprintf(c.stderr, "tenderbase %s: --account, --name and --resource are required\n", cmd.name)
		fs.Usage()
		return exitUsage
	}
	if search != "" {
		if !isJSONObject(search) {
			return c.fail(tenderbase.Errorf(tenderbase.EINVALID,
				`--search %s is not a JSON object such as {"query": "ремонт кровли"}`, tenderbase.Quote(search)))
		}
		a.Search = json.RawMessage(search)
	}
	return c.withSubscriptions(ctx, cfg.Store, func(store tenderbase.Store, subs tenderbase.SubscriptionStore) error {
		created, err := subscribe(ctx, store, account, a, hooks, cfg.Store.newLogger(c.stderr))
		if err != nil {
			return err
		}
		sub, err := subs.Subscription(ctx, created.Subscription.ID)
		if err != nil {
			return err
		}
		fmt.Fprintln(c.stdout, created.Secret)
		writeSubscription(c.stdout, sub, created.MatchesNow)
		fmt.Fprintln(c.stderr, "tenderbase: the secret on the first line signs the webhook's requests and the unsubscribe links; "+
			"it is shown only this once")
		return nil
	})
}

// isJSONObject reports whether s is one JSON object.
func isJSONObject(s string) bool {
	var m map[string]json.RawMessage
	return json.Unmarshal([]byte(s), &m) == nil && m != nil
}

// subscribe calls subscriptions.create as a key of account on the plan of
// the account's active keys, with the webhook checked against hooks. The
// tool's complaints about its arguments are
// invalid input, as they are over MCP.
func subscribe(ctx context.Context, store tenderbase.Store, account string, a subscribeArgs, hooks webhook.Policy, logger *slog.Logger) (subscribed, error) {
	var created subscribed
	keys, ok := store.(tenderbase.KeyStore)
	if !ok {
		return created, errors.New("the store keeps no API keys, so no account has a plan")
	}
	plan, err := accountPlan(ctx, keys, account)
	if err != nil {
		return created, err
	}
	set := tools.New(store, logger)
	set.SetWebhookPolicy(hooks)
	tool, ok := set.Lookup("subscriptions.create")
	if !ok {
		return created, errors.New("this build has no tool subscriptions.create")
	}
	raw, err := json.Marshal(a)
	if err != nil {
		return created, err
	}
	caller := tenderbase.Key{ID: "cli", Account: account, Plan: plan, Status: tenderbase.KeyActive}
	out, err := tool.Call(tenderbase.NewContextWithKey(ctx, caller), raw)
	if argErr, ok := errors.AsType[*tools.ArgumentError](err); ok {
		return created, tenderbase.Errorf(tenderbase.EINVALID, "%s", argErr.Message)
	}
	if err != nil {
		return created, err
	}
	if err := json.Unmarshal(out.Value, &created); err != nil {
		return created, fmt.Errorf("read what subscriptions.create answered: %w", err)
	}
	return created, nil
}

// accountPlan returns the plan of account's active keys, which share one:
// a subscription is mailed as that plan allows.
func accountPlan(ctx context.Context, keys tenderbase.KeyStore, account string) (tenderbase.Plan, error) {
	list, err := keys.Keys(ctx)
	if err != nil {
		return "", err
	}
	for _, k := range list {
		if k.Account == account && k.Status == tenderbase.KeyActive {
			return k.Plan, nil
		}
	}
	return "", tenderbase.Errorf(tenderbase.ENOTFOUND,
		"account %s has no active key, and so no plan; create a key first: tenderbase keys create --account %s --plan PLAN --name NAME",
		tenderbase.Quote(account), shellQuote(account))
}

// writeSubscription describes a subscription just created, one field a
// line.
func writeSubscription(w io.Writer, sub tenderbase.Subscription, matchesNow int) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "id\t%s\n", sub.ID)
	fmt.Fprintf(tw, "account\t%s\n", sub.Account)
	if sub.Branch != "" {
		fmt.Fprintf(tw, "branch\t%s\n", sub.Branch)
	}
	fmt.Fprintf(tw, "name\t%s\n", sub.Name)
	fmt.Fprintf(tw, "resource\t%s\n", sub.Resource)
	fmt.Fprintf(tw, "search\t%s\n", sub.Search)
	fmt.Fprintf(tw, "schedule\t%s\n", describeSchedule(sub.Schedule))
	fmt.Fprintf(tw, "mails to\t%s\n", describeTargets(sub))
	// What matches now is already stored, and so never mailed.
	fmt.Fprintf(tw, "matches now\t%d, not mailed: it mails what is stored from now on\n", matchesNow)
	tw.Flush()
}

// describeSchedule says when a subscription's mail goes out.
func describeSchedule(sc tenderbase.Schedule) string {
	switch sc.Every {
	case tenderbase.ScheduleDaily:
		return fmt.Sprintf("daily %02d:00 MSK", sc.Hour)
	case tenderbase.ScheduleWeekly:
		return fmt.Sprintf("weekly %s %02d:00 MSK", sc.Weekday, sc.Hour)
	}
	return sc.Every
}

// describeTargets lists where a subscription's mail goes, and its winners
// mailing.
func describeTargets(sub tenderbase.Subscription) string {
	targets := slices.Clone(sub.Recipients)
	if sub.Webhook != "" {
		targets = append(targets, sub.Webhook)
	}
	s := strings.Join(targets, ", ")
	if sub.Winners || len(sub.WatchINNs) > 0 {
		s += " (with winners"
		if len(sub.WatchINNs) > 0 {
			s += " and INNs " + strings.Join(sub.WatchINNs, ", ")
		}
		s += ")"
	}
	return s
}

// listedDeliveries is how many of a subscription's newest deliveries list
// shows: the tools show as many.
const listedDeliveries = 3

// listedSubscription is a subscription as list --json prints it.
type listedSubscription struct {
	tenderbase.Subscription
	Deliveries []deliveryLine `json:"deliveries"`
}

// deliveryLine is a delivery without its mailing's items, which are the
// mail's business, not the operator's.
type deliveryLine struct {
	ID        string    `json:"id"`
	Status    string    `json:"status"`
	Attempts  int       `json:"attempts"`
	Target    string    `json:"target"`
	Mailing   string    `json:"mailing"`
	Items     int       `json:"items"`
	CreatedAt time.Time `json:"created_at"`
	SentAt    time.Time `json:"sent_at,omitzero"`
	LastError string    `json:"last_error,omitempty"`
}

func deliveryLines(ds []tenderbase.Delivery) []deliveryLine {
	lines := []deliveryLine{} // [], not null, so that a consumer can always iterate
	for _, d := range ds {
		lines = append(lines, deliveryLine{ID: d.ID, Status: d.Status, Attempts: d.Attempts, Target: d.Target,
			Mailing: d.Mailing.Type, Items: len(d.Mailing.Items), CreatedAt: d.CreatedAt, SentAt: d.SentAt, LastError: d.LastError})
	}
	return lines
}

// runSubscriptionsList lists the subscriptions as a table or as JSON.
func runSubscriptionsList(ctx context.Context, c *cli, args []string) int {
	var account string
	var asJSON bool
	cfg, _, code, ok := c.parseSubscriptions(subscriptionsCommand("list"), args, false, func(fs *flag.FlagSet) {
		fs.StringVar(&account, "account", "", "only the subscriptions of `ACCOUNT`")
		fs.BoolVar(&asJSON, "json", false, "print the subscriptions as a JSON array")
	})
	if !ok {
		return code
	}
	return c.withSubscriptions(ctx, cfg.Store, func(_ tenderbase.Store, subs tenderbase.SubscriptionStore) error {
		list, err := listSubscriptions(ctx, subs, account)
		if err != nil {
			return err
		}
		if asJSON {
			return writeJSON(c.stdout, list)
		}
		switch {
		case len(list) == 0 && account != "":
			fmt.Fprintf(c.stderr, "tenderbase: account %s has no subscriptions\n", tenderbase.Quote(account))
			return nil
		case len(list) == 0:
			fmt.Fprintln(c.stderr, "tenderbase: no subscriptions yet; create one with: "+
				"tenderbase subscriptions create --account ACCOUNT --name NAME --resource ru --recipient ADDRESS")
			return nil
		}
		return writeSubscriptions(c.stdout, list)
	})
}

// listSubscriptions returns the subscriptions of account, or of every
// account for "", each with its newest deliveries.
func listSubscriptions(ctx context.Context, subs tenderbase.SubscriptionStore, account string) ([]listedSubscription, error) {
	all, err := subs.Subscriptions(ctx, account)
	if err != nil {
		return nil, err
	}
	list := []listedSubscription{}
	for _, sub := range all {
		ds, err := subs.Deliveries(ctx, sub.ID, listedDeliveries)
		if err != nil {
			return nil, err
		}
		list = append(list, listedSubscription{Subscription: sub, Deliveries: deliveryLines(ds)})
	}
	return list, nil
}

// writeJSON writes v as indented JSON, leaving <, > and & as they are.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// writeSubscriptions writes the subscriptions as a table.
func writeSubscriptions(w io.Writer, list []listedSubscription) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tACCOUNT\tBRANCH\tNAME\tRESOURCE\tSCHEDULE\tMAILS TO\tLAST ROUND\tDELIVERIES")
	for _, l := range list {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", l.ID, l.Account, orDash(l.Branch), l.Name, l.Resource,
			describeSchedule(l.Schedule), describeTargets(l.Subscription), l.RanAt.UTC().Format(time.RFC3339),
			describeStatuses(l.Deliveries))
	}
	return tw.Flush()
}

// describeStatuses lists the statuses of deliveries, newest first, "-" for
// none.
func describeStatuses(ds []deliveryLine) string {
	var statuses []string
	for _, d := range ds {
		statuses = append(statuses, d.Status)
	}
	return orDash(strings.Join(statuses, ","))
}

// orDash returns s, or "-" in place of nothing, so that a table's columns
// stay in place.
func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// runSubscriptionsDelete deletes a subscription of any account.
func runSubscriptionsDelete(ctx context.Context, c *cli, args []string) int {
	cfg, _, code, ok := c.parseSubscriptions(subscriptionsCommand("delete"), args, true, func(*flag.FlagSet) {})
	if !ok {
		return code
	}
	return c.withSubscriptions(ctx, cfg.Store, func(_ tenderbase.Store, subs tenderbase.SubscriptionStore) error {
		sub, err := subs.Subscription(ctx, cfg.ID)
		if err != nil {
			return err
		}
		if err := subs.DeleteSubscription(ctx, "", cfg.ID); err != nil {
			return err
		}
		fmt.Fprintf(c.stdout, "%s (%s, account %s): deleted\n", sub.ID, sub.Name, sub.Account)
		return nil
	})
}

// runSubscriptionsDeliveries lists the deliveries of a subscription.
func runSubscriptionsDeliveries(ctx context.Context, c *cli, args []string) int {
	limit := 20
	var asJSON bool
	cmd := subscriptionsCommand("deliveries")
	cfg, fs, code, ok := c.parseSubscriptions(cmd, args, true, func(fs *flag.FlagSet) {
		fs.IntVar(&limit, "limit", limit, "show the newest `N` deliveries")
		fs.BoolVar(&asJSON, "json", false, "print the deliveries as a JSON array")
	})
	if !ok {
		return code
	}
	if limit < 1 {
		fmt.Fprintf(c.stderr, "tenderbase %s: --limit %d: give 1 or more\n", cmd.name, limit)
		fs.Usage()
		return exitUsage
	}
	return c.withSubscriptions(ctx, cfg.Store, func(_ tenderbase.Store, subs tenderbase.SubscriptionStore) error {
		// A subscription that mailed nothing and one that does not exist
		// both have no deliveries; only the second is a mistake.
		if _, err := subs.Subscription(ctx, cfg.ID); err != nil {
			return err
		}
		ds, err := subs.Deliveries(ctx, cfg.ID, limit)
		if err != nil {
			return err
		}
		if asJSON {
			return writeJSON(c.stdout, deliveryLines(ds))
		}
		if len(ds) == 0 {
			fmt.Fprintf(c.stderr, "tenderbase: subscription %s has mailed nothing yet\n", cfg.ID)
			return nil
		}
		return writeDeliveries(c.stdout, deliveryLines(ds))
	})
}

// writeDeliveries writes deliveries as a table.
func writeDeliveries(w io.Writer, ds []deliveryLine) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "CREATED\tSTATUS\tATTEMPTS\tTARGET\tMAILING\tITEMS\tSENT\tLAST ERROR")
	for _, d := range ds {
		sent := "-"
		if !d.SentAt.IsZero() {
			sent = d.SentAt.UTC().Format(time.RFC3339)
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%d\t%s\t%s\n", d.CreatedAt.UTC().Format(time.RFC3339), d.Status, d.Attempts,
			d.Target, d.Mailing, d.Items, sent, orDash(clip(strings.Join(strings.Fields(d.LastError), " "), 120)))
	}
	return tw.Flush()
}

// stringList is a repeatable flag of strings: --recipient a --recipient b.
type stringList struct{ values *[]string }

func (l stringList) String() string {
	if l.values == nil {
		return ""
	}
	return strings.Join(*l.values, ",")
}

func (l stringList) Set(v string) error {
	*l.values = append(*l.values, v)
	return nil
}
