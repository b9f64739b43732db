package tools

import (
	"context"
	"encoding/json"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/sqlite"
	"github.com/tenderbase/tenderbase/internal/webhook"
)

// ownSet returns the tools over a store of their own holding the demo, for
// the tests that change what it keeps.
func ownSet(t *testing.T) (*Set, *sqlite.Store) {
	t.Helper()
	store, err := openDemo(t.Context(), t.TempDir()+"/own.db")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	return New(store, nil), store
}

// listSubscriptions calls subscriptions.list with args as the caller of
// ctx, and reads its answer.
func listSubscriptions(t *testing.T, set *Set, ctx context.Context, args string) subscriptionList {
	t.Helper()
	out, err := call(t, set, ctx, "subscriptions.list", args)
	if err != nil {
		t.Fatal(err)
	}
	var l subscriptionList
	if err := json.Unmarshal(out.Value, &l); err != nil {
		t.Fatal(err)
	}
	return l
}

// TestSubscriptionTools creates, lists and deletes a subscription as an
// account does over MCP, and checks what each plan and each mistake gets.
func TestSubscriptionTools(t *testing.T) {
	set, _ := ownSet(t)
	guru := asAccount(tenderbase.PlanGuru, "acct-guru")
	out, err := call(t, set, guru, "subscriptions.create", `{"name": "Кровля", "resource": "ru", "search": {"query": "ремонт", "regions": [77]}, `+
		`"schedule": "weekly", "hour": 8, "weekday": "monday", "winners": true, "watch_inns": ["7701234567"], "webhook": "https://h.example.com/tb"}`)
	if err != nil {
		t.Fatal(err)
	}
	var created subscriptionCreated
	if err := json.Unmarshal(out.Value, &created); err != nil {
		t.Fatal(err)
	}
	id := created.Subscription.ID
	if !strings.HasPrefix(id, "s_") || !strings.HasPrefix(created.Secret, "whsec_") || created.Subscription.Schedule.Weekday != "monday" {
		t.Fatalf("created %+v", created)
	}
	list := func(ctx context.Context, args string) subscriptionList { return listSubscriptions(t, set, ctx, args) }
	if l := list(guru, `{}`); len(l.Subscriptions) != 1 || l.Subscriptions[0].ID != id || l.Allowed != 30 || l.Plan != "guru" {
		t.Errorf("the guru account's list: %+v", l)
	}
	if l := list(asAccount(tenderbase.PlanGuru, "acct-other"), `{}`); len(l.Subscriptions) != 0 {
		t.Errorf("another account lists %+v", l.Subscriptions)
	}
	if _, err := call(t, set, asAccount(tenderbase.PlanGuru, "acct-other"), "subscriptions.delete", `{"id": "`+id+`"}`); errorCode(err) != tenderbase.ENOTFOUND {
		t.Errorf("another account deletes it: %v", err)
	}
	if _, err := call(t, set, guru, "subscriptions.delete", `{"id": "`+id+`"}`); err != nil {
		t.Fatal(err)
	}
	if l := list(guru, `{}`); len(l.Subscriptions) != 0 {
		t.Errorf("after the delete: %+v", l.Subscriptions)
	}

	free := asAccount(tenderbase.PlanFree, "acct-free")
	good := `{"name": "n", "resource": "ru", "recipients": ["a@example.com"]}`
	if _, err := call(t, set, free, "subscriptions.create", good); err != nil {
		t.Fatal(err)
	}
	free2 := asAccount(tenderbase.PlanFree, "acct-free-hooks")
	for _, c := range []struct {
		what string
		ctx  context.Context
		args string
		code string
		msg  string
	}{
		{"no key", context.Background(), good, tenderbase.EUNAUTHORIZED, "API key"},
		{"a second on free", free, good, tenderbase.EFORBIDDEN, "1 of 1 subscriptions"},
		{"daily on free", asAccount(tenderbase.PlanFree, "acct-free-2"), `{"name": "n", "resource": "ru", "schedule": "daily", "recipients": ["a@example.com"]}`, tenderbase.EFORBIDDEN, "daily and weekly"},
		{"winners on standard", asAccount(tenderbase.PlanStandard, "acct-std"), `{"name": "n", "resource": "ru", "winners": true, "recipients": ["a@example.com"]}`, tenderbase.EFORBIDDEN, "winners"},
		{"winners of contracts", guru, `{"name": "n", "resource": "contracts", "winners": true, "recipients": ["a@example.com"]}`, tenderbase.EINVALID, "world tenders"},
		{"watched INNs of world tenders", guru, `{"name": "n", "resource": "world", "winners": true, "watch_inns": ["7701234567"], "recipients": ["a@example.com"]}`, tenderbase.EINVALID, "winner_id"},
		{"a page in the search", guru, `{"name": "n", "resource": "ru", "search": {"page": 1}, "recipients": ["a@example.com"]}`, "argument", "takes no page"},
		{"a region out of range", guru, `{"name": "n", "resource": "ru", "search": {"regions": [100]}, "recipients": ["a@example.com"]}`, tenderbase.EINVALID, "regions"},
		{"a filter of another tool", guru, `{"name": "n", "resource": "contracts", "search": {"state": "active"}, "recipients": ["a@example.com"]}`, tenderbase.EINVALID, "state"},
		{"a broken query", guru, `{"name": "n", "resource": "ru", "search": {"query": "(ремонт"}, "recipients": ["a@example.com"]}`, tenderbase.EINVALID, ""},
		{"the fas resource", guru, `{"name": "n", "resource": "fas", "recipients": ["a@example.com"]}`, "argument", "ru, docs, contracts, world, torgi, rnp"},
		{"an hour of 25", guru, `{"name": "n", "resource": "ru", "hour": 25, "recipients": ["a@example.com"]}`, "argument", "0 to 23"},
		{"a bad recipient", guru, `{"name": "n", "resource": "ru", "recipients": ["nobody"]}`, tenderbase.EINVALID, "no e-mail address"},
		{"a webhook at the metadata address", free2, `{"name": "n", "resource": "ru", "webhook": "http://169.254.169.254/latest/meta-data/"}`, tenderbase.EINVALID, "address 169.254.169.254 is link-local"},
		{"a webhook on loopback", free2, `{"name": "n", "resource": "ru", "webhook": "http://127.0.0.1:8080/hook"}`, tenderbase.EINVALID, "is loopback"},
		{"a webhook on a private network", free2, `{"name": "n", "resource": "ru", "webhook": "https://[fd00::5]/hook"}`, tenderbase.EINVALID, "unique local"},
		{"a webhook on the CGNAT space", free2, `{"name": "n", "resource": "ru", "webhook": "https://100.64.1.1/hook"}`, tenderbase.EINVALID, "RFC 6598"},
		{"a webhook at localhost", free2, `{"name": "n", "resource": "ru", "webhook": "http://localhost/hook"}`, tenderbase.EINVALID, "is loopback"},
		{"delete without an id", guru, `{"id": " "}`, "argument", "empty"},
	} {
		tool := "subscriptions.create"
		if strings.HasPrefix(c.what, "delete") {
			tool = "subscriptions.delete"
		}
		_, err := call(t, set, c.ctx, tool, c.args)
		if errorCode(err) != c.code || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: %v (%s), want %s with %q", c.what, err, errorCode(err), c.code, c.msg)
		}
	}
}

