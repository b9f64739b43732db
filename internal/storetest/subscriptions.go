package storetest

import (
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/tenderbase/tenderbase"
)

// testSubscriptions checks tenderbase.SubscriptionStore: what is kept of a
// subscription, the plans' counts, the mailer's commits from one position
// only, the claims of deliveries and the unsubscribe.
func testSubscriptions(t *testing.T, open Open) {
	st, reopen := open(t)
	closing(t, st)
	subs, ok := st.(tenderbase.SubscriptionStore)
	if !ok {
		// The reference store of the records keeps none; the project's
		// stores say at compile time that they do.
		t.Skip("the store keeps no subscriptions")
	}
	other := closing(t, reopen(t)).(tenderbase.SubscriptionStore)
	ctx := t.Context()

	// Changes before a subscription are not its to mail.
	put(t, st, tender("sub-t1", "44", 77, 1, "поставка бумаги", tenderbase.Party{INN: "7701234567"}))
	feedEnd := func() int64 {
		p, err := st.(tenderbase.ChangeFeed).Changes(ctx, tenderbase.FeedQuery{Kinds: []tenderbase.Kind{tenderbase.KindTender}, Limit: tenderbase.MaxFeedPage})
		if err != nil {
			t.Fatal(err)
		}
		return p.Last
	}
	want := tenderbase.Subscription{
		Account: "acct-a", Branch: "", Name: "Бумага", Resource: "ru",
		Search:   []byte(`{"query":"бумага","regions":[77]}`),
		Schedule: tenderbase.Schedule{Every: tenderbase.ScheduleDaily, Hour: 9},
		Winners:  true, WatchINNs: []string{"7701234567"},
		Recipients: []string{"buyer@example.com"}, Webhook: "https://hooks.example.com/tb",
	}
	a, err := subs.CreateSubscription(ctx, want, tenderbase.PlanGuru)
	if err != nil {
		t.Fatal(err)
	}
	if a.ID == "" || len(a.Secret) < 40 || a.Position != feedEnd() || a.Position == 0 {
		t.Errorf("created %+v: want an id, a secret and the feed's end %d as position", a, feedEnd())
	}
	b, err := subs.CreateSubscription(ctx, tenderbase.Subscription{Account: "acct-b", Name: "b", Resource: "contracts",
		Recipients: []string{"B@Example.com"}}, tenderbase.PlanFree)
	if err != nil {
		t.Fatal(err)
	}
	t.Run("List", func(t *testing.T) {
		for _, s := range []tenderbase.SubscriptionStore{subs, other} {
			got, err := s.Subscriptions(ctx, "acct-a")
			if err != nil {
				t.Fatal(err)
			}
			if diff := gocmp.Diff([]tenderbase.Subscription{a}, got); diff != "" {
				t.Errorf("Subscriptions of acct-a (-want +got):\n%s", diff)
			}
			all, err := s.Subscriptions(ctx, "")
			if err != nil {
				t.Fatal(err)
			}
			if len(all) != 2 || all[0].ID != a.ID || all[1].ID != b.ID {
				t.Errorf("Subscriptions of every account: %v, want %s then %s", ids(all), a.ID, b.ID)
			}
			if all[1].Recipients[0] != "b@example.com" || all[1].Schedule.Every != tenderbase.SchedulePublished {
				t.Errorf("kept %+v: want the address in lower case and the published schedule", all[1])
			}
			one, err := s.Subscription(ctx, a.ID)
			if err != nil {
				t.Fatal(err)
			}
			if diff := gocmp.Diff(a, one); diff != "" {
				t.Errorf("Subscription(%s) (-want +got):\n%s", a.ID, diff)
			}
			if _, err := s.Subscription(ctx, "s_nope\x00"); tenderbase.ErrorCode(err) != tenderbase.ENOTFOUND {
				t.Errorf("an unknown subscription: %v, want not found", err)
			}
		}
	})
	t.Run("PlanCount", func(t *testing.T) {
		_, err := subs.CreateSubscription(ctx, tenderbase.Subscription{Account: "acct-b", Name: "b2", Resource: "ru",
			Recipients: []string{"b@example.com"}}, tenderbase.PlanFree)
		if tenderbase.ErrorCode(err) != tenderbase.EFORBIDDEN {
			t.Errorf("a second subscription on free: %v, want forbidden", err)
		}
		_, err = subs.CreateSubscription(ctx, tenderbase.Subscription{Account: "acct-b", Name: "daily", Resource: "ru",
			Schedule: tenderbase.Schedule{Every: "daily"}, Recipients: []string{"b@example.com"}}, tenderbase.PlanFree)
		if tenderbase.ErrorCode(err) != tenderbase.EFORBIDDEN {
			t.Errorf("a daily mailing on free: %v, want forbidden", err)
		}
		_, err = subs.CreateSubscription(ctx, tenderbase.Subscription{Account: "acct-c", Name: "x", Resource: "ru"}, tenderbase.PlanGuru)
		if tenderbase.ErrorCode(err) != tenderbase.EINVALID {
			t.Errorf("a subscription mailing nobody: %v, want invalid", err)
		}
	})
	t.Run("Commit", func(t *testing.T) { testMailingCommit(t, st, subs, other, a) })
	t.Run("Claims", func(t *testing.T) { testDeliveryClaims(t, subs, other, b) })
	t.Run("Unsubscribe", func(t *testing.T) { testUnsubscribe(t, subs, other) })
	t.Run("Delete", func(t *testing.T) {
		if err := subs.DeleteSubscription(ctx, "acct-b", a.ID); tenderbase.ErrorCode(err) != tenderbase.ENOTFOUND {
			t.Errorf("deleting another account's subscription: %v, want not found", err)
		}
		if err := other.DeleteSubscription(ctx, "acct-a", a.ID); err != nil {
			t.Fatal(err)
		}
		left, err := subs.Subscriptions(ctx, "acct-a")
		if err != nil || len(left) != 0 {
			t.Errorf("after the delete: %v, %v", ids(left), err)
		}
		if err := subs.DeleteSubscription(ctx, "", a.ID); tenderbase.ErrorCode(err) != tenderbase.ENOTFOUND {
			t.Errorf("deleting it again: %v, want not found", err)
		}
	})
}

