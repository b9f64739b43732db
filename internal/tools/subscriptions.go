package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/tenderbase/tenderbase"
)

// storeAs returns the store behind st as a T (a subscription store, a
// store that reads many records at once), looking through wrappers that
// say what they wrap (metrics.Store).
func storeAs[T any](st tenderbase.Store) (T, bool) {
	for {
		if t, ok := st.(T); ok {
			return t, true
		}
		w, ok := st.(interface{ Unwrap() tenderbase.Store })
		if !ok {
			var none T
			return none, false
		}
		st = w.Unwrap()
	}
}

// accountSubscriptions returns the key of the caller of ctx and the
// store of subscriptions: subscriptions are an account's, so a caller
// without a key has none.
func (s *Set) accountSubscriptions(ctx context.Context) (tenderbase.Key, tenderbase.SubscriptionStore, error) {
	k, ok := tenderbase.KeyFromContext(ctx)
	if !ok || k.Account == "" {
		return k, nil, tenderbase.Errorf(tenderbase.EUNAUTHORIZED, "subscriptions belong to an account: call with an API key")
	}
	subs, ok := storeAs[tenderbase.SubscriptionStore](s.store)
	if !ok {
		return k, nil, errors.New("this store keeps no subscriptions")
	}
	return k, subs, nil
}

// subscribeArgs are the arguments of subscriptions.create.
type subscribeArgs struct {
	Name       string         `json:"name" jsonschema:"What the subscription is called in its mail's subject, e.g. \"Ремонт кровли, Москва\". Required."`
	Resource   string         `json:"resource" jsonschema:"What it watches, the resource of a search tool: ru (Russian tenders), docs, contracts, world, torgi or rnp. Required."`
	Search     map[string]any `json:"search,omitempty" jsonschema:"The arguments of the resource's search tool that choose the records, as that tool takes them: query and its filters (regions, laws, price_min, okpd2, customer_inn, open...), e.g. {\"query\": \"ремонт кровли\", \"regions\": [77]}. No page, cursor or sort. Empty: every new record."`
	Schedule   string         `json:"schedule,omitempty" jsonschema:"When its mail goes out: published (as records come; the default), daily (at hour) or weekly (on weekday at hour). Daily and weekly from the standard plan."`
	Hour       int            `json:"hour,omitempty" jsonschema:"The hour of a daily or weekly mailing, Moscow time, 0 to 23."`
	Weekday    string         `json:"weekday,omitempty" jsonschema:"The day of a weekly mailing: monday ... sunday."`
	Recipients []string       `json:"recipients,omitempty" jsonschema:"E-mail addresses to mail, up to 20, as strings (an address is never one of the strings of digits that may come as numbers). Give recipients, a webhook or both."`
	Webhook    string         `json:"webhook,omitempty" jsonschema:"An http(s) URL at a public address that receives each mailing as JSON, signed with the subscription's secret (header X-Tenderbase-Signature). Loopback, private and link-local addresses are refused unless the operator allows them."`
	Winners    bool           `json:"winners,omitempty" jsonschema:"Also mail the winners of the tenders the search finds when their protocols name them (resource ru; guru and corporate plans)."`
	WatchINNs  []string       `json:"watch_inns,omitempty" jsonschema:"INNs, strings of digits (10 or 12), whose wins in any tender the winners mailing reports too (resource ru; guru and corporate plans)."`
	Branch     string         `json:"branch,omitempty" jsonschema:"The branch the subscription serves, to group an account's subscriptions (corporate plan)."`
}

func (a *subscribeArgs) check() error {
	if a.Hour < 0 || a.Hour > 23 {
		return argErrorf("argument \"hour\" is from 0 to 23 (Moscow time), got %d", a.Hour)
	}
	if a.Schedule != "" && !slices.Contains([]string{tenderbase.SchedulePublished, tenderbase.ScheduleDaily, tenderbase.ScheduleWeekly}, a.Schedule) {
		return argErrorf("argument \"schedule\" is published, daily or weekly, got %s", tenderbase.Quote(a.Schedule))
	}
	if a.Weekday != "" && !slices.Contains(tenderbase.Weekdays, a.Weekday) {
		return argErrorf("argument \"weekday\" is one of %s, got %s", strings.Join(tenderbase.Weekdays, ", "), tenderbase.Quote(a.Weekday))
	}
	if a.Resource = strings.TrimSpace(a.Resource); !slices.Contains(tenderbase.SubscriptionResources, a.Resource) {
		return argErrorf("argument \"resource\" must be one of %s, got %s", strings.Join(tenderbase.SubscriptionResources, ", "), tenderbase.Quote(a.Resource))
	}
	for _, inn := range a.WatchINNs {
		if !tenderbase.ValidINN(inn) {
			return argErrorf("argument \"watch_inns\" holds %s, which is not an INN of 10 or 12 digits", tenderbase.Quote(inn))
		}
	}
	return requireText("name", &a.Name)
}