// TestSubscriptionWebhookAllowed checks that a webhook may point at a
// network the operator allowed, and at no other that is not public.
func TestSubscriptionWebhookAllowed(t *testing.T) {
	set, _ := ownSet(t)
	set.SetWebhookPolicy(webhook.Policy{Allowed: []netip.Prefix{netip.MustParsePrefix("10.20.0.0/16")}})
	guru := asAccount(tenderbase.PlanGuru, "acct-internal")
	if _, err := call(t, set, guru, "subscriptions.create", `{"name": "n", "resource": "ru", "webhook": "http://10.20.3.4:8080/hook"}`); err != nil {
		t.Errorf("a webhook in the allowed network: %v", err)
	}
	_, err := call(t, set, guru, "subscriptions.create", `{"name": "n", "resource": "ru", "webhook": "http://10.21.3.4:8080/hook"}`)
	if errorCode(err) != tenderbase.EINVALID || !strings.Contains(err.Error(), "is private (RFC 1918)") {
		t.Errorf("a webhook outside the allowed network: %v", err)
	}
}

// TestSubscriptionArgumentForms checks that create takes its arguments in
// their other forms, as every tool does: an hour as a string of digits and
// INNs as numbers.
func TestSubscriptionArgumentForms(t *testing.T) {
	set, _ := ownSet(t)
	out, err := call(t, set, asAccount(tenderbase.PlanGuru, "acct-forms"), "subscriptions.create",
		`{"name": "n", "resource": "ru", "schedule": "daily", "hour": "7", "winners": true, "watch_inns": [7701234567], "recipients": ["a@example.com"]}`)
	if err != nil {
		t.Fatal(err)
	}
	var created subscriptionCreated
	if err := json.Unmarshal(out.Value, &created); err != nil {
		t.Fatal(err)
	}
	if s := created.Subscription; s.Schedule.Hour != 7 || len(s.WatchINNs) != 1 || s.WatchINNs[0] != "7701234567" {
		t.Errorf("created %+v", s)
	}
}