func ids(subs []tenderbase.Subscription) []string {
	var out []string
	for _, s := range subs {
		out = append(out, s.ID)
	}
	return out
}

// newDelivery returns a delivery of subscription id to target, made at.
func newDelivery(id, target string, at time.Time, n int) tenderbase.Delivery {
	return tenderbase.Delivery{
		ID: fmt.Sprintf("d_%s_%d", id, n), Subscription: id, Target: target, CreatedAt: at,
		Mailing: tenderbase.Mailing{ID: fmt.Sprintf("m_%d", n), Type: tenderbase.MailingNew, Subscription: id, Name: "n", Resource: "ru",
			Items:     []tenderbase.MailItem{{Kind: tenderbase.KindTender, Key: "sub-t1", Title: "поставка бумаги", Facts: []string{"Регион: 77"}}},
			CreatedAt: at},
	}
}

// testMailingCommit checks that a mailing is committed from the position
// it was read from only, once, whichever store commits it.
func testMailingCommit(t *testing.T, st tenderbase.Store, subs, other tenderbase.SubscriptionStore, a tenderbase.Subscription) {
	ctx := t.Context()
	at := time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC)
	if err := subs.CommitMailing(ctx, tenderbase.MailingCommit{Subscription: a.ID, From: a.Position + 1, To: a.Position + 5, At: at}); !errors.Is(err, tenderbase.ErrMailingConflict) {
		t.Errorf("a commit from another position: %v, want the conflict", err)
	}
	// Two mailers read the same changes and commit at once: one wins.
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i, s := range []tenderbase.SubscriptionStore{subs, other} {
		wg.Go(func() {
			errs[i] = s.CommitMailing(ctx, tenderbase.MailingCommit{Subscription: a.ID, From: a.Position, To: a.Position + 3, At: at,
				Deliveries: []tenderbase.Delivery{newDelivery(a.ID, "mailto:buyer@example.com", at, i)}})
		})
	}
	wg.Wait()
	won := 0
	for _, err := range errs {
		switch {
		case err == nil:
			won++
		case !errors.Is(err, tenderbase.ErrMailingConflict):
			t.Fatalf("CommitMailing: %v", err)
		}
	}
	if won != 1 {
		t.Fatalf("%d of two commits from one position won, want 1", won)
	}
	got, err := other.Subscriptions(ctx, a.Account)
	if err != nil {
		t.Fatal(err)
	}
	if got[0].Position != a.Position+3 || !got[0].RanAt.Equal(at) {
		t.Errorf("after the commit: position %d ran %s, want %d and %s", got[0].Position, got[0].RanAt, a.Position+3, at)
	}
	ds, err := subs.Deliveries(ctx, a.ID, 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(ds) != 1 || ds[0].Status != tenderbase.DeliveryPending || ds[0].Mailing.Items[0].Title != "поставка бумаги" || !ds[0].CreatedAt.Equal(at) {
		t.Fatalf("deliveries after the commit: %+v", ds)
	}
	sent := ds[0]
	sent.Status, sent.Attempts, sent.SentAt = tenderbase.DeliverySent, 1, at
	if err := subs.FinishDelivery(ctx, sent); err != nil {
		t.Fatal(err)
	}
}

