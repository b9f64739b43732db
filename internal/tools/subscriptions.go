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

// accountSubscriptions returns the key of the caller of ctx and the
// store of subscriptions: subscriptions are an account's, so a caller
// without a key has none.
func (s *Set) accountSubscriptions(ctx context.Context) (tenderbase.Key, tenderbase.SubscriptionStore, error) {
	k, ok := tenderbase.KeyFromContext(ctx)
	if !ok || k.Account == "" {
		return k, nil, tenderbase.Errorf(tenderbase.EUNAUTHORIZED, "subscriptions belong to an account: call with an API key")
	}
	subs, ok := tenderbase.StoreAs[tenderbase.SubscriptionStore](s.store)
	if !ok {
		return k, nil, errors.New("this store keeps no subscriptions")
	}
	return k, subs, nil
}

// subscribeArgs are the arguments of subscriptions.create.
type subscribeArgs struct {
	Name       string         `json:"name" jsonschema:"Mail subject."`
	Resource   string         `json:"resource" jsonschema:"The search tool it follows."`
	Search     map[string]any `json:"search,omitempty" jsonschema:"That tool's arguments but page, cursor, sort: {\"query\": \"кровля\"}."`
	Schedule   string         `json:"schedule,omitempty" jsonschema:"daily and weekly: standard plan and up."`
	Hour       int            `json:"hour,omitempty" jsonschema:"Moscow time."`
	Weekday    string         `json:"weekday,omitempty" jsonschema:"For weekly."`
	Recipients []string       `json:"recipients,omitempty" jsonschema:"E-mail addresses; or webhook, or both."`
	Webhook    string         `json:"webhook,omitempty" jsonschema:"Public URL receiving each mailing as signed JSON."`
	Winners    bool           `json:"winners,omitempty" jsonschema:"Mail who wins too (ru, world; guru, corporate)."`
	WatchINNs  []string       `json:"watch_inns,omitempty" jsonschema:"INNs whose wins the winners mailing reports."`
	Branch     string         `json:"branch,omitempty" jsonschema:"Groups subscriptions (corporate)."`
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
	ID string `json:"id" jsonschema:"The id subscriptions.list gives, e.g. s_3f9a1c2b."`
}

func (a *subscriptionIDArgs) check() error { return requireText("id", &a.ID) }

// subscriptionListArgs are the arguments of subscriptions.list.
type subscriptionListArgs struct {
	Branch string `json:"branch,omitempty" jsonschema:"Only this branch's; absent: all."`
	Page   int    `json:"page,omitempty" jsonschema:"From 0, 10 a page."`
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
		description: "Mail a search's new matches to recipients and/or a webhook, as published or daily or weekly. Try the search " +
			"with its tool first. Plans: free 1, hourly at most; standard daily, weekly; guru winners; corporate branches. " +
			"Returns its secret once." + " " + `Example: {"name": "Кровля", "resource": "ru", "search": {"query": "кровля"}, "schedule": "daily", "hour": 9, ` +
			`"webhook": "https://x.ru/h"}.`,
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
		description: "The account's subscriptions, 10 a page by branch, with the plan's allowance and newest deliveries (sent, " +
			`pending, or failed with the error). Next: subscriptions.delete by id. Example: {"branch": "Урал"}.`,
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
		description: "Delete a subscription: it mails no more, and its unsent mailings are dropped. A recipient can also leave by " +
			"the link in any mail.",
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