// TestMatches checks what a subscription mails of the feed: the new
// records its search finds and no other, once withdrawn nothing, and the
// winners of its tenders for a plan that sees them.
func TestMatches(t *testing.T) {
	set, store := ownSet(t)
	ctx := t.Context()
	sub, err := store.CreateSubscription(ctx, tenderbase.Subscription{Account: "acct-m", Name: "Кровля", Resource: "ru",
		Search: []byte(`{"query": "кровли", "regions": [77], "open": true}`), Winners: true, WatchINNs: []string{"5009876543"},
		Recipients: []string{"a@example.com"}}, tenderbase.PlanGuru)
	if err != nil {
		t.Fatal(err)
	}
	soon := time.Now().Add(30 * 24 * time.Hour)
	tender := func(number, title string, region int) *tenderbase.Tender {
		return &tenderbase.Tender{PurchaseNumber: number, Law: tenderbase.Law44, Version: 1, Title: title, Status: tenderbase.TenderActive,
			Customer: tenderbase.Party{INN: "7701000001", Name: "ГБУ «Жилищник»"}, Region: region, MaxPrice: 1e6, Currency: "RUB",
			PublishedAt: time.Now().Add(-time.Hour), ApplicationsDeadline: soon}
	}
	put := func(recs ...tenderbase.Record) {
		t.Helper()
		if _, err := store.Put(ctx, recs); err != nil {
			t.Fatal(err)
		}
	}
	put(tender("0373100000126100001", "Ремонт кровли школы", 77), tender("0373100000126100002", "Ремонт кровли в Твери", 69),
		tender("0373100000126100003", "Ремонт кровли склада", 77), tender("0373100000126100004", "Поставка бумаги", 77))
	put(&tenderbase.Withdrawal{ID: "w-1", TargetKind: tenderbase.KindTender, TargetKey: "0373100000126100003", PublishedAt: time.Now()})
	feed := func(after int64) ([]tenderbase.FeedEntry, int64) {
		t.Helper()
		page, err := store.Changes(ctx, tenderbase.FeedQuery{Kinds: tenderbase.FeedResources["ru"], After: after, Limit: tenderbase.MaxFeedPage})
		if err != nil {
			t.Fatal(err)
		}
		return page.Entries, page.Last
	}
	keys := func(items []tenderbase.MailItem) []string {
		var out []string
		for _, it := range items {
			out = append(out, it.Key)
		}
		return out
	}
	guru := asAccount(tenderbase.PlanGuru, "acct-m")
	match := func(ctx context.Context, changes []tenderbase.FeedEntry) (news, winners []tenderbase.MailItem, err error) {
		t.Helper()
		cands, err := set.Candidates(ctx, "ru", changes)
		if err != nil {
			t.Fatal(err)
		}
		return set.Matches(ctx, sub, cands, time.Now())
	}
	changes, last := feed(sub.Position)
	news, winners, err := match(guru, changes)
	if err != nil {
		t.Fatal(err)
	}
	if got := keys(news); len(got) != 1 || got[0] != "0373100000126100001" || len(winners) != 0 {
		t.Errorf("new: %v, winners %v; want the school's tender alone (not Tver's, not the withdrawn one, not the paper)", got, keys(winners))
	}

	// The paper tender was won by a watched INN; the school's by another.
	won := func(id, number, inn string) *tenderbase.Protocol {
		return &tenderbase.Protocol{ID: id, PurchaseNumber: number, Number: "1", PublishedAt: time.Now(),
			Participants: []tenderbase.Participant{{Party: tenderbase.Party{INN: inn, Name: "ООО «Победа»"}, Winner: true, Price: 900000}}}
	}
	put(won("p-1", "0373100000126100001", "7709999999"), won("p-4", "0373100000126100004", "5009876543"))
	changes, _ = feed(last)
	news, winners, err = match(guru, changes)
	if err != nil {
		t.Fatal(err)
	}
	// The school's tender is no longer open, which its search asks; the
	// winners mailing is of its tenders whatever their state.
	if got := keys(winners); len(news) != 0 || len(got) != 2 || got[0] != "0373100000126100001" || got[1] != "0373100000126100004" {
		t.Errorf("winners: %v (new %v), want the school's (its search) and the paper (a watched INN)", got, keys(news))
	}
	if len(winners) == 2 && (len(winners[1].Watched) != 1 || !strings.Contains(strings.Join(winners[1].Facts, "\n"), "Победитель: ООО «Победа» (INN 5009876543)")) {
		t.Errorf("the watched win: %+v", winners[1])
	}
	// A plan that does not see participants gets no winners mailing, even
	// for a subscription made on another plan.
	_, winners, err = match(asAccount(tenderbase.PlanFree, "acct-m"), changes)
	if err != nil || len(winners) != 0 {
		t.Errorf("winners on free: %v, %v", keys(winners), err)
	}
}