// testDeliveryClaims checks that a delivery is claimed by one sender
// until its lease ends, and never again once finished.
func testDeliveryClaims(t *testing.T, subs, other tenderbase.SubscriptionStore, b tenderbase.Subscription) {
	ctx := t.Context()
	at := time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC)
	var ds []tenderbase.Delivery
	for i := range 3 {
		ds = append(ds, newDelivery(b.ID, "mailto:b@example.com", at.Add(time.Duration(i)*time.Millisecond), 10+i))
	}
	if err := subs.CommitMailing(ctx, tenderbase.MailingCommit{Subscription: b.ID, From: b.Position, To: b.Position, At: at, Deliveries: ds}); err != nil {
		t.Fatal(err)
	}
	lease := time.Minute
	now := at.Add(time.Second)
	first, err := subs.ClaimDeliveries(ctx, now, lease, 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(first) != 2 || first[0].ID != ds[0].ID || first[1].ID != ds[1].ID {
		t.Fatalf("first claim of 2: %v, want the oldest two", deliveryIDs(first))
	}
	second, err := other.ClaimDeliveries(ctx, now, lease, 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(second) != 1 || second[0].ID != ds[2].ID {
		t.Fatalf("second claim: %v, want only the one not claimed", deliveryIDs(second))
	}
	sent := first[0]
	sent.Status, sent.Attempts, sent.SentAt = tenderbase.DeliverySent, 1, now
	failed := first[1]
	failed.Status, failed.Attempts, failed.LastError = tenderbase.DeliveryFailed, tenderbase.MaxDeliveryAttempts, "550 no such user"
	for _, d := range []tenderbase.Delivery{sent, failed} {
		if err := other.FinishDelivery(ctx, d); err != nil {
			t.Fatal(err)
		}
	}
	// The third one's sender died: its lease ends, and it is claimed again.
	again, err := subs.ClaimDeliveries(ctx, now.Add(lease+time.Second), lease, 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(again) != 1 || again[0].ID != ds[2].ID {
		t.Errorf("claim after the lease: %v, want only %s", deliveryIDs(again), ds[2].ID)
	}
	list, err := subs.Deliveries(ctx, b.ID, 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 3 || list[0].ID != ds[2].ID || list[2].Status != tenderbase.DeliverySent || !list[2].SentAt.Equal(now) ||
		list[1].Status != tenderbase.DeliveryFailed || list[1].LastError != "550 no such user" {
		t.Errorf("deliveries newest first: %+v", list)
	}
}

func deliveryIDs(ds []tenderbase.Delivery) []string {
	var out []string
	for _, d := range ds {
		out = append(out, d.ID)
	}
	return out
}

// testUnsubscribe checks that a recipient taken off a subscription gets
// none of its pending mail, and that a subscription left mailing nobody
// is gone.
func testUnsubscribe(t *testing.T, subs, other tenderbase.SubscriptionStore) {
	ctx := t.Context()
	s, err := subs.CreateSubscription(ctx, tenderbase.Subscription{Account: "acct-u", Name: "u", Resource: "ru",
		Recipients: []string{"one@example.com", "two@example.com"}}, tenderbase.PlanStandard)
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 11, 27, 11, 0, 0, 0, time.UTC)
	ds := []tenderbase.Delivery{newDelivery(s.ID, "mailto:one@example.com", at, 20), newDelivery(s.ID, "mailto:two@example.com", at, 21)}
	if err := subs.CommitMailing(ctx, tenderbase.MailingCommit{Subscription: s.ID, From: s.Position, To: s.Position, At: at, Deliveries: ds}); err != nil {
		t.Fatal(err)
	}
	if err := other.RemoveRecipient(ctx, s.ID, "nobody@example.com"); tenderbase.ErrorCode(err) != tenderbase.ENOTFOUND {
		t.Errorf("removing a recipient it does not mail: %v, want not found", err)
	}
	if err := other.RemoveRecipient(ctx, s.ID, "ONE@example.com"); err != nil {
		t.Fatal(err)
	}
	got, err := subs.Subscriptions(ctx, "acct-u")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || gocmp.Diff([]string{"two@example.com"}, got[0].Recipients) != "" {
		t.Fatalf("after one unsubscribed: %+v", got)
	}
	left, err := subs.Deliveries(ctx, s.ID, 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(left) != 1 || left[0].Target != "mailto:two@example.com" {
		t.Errorf("pending deliveries after one unsubscribed: %v", deliveryIDs(left))
	}
	// A mailer that read the recipients before they left commits its
	// mailing after: the one who left gets none of it.
	late := []tenderbase.Delivery{newDelivery(s.ID, "mailto:one@example.com", at, 22), newDelivery(s.ID, "mailto:two@example.com", at, 23)}
	if err := subs.CommitMailing(ctx, tenderbase.MailingCommit{Subscription: s.ID, From: s.Position, To: s.Position, At: at, Deliveries: late}); err != nil {
		t.Fatal(err)
	}
	if left, err = other.Deliveries(ctx, s.ID, 10); err != nil || len(left) != 2 || left[0].Target != "mailto:two@example.com" || left[1].Target != "mailto:two@example.com" {
		t.Errorf("deliveries after a late commit: %v, %v; want two, to two@ alone", deliveryIDs(left), err)
	}
	if err := subs.RemoveRecipient(ctx, s.ID, "two@example.com"); err != nil {
		t.Fatal(err)
	}
	if got, err := subs.Subscriptions(ctx, "acct-u"); err != nil || len(got) != 0 {
		t.Errorf("a subscription left mailing nobody: %v, %v; want it gone", ids(got), err)
	}
	if err := subs.RemoveRecipient(ctx, s.ID, "two@example.com"); tenderbase.ErrorCode(err) != tenderbase.ENOTFOUND {
		t.Errorf("unsubscribing from a subscription gone: %v, want not found", err)
	}
}