// subscriptionIDArgs are the arguments of subscriptions.delete.
type subscriptionIDArgs struct {
	ID string `json:"id" jsonschema:"The subscription's id, as subscriptions.list gives it: s_3f9a1c2b. Required."`
}

func (a *subscriptionIDArgs) check() error { return requireText("id", &a.ID) }

// subscriptionListArgs are the arguments of subscriptions.list.
type subscriptionListArgs struct {
	Branch string `json:"branch,omitempty" jsonschema:"Only the subscriptions of this branch; all when left out."`
	Page   int    `json:"page,omitempty" jsonschema:"Page number from 0; 10 subscriptions a page. Default 0."`
}

func (a subscriptionListArgs) check() error { return checkPage(a.Page) }

// subscriptionsPage is how many subscriptions a page of the list holds: a
// screen's worth, where a corporate account holds up to 300. Ten with
// their settings and three deliveries each are about 8,000 characters, a
// search page's size.
const subscriptionsPage = 10

// subscriptionView is a subscription as the tools show it.
type subscriptionView struct {
	ID         string              `json:"id" jsonschema:"The subscription's id, for subscriptions.delete."`
	Name       string              `json:"name"`
	Branch     string              `json:"branch,omitempty"`
	Resource   string              `json:"resource"`
	Search     map[string]any      `json:"search" jsonschema:"The search tool's arguments that choose the records."`
	Schedule   tenderbase.Schedule `json:"schedule" jsonschema:"When its mail goes out: every (published, daily, weekly), hour (Moscow time) and weekday."`
	Winners    bool                `json:"winners,omitempty"`
	WatchINNs  []string            `json:"watch_inns,omitempty"`
	Recipients []string            `json:"recipients,omitempty"`
	Webhook    string              `json:"webhook,omitempty"`
	CreatedAt  time.Time           `json:"created_at"`
	LastRound  time.Time           `json:"last_round" jsonschema:"When the mailer last read what changed for it; mail goes out only when something matched."`
	Deliveries []deliveryView      `json:"deliveries,omitempty" jsonschema:"Its newest deliveries, one per mailing and recipient or webhook."`
}

// deliveryView is a delivery as subscriptions.list shows it.
type deliveryView struct {
	Mailing   string    `json:"mailing" jsonschema:"new (records its search found) or winners."`
	Target    string    `json:"target" jsonschema:"mailto:address or the webhook's URL."`
	Items     int       `json:"items" jsonschema:"How many records it lists."`
	Status    string    `json:"status" jsonschema:"pending (to be sent, or retried after a failure), sent, or failed (given up)."`
	Attempts  int       `json:"attempts"`
	SentAt    time.Time `json:"sent_at,omitzero"`
	LastError string    `json:"last_error,omitempty"`
	CreatedAt time.Time `json:"created_at"`
}

// subscriptionCreated is the output of subscriptions.create.
type subscriptionCreated struct {
	Subscription subscriptionView `json:"subscription"`
	Secret       string           `json:"secret" jsonschema:"Signs its webhook's requests (HMAC-SHA256) and its unsubscribe links. Shown this once: keep it with the webhook's receiver."`
	MatchesNow   int              `json:"matches_now" jsonschema:"How many stored records its search finds now: what is already there, which it will not mail. It mails what comes from now on."`
	Next         string           `json:"next"`
}

// subscriptionList is the output of subscriptions.list.
type subscriptionList struct {
	Account       string             `json:"account"`
	Plan          string             `json:"plan"`
	Allowed       int                `json:"allowed" jsonschema:"How many subscriptions the plan allows the account."`
	Total         int                `json:"total" jsonschema:"How many subscriptions the account holds (of the branch asked for)."`
	Page          int                `json:"page"`
	Pages         int                `json:"pages" jsonschema:"How many pages of 10 they fill: page runs from 0 to pages - 1."`
	Subscriptions []subscriptionView `json:"subscriptions" jsonschema:"This page's subscriptions, branch by branch, oldest first, with their newest deliveries."`
}

