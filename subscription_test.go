package tenderbase_test

import (
	"strings"
	"testing"
	"time"

	"github.com/tenderbase/tenderbase"
)

func TestNewSubscription(t *testing.T) {
	base := func() tenderbase.Subscription {
		return tenderbase.Subscription{Account: "acct", Name: "Кровля", Resource: "ru", Recipients: []string{"a@example.com"}}
	}
	with := func(change func(*tenderbase.Subscription)) tenderbase.Subscription {
		s := base()
		change(&s)
		return s
	}
	for _, c := range []struct {
		what string
		sub  tenderbase.Subscription
		plan tenderbase.Plan
		code string // "" for none
		msg  string // a part of the message
	}{
		{"the least", base(), tenderbase.PlanFree, "", ""},
		{"no name", with(func(s *tenderbase.Subscription) { s.Name = " " }), tenderbase.PlanFree, tenderbase.EINVALID, "a subscription needs a name"},
		{"no target", with(func(s *tenderbase.Subscription) { s.Recipients = nil }), tenderbase.PlanFree, tenderbase.EINVALID, "recipients"},
		{"a webhook alone", with(func(s *tenderbase.Subscription) { s.Recipients, s.Webhook = nil, "https://h.example.com/x" }), tenderbase.PlanFree, "", ""},
		{"a webhook of ftp", with(func(s *tenderbase.Subscription) { s.Webhook = "ftp://h.example.com/x" }), tenderbase.PlanFree, tenderbase.EINVALID, "no http or https URL"},
		{"a webhook with a control", with(func(s *tenderbase.Subscription) { s.Webhook = "https://h.example.com/\n" }), tenderbase.PlanFree, tenderbase.EINVALID, "printable"},
		{"a bad address", with(func(s *tenderbase.Subscription) { s.Recipients = []string{"nobody"} }), tenderbase.PlanFree, tenderbase.EINVALID, "no e-mail address"},
		{"too many recipients", with(func(s *tenderbase.Subscription) {
			s.Recipients = strings.Split(strings.Repeat("a@example.com,", tenderbase.MaxRecipients+1), ",")[:tenderbase.MaxRecipients+1]
		}), tenderbase.PlanCorporate, tenderbase.EINVALID, "at most 20 recipients"},
		{"an unknown resource", with(func(s *tenderbase.Subscription) { s.Resource = "fas" }), tenderbase.PlanFree, tenderbase.EINVALID, "one of ru, docs"},
		{"a search not an object", with(func(s *tenderbase.Subscription) { s.Search = []byte(`["x"]`) }), tenderbase.PlanFree, tenderbase.EINVALID, "JSON object"},
		{"a search of bad UTF-8", with(func(s *tenderbase.Subscription) { s.Search = []byte("{\"query\": \"\xff\"}") }), tenderbase.PlanFree, tenderbase.EINVALID, "UTF-8"},
		{"daily on free", with(func(s *tenderbase.Subscription) { s.Schedule = tenderbase.Schedule{Every: "daily", Hour: 9} }), tenderbase.PlanFree, tenderbase.EFORBIDDEN, "standard, guru, corporate"},
		{"daily on standard", with(func(s *tenderbase.Subscription) { s.Schedule = tenderbase.Schedule{Every: "Daily", Hour: 9} }), tenderbase.PlanStandard, "", ""},
		{"an hour past 23", with(func(s *tenderbase.Subscription) { s.Schedule = tenderbase.Schedule{Every: "daily", Hour: 24} }), tenderbase.PlanStandard, tenderbase.EINVALID, "from 0 to 23"},
		{"weekly without a day", with(func(s *tenderbase.Subscription) { s.Schedule = tenderbase.Schedule{Every: "weekly"} }), tenderbase.PlanStandard, tenderbase.EINVALID, "needs a weekday"},
		{"published with an hour", with(func(s *tenderbase.Subscription) { s.Schedule = tenderbase.Schedule{Every: "published", Hour: 3} }), tenderbase.PlanStandard, tenderbase.EINVALID, "takes no hour"},
		{"an unknown schedule", with(func(s *tenderbase.Subscription) { s.Schedule = tenderbase.Schedule{Every: "hourly"} }), tenderbase.PlanStandard, tenderbase.EINVALID, "published, daily, weekly"},
		{"winners on standard", with(func(s *tenderbase.Subscription) { s.Winners = true }), tenderbase.PlanStandard, tenderbase.EFORBIDDEN, "guru, corporate"},
		{"winners on guru", with(func(s *tenderbase.Subscription) { s.Winners, s.WatchINNs = true, []string{"7701234567"} }), tenderbase.PlanGuru, "", ""},
		{"winners of contracts", with(func(s *tenderbase.Subscription) { s.Resource, s.Winners = "contracts", true }), tenderbase.PlanGuru, tenderbase.EINVALID, "resource \"ru\""},
		{"a watched INN of 9 digits", with(func(s *tenderbase.Subscription) { s.WatchINNs = []string{"770123456"} }), tenderbase.PlanGuru, tenderbase.EINVALID, "not 10 or 12 digits"},
		{"a branch on guru", with(func(s *tenderbase.Subscription) { s.Branch = "Казань" }), tenderbase.PlanGuru, tenderbase.EFORBIDDEN, "corporate"},
		{"a branch on corporate", with(func(s *tenderbase.Subscription) { s.Branch = "Казань" }), tenderbase.PlanCorporate, "", ""},
	} {
		t.Run(c.what, func(t *testing.T) {
			got, err := tenderbase.NewSubscription(c.sub, c.plan)
			if code := tenderbase.ErrorCode(err); code != c.code || !strings.Contains(tenderbase.ErrorMessage(err), c.msg) {
				t.Fatalf("error %v (%s), want %q with %q", err, code, c.code, c.msg)
			}
			if err == nil && (got.CreatedAt.IsZero() || !got.RanAt.Equal(got.CreatedAt) || got.Schedule.Every == "" || len(got.Search) == 0) {
				t.Errorf("checked subscription %+v: want its times, its schedule and a search", got)
			}
		})
	}
}