// TestSubscriptionListPages checks that a corporate account's list comes
// a screen at a time, branch by branch.
func TestSubscriptionListPages(t *testing.T) {
	set, _ := ownSet(t)
	corp := asAccount(tenderbase.PlanCorporate, "acct-corp")
	for i := range 25 {
		branch := []string{"Казань", "Омск"}[i%2]
		args := `{"name": "n", "resource": "ru", "branch": "` + branch + `", "recipients": ["a@example.com"]}`
		if _, err := call(t, set, corp, "subscriptions.create", args); err != nil {
			t.Fatal(err)
		}
	}
	page := func(args string) subscriptionList { return listSubscriptions(t, set, corp, args) }
	first, last := page(`{}`), page(`{"page": 2}`)
	if first.Total != 25 || first.Pages != 3 || len(first.Subscriptions) != 10 || len(last.Subscriptions) != 5 {
		t.Fatalf("pages: total %d, pages %d, %d and %d subscriptions", first.Total, first.Pages, len(first.Subscriptions), len(last.Subscriptions))
	}
	if first.Subscriptions[0].Branch != "Казань" || last.Subscriptions[4].Branch != "Омск" {
		t.Errorf("not branch by branch: first %q, last %q", first.Subscriptions[0].Branch, last.Subscriptions[4].Branch)
	}
	if omsk := page(`{"branch": "Омск", "page": 1}`); omsk.Total != 12 || len(omsk.Subscriptions) != 2 {
		t.Errorf("one branch: total %d, %d subscriptions", omsk.Total, len(omsk.Subscriptions))
	}
	if past := page(`{"page": 5}`); len(past.Subscriptions) != 0 || past.Total != 25 {
		t.Errorf("a page past the end: %+v", past)
	}
}