// subscriptionDeleted is the output of subscriptions.delete.
type subscriptionDeleted struct {
	Deleted string `json:"deleted" jsonschema:"The id of the subscription deleted; its mailings not yet sent are dropped."`
}

// listedDeliveries is how many of a subscription's newest deliveries the
// list shows.
const listedDeliveries = 3

func (s *Set) subscriptionsCreate() (*Tool, error) {
	return build(definition[subscribeArgs]{
		name:   "subscriptions.create",
		title:  "Subscribe to a search",
		effect: Creates,
		description: "Save a search whose new matches are mailed: by e-mail to recipients and/or as signed JSON to a webhook, " +
			"as they are published, or daily or weekly at an hour (Moscow time). The search is the arguments of the resource's " +
			"search tool (ru.search for tenders: query, regions, laws, price_min, okpd2, open...); try it there first. " +
			"With winners (resource ru), it also mails the winners of its tenders, and of watch_inns' wins, when protocols name them. " +
			"Schedule published, daily or weekly; hour 0-23 and, for weekly, weekday (monday ... sunday). Branch groups a corporate " +
			"account's subscriptions. " +
			"The plans bound how many subscriptions an account holds and what they mail: free one subscription mailed at most hourly; " +
			"standard adds daily and weekly; guru the winners; corporate branches. " +
			"Returns the subscription and its secret, which signs the webhook's requests. List with subscriptions.list, " +
			"remove with subscriptions.delete. " +
			`Example: {"name": "Кровля, Москва", "resource": "ru", "search": {"query": "ремонт кровли", "regions": [77]}, ` +
			`"schedule": "daily", "hour": 9, "recipients": ["buyer@example.com"]}.`,
		output: outputOf[subscriptionCreated](""),
		// A subscription watches the resources of the search tools alone.
		rules: map[string]func(*jsonschema.Schema){
			"resource": func(p *jsonschema.Schema) { p.Enum = anyOf(tenderbase.SubscriptionResources) },
		},
		run: s.subscribe,
	})
}

func (s *Set) subscribe(ctx context.Context, args subscribeArgs) (Output, error) {
	k, subs, err := s.accountSubscriptions(ctx)
	if err != nil {
		return Output{}, err
	}
	for _, name := range []string{"page", "cursor", "sort"} {
		if _, ok := args.Search[name]; ok {
			return Output{}, argErrorf("argument \"search\" takes no %s: a subscription mails what comes, newest first", name)
		}
	}
	search, err := json.Marshal(orEmpty(args.Search))
	if err != nil {
		return Output{}, err
	}
	if hook := strings.TrimSpace(args.Webhook); hook != "" {
		if err := s.webhooks.CheckURL(hook); err != nil {
			return Output{}, err
		}
	}
	c := callerOf(ctx)
	srch, _, err := s.subscriptionSearch(args.Resource, search, time.Now(), false)
	if err == nil {
		srch, err = c.plan.Restrict(srch, lookupParams)
	}
	if err != nil {
		return Output{}, err
	}
	srch.PageSize = 1
	now, err := s.store.Search(ctx, srch)
	if err != nil {
		return Output{}, fmt.Errorf("count the search's matches: %w", err)
	}
	sub, err := subs.CreateSubscription(ctx, tenderbase.Subscription{
		Account: k.Account, Branch: strings.TrimSpace(args.Branch), Name: args.Name, Resource: args.Resource,
		Search: search, Schedule: tenderbase.Schedule{Every: args.Schedule, Hour: args.Hour, Weekday: args.Weekday},
		Winners: args.Winners, WatchINNs: args.WatchINNs, Recipients: args.Recipients, Webhook: strings.TrimSpace(args.Webhook),
	}, c.plan)
	if err != nil {
		return Output{}, err
	}
	view, err := viewOf(sub, nil)
	if err != nil {
		return Output{}, err
	}
	return output(subscriptionCreated{Subscription: view, Secret: sub.Secret, MatchesNow: now.Total,
		Next: "Its first mail lists what its search finds among the records stored from now on. " +
			"subscriptions.list shows its deliveries; the search tool of " + sub.Resource + " shows what it finds already."}, restricted{})
}

// orEmpty returns m, or an empty map for nil, which JSON writes as {}.
func orEmpty(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}