func TestSubscriptionDue(t *testing.T) {
	msk := func(day, hour, minute int) time.Time {
		return time.Date(2026, 11, day, hour, minute, 0, 0, tenderbase.Moscow)
	}
	daily := tenderbase.Schedule{Every: tenderbase.ScheduleDaily, Hour: 9}
	weekly := tenderbase.Schedule{Every: tenderbase.ScheduleWeekly, Hour: 9, Weekday: "monday"} // 2026-11-23 and 30 are Mondays
	for _, c := range []struct {
		what     string
		schedule tenderbase.Schedule
		plan     tenderbase.Plan
		ran, now time.Time
		due      bool
	}{
		{"published on standard: every round", tenderbase.Schedule{Every: "published"}, tenderbase.PlanStandard, msk(27, 10, 0), msk(27, 10, 1), true},
		{"published on free: not within the hour", tenderbase.Schedule{Every: "published"}, tenderbase.PlanFree, msk(27, 10, 0), msk(27, 10, 59), false},
		{"published on free: after the hour", tenderbase.Schedule{Every: "published"}, tenderbase.PlanFree, msk(27, 10, 0), msk(27, 11, 0), true},
		{"daily before its hour", daily, tenderbase.PlanStandard, msk(26, 9, 5), msk(27, 8, 59), false},
		{"daily at its hour", daily, tenderbase.PlanStandard, msk(26, 9, 5), msk(27, 9, 0), true},
		{"daily once that day", daily, tenderbase.PlanStandard, msk(27, 9, 0), msk(27, 20, 0), false},
		{"daily after a day missed", daily, tenderbase.PlanStandard, msk(25, 9, 0), msk(27, 8, 0), true},
		{"daily at 9 Moscow is 6 UTC", daily, tenderbase.PlanStandard, msk(26, 10, 0), time.Date(2026, 11, 27, 6, 0, 0, 0, time.UTC), true},
		{"weekly on another day", weekly, tenderbase.PlanStandard, msk(23, 9, 0), msk(29, 12, 0), false},
		{"weekly on its day", weekly, tenderbase.PlanStandard, msk(23, 9, 0), msk(30, 9, 30), true},
	} {
		s := tenderbase.Subscription{Schedule: c.schedule, RanAt: c.ran.UTC()}
		if got := s.Due(c.now, tenderbase.Plans[c.plan]); got != c.due {
			t.Errorf("%s: due %v, want %v", c.what, got, c.due)
		}
	}
}

func TestUnsubscribeToken(t *testing.T) {
	a := tenderbase.UnsubscribeToken("whsec_1", "buyer@example.com")
	if a != tenderbase.UnsubscribeToken("whsec_1", "Buyer@Example.com") {
		t.Error("the token depends on the address's case")
	}
	if a == tenderbase.UnsubscribeToken("whsec_2", "buyer@example.com") || a == tenderbase.UnsubscribeToken("whsec_1", "other@example.com") {
		t.Error("the token is the same for another secret or recipient")
	}
	if len(a) != 32 {
		t.Errorf("token %q: want 32 hex digits", a)
	}
}

func TestStillTargeted(t *testing.T) {
	s := tenderbase.Subscription{Recipients: []string{"b@example.com"}, Webhook: "https://h.example.com/x"}
	ds := []tenderbase.Delivery{{ID: "1", Target: "mailto:a@example.com"}, {ID: "2", Target: "mailto:b@example.com"}, {ID: "3", Target: "https://h.example.com/x"}}
	got := s.StillTargeted(ds)
	if len(got) != 2 || got[0].ID != "2" || got[1].ID != "3" {
		t.Errorf("StillTargeted: %+v, want 2 and 3", got)
	}
}