func viewOf(sub tenderbase.Subscription, ds []tenderbase.Delivery) (subscriptionView, error) {
	v := subscriptionView{ID: sub.ID, Name: sub.Name, Branch: sub.Branch, Resource: sub.Resource, Schedule: sub.Schedule,
		Winners: sub.Winners, WatchINNs: sub.WatchINNs, Recipients: sub.Recipients, Webhook: sub.Webhook,
		CreatedAt: sub.CreatedAt, LastRound: sub.RanAt}
	if err := json.Unmarshal(sub.Search, &v.Search); err != nil {
		return v, fmt.Errorf("subscription %s: search: %w", sub.ID, err)
	}
	for _, d := range ds {
		v.Deliveries = append(v.Deliveries, deliveryView{Mailing: d.Mailing.Type, Target: d.Target, Items: len(d.Mailing.Items),
			Status: d.Status, Attempts: d.Attempts, SentAt: d.SentAt, LastError: d.LastError, CreatedAt: d.CreatedAt})
	}
	return v, nil
}

func (s *Set) subscriptionsList() (*Tool, error) {
	return build(definition[subscriptionListArgs]{
		name:  "subscriptions.list",
		title: "The account's subscriptions",
		description: "List the subscriptions of the caller's account, oldest first, with how many its plan allows and each " +
			"one's newest deliveries (sent, pending or failed, with the error), grouped by branch, 10 a page (page from 0; total and pages say how many). " +
			"Give branch for one branch's. " +
			"A delivery is one mailing to one recipient or to the webhook; a failed one is retried with growing pauses for about a day. " +
			"Create with subscriptions.create, remove with subscriptions.delete. " +
			`Example: {} or {"branch": "Екатеринбург", "page": 1}.`,
		output: outputOf[subscriptionList](""),
		run:    s.listSubscriptions,
	})
}

func (s *Set) listSubscriptions(ctx context.Context, args subscriptionListArgs) (Output, error) {
	k, subs, err := s.accountSubscriptions(ctx)
	if err != nil {
		return Output{}, err
	}
	all, err := subs.Subscriptions(ctx, k.Account)
	if err != nil {
		return Output{}, err
	}
	c := callerOf(ctx)
	branch := strings.TrimSpace(args.Branch)
	all = slices.DeleteFunc(all, func(sub tenderbase.Subscription) bool { return branch != "" && sub.Branch != branch })
	// A corporate account reads its subscriptions branch by branch.
	slices.SortStableFunc(all, func(a, b tenderbase.Subscription) int { return strings.Compare(a.Branch, b.Branch) })
	res := subscriptionList{Account: k.Account, Plan: string(c.plan), Allowed: c.limits.Subscriptions, Total: len(all),
		Page: args.Page, Pages: (len(all) + subscriptionsPage - 1) / subscriptionsPage, Subscriptions: []subscriptionView{}}
	start := min(args.Page*subscriptionsPage, len(all))
	for _, sub := range all[start:min(start+subscriptionsPage, len(all))] {
		ds, err := subs.Deliveries(ctx, sub.ID, listedDeliveries)
		if err != nil {
			return Output{}, err
		}
		v, err := viewOf(sub, ds)
		if err != nil {
			return Output{}, err
		}
		res.Subscriptions = append(res.Subscriptions, v)
	}
	return output(res, restricted{})
}

func (s *Set) subscriptionsDelete() (*Tool, error) {
	return build(definition[subscriptionIDArgs]{
		name:   "subscriptions.delete",
		title:  "Delete a subscription",
		effect: Deletes,
		description: "Delete a subscription of the caller's account by its id (subscriptions.list gives it): nothing more is mailed " +
			"for it, and its mailings not yet sent are dropped. A recipient can also leave by the unsubscribe link of any of its mails, " +
			"which takes that recipient alone off it. " +
			`Example: {"id": "s_3f9a1c2b"}.`,
		output: outputOf[subscriptionDeleted](""),
		run:    s.unsubscribe,
	})
}

func (s *Set) unsubscribe(ctx context.Context, args subscriptionIDArgs) (Output, error) {
	k, subs, err := s.accountSubscriptions(ctx)
	if err != nil {
		return Output{}, err
	}
	if err := subs.DeleteSubscription(ctx, k.Account, args.ID); err != nil {
		return Output{}, err
	}
	return output(subscriptionDeleted{Deleted: args.ID}, restricted{})
}
