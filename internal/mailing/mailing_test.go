package mailing_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"maps"
	"strings"
	"testing"
	"time"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/email"
	"github.com/tenderbase/tenderbase/internal/mailing"
	"github.com/tenderbase/tenderbase/internal/mailtest"
	"github.com/tenderbase/tenderbase/internal/postgres"
	"github.com/tenderbase/tenderbase/internal/postgres/pgtest"
	"github.com/tenderbase/tenderbase/internal/sqlite"
	"github.com/tenderbase/tenderbase/internal/tools"
	"github.com/tenderbase/tenderbase/internal/webhook"
)

var logger = slog.New(slog.NewTextHandler(io.Discard, nil))

// store is a store of records that keeps subscriptions.
type store interface {
	tenderbase.Store
	mailing.Store
}

// stores opens a fresh store of each kind.
var stores = map[string]func(t *testing.T) store{
	"sqlite": func(t *testing.T) store {
		st, err := sqlite.Open(t.Context(), t.TempDir()+"/mail.db", logger)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		return st
	},
	"postgres": func(t *testing.T) store {
		st, err := postgres.Open(t.Context(), pgtest.URL(t), logger)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		return st
	},
}

// rig is a store, the mailings over it, and what they are sent to.
type rig struct {
	store store
	smtp  *mailtest.SMTP
	hook  *mailtest.Hook
	sub   tenderbase.Subscription
	clock time.Time
}

func newRig(t *testing.T, open func(t *testing.T) store) *rig {
	r := &rig{store: open(t), smtp: mailtest.StartSMTP(t), clock: time.Now()}
	r.hook = mailtest.StartHook(t, func() string { return r.sub.Secret })
	ctx := t.Context()
	if _, _, err := r.store.CreateKey(ctx, tenderbase.Key{Name: "buyer", Account: "acct-roofs", Plan: tenderbase.PlanGuru}); err != nil {
		t.Fatal(err)
	}
	sub, err := r.store.CreateSubscription(ctx, tenderbase.Subscription{
		Account: "acct-roofs", Name: "Кровля", Resource: "ru", Search: []byte(`{"query": "ремонт кровли", "regions": [77]}`),
		Winners: true, WatchINNs: []string{"5001234567"},
		Recipients: []string{"buyer@example.com"}, Webhook: r.hook.URL,
	}, tenderbase.PlanGuru)
	if err != nil {
		t.Fatal(err)
	}
	r.sub = sub
	return r
}

// service returns the mailings over the rig, as a server started anew.
func (r *rig) service() *mailing.Service {
	mail := email.New(email.Config{Host: r.smtp.Host, Port: r.smtp.Port, TLS: "starttls", TLSConfig: r.smtp.Roots,
		Username: mailtest.Username, Password: mailtest.Password, From: "Tenderbase <mail@tenderbase.test>", Timeout: 10 * time.Second})
	svc := mailing.New(r.store, tools.New(r.store, logger), mail, webhook.NewSender(mailtest.HookPolicy, "tenderbase-test"),
		mailing.Config{PublicURL: "https://tenderbase.example.com"}, logger)
	svc.SetClock(func() time.Time { return r.clock })
	return svc
}

func (r *rig) put(t *testing.T, recs ...tenderbase.Record) {
	t.Helper()
	if _, err := r.store.Put(t.Context(), recs); err != nil {
		t.Fatal(err)
	}
}

func round(t *testing.T, svc *mailing.Service) {
	t.Helper()
	if err := svc.Round(t.Context()); err != nil {
		t.Fatal(err)
	}
}

func roofTender(number, title string, region int) *tenderbase.Tender {
	return &tenderbase.Tender{PurchaseNumber: number, Law: tenderbase.Law44, Version: 1, Title: title, Status: tenderbase.TenderActive,
		Customer: tenderbase.Party{INN: "7701000001", Name: "ГБУ «Жилищник района Арбат»"}, Region: region, MaxPrice: 2500000, Currency: "RUB",
		PublishedAt: time.Date(2026, 11, 20, 10, 0, 0, 0, tenderbase.Moscow), URL: "https://zakupki.gov.ru/epz/order/notice/view?regNumber=" + number}
}

// TestMailings follows one subscription through its mailings on both
// stores: a new tender it finds is mailed once, by e-mail and webhook; a
// tender it does not find is not; its winners are mailed when a protocol
// names them; a restart mails nothing again; a failed webhook is retried
// after its pause, and a refused mail is given up.
func TestMailings(t *testing.T) {
	for name, open := range stores {
		t.Run(name, func(t *testing.T) {
			r := newRig(t, open)
			svc := r.service()
			round(t, svc) // nothing yet
			if n := len(r.smtp.Mail()); n != 0 {
				t.Fatalf("%d mails before anything came", n)
			}

			r.put(t, roofTender("0373100000126000001", "Капитальный ремонт кровли здания школы", 77),
				roofTender("0373100000126000002", "Ремонт кровли в Подольске", 50),
				roofTender("0373100000126000003", "Поставка бумаги", 77))
			round(t, svc)
			mails := r.smtp.Mail()
			if len(mails) != 1 {
				t.Fatalf("%d mails after a new tender, want 1", len(mails))
			}
			m := mails[0]
			if m.Subject != "Tenderbase · «Кровля»: 1 новая закупка" || !m.TLS || m.To[0] != "buyer@example.com" {
				t.Errorf("mail: subject %q, over TLS %v, to %v", m.Subject, m.TLS, m.To)
			}
			// On the wire the subject is encoded words of RFC 2047, ASCII alone.
			if raw := m.Header.Get("Subject"); !strings.HasPrefix(raw, "=?UTF-8?") || strings.IndexFunc(raw, func(r rune) bool { return r > 127 }) >= 0 {
				t.Errorf("the subject on the wire: %q", raw)
			}
			for _, part := range []string{m.Text, m.HTML} {
				if !strings.Contains(part, "Капитальный ремонт кровли здания школы") || strings.Contains(part, "Подольске") ||
					!strings.Contains(part, "Заказчик: ГБУ «Жилищник района Арбат»") || !strings.Contains(part, "tenderbase.example.com/unsubscribe?") {
					t.Errorf("a part of the mail lacks the tender, its customer or the unsubscribe link, or names another:\n%s", part)
				}
			}
			if got := m.Header.Get("List-Unsubscribe-Post"); got != "List-Unsubscribe=One-Click" || !strings.HasPrefix(m.Header.Get("List-Unsubscribe"), "<https://") {
				t.Errorf("unsubscribe headers: %q, %q", m.Header.Get("List-Unsubscribe"), got)
			}
			hooks := r.hook.Requests()
			if len(hooks) != 1 || !hooks[0].Verified {
				ds, _ := r.store.Deliveries(t.Context(), r.sub.ID, 10)
				t.Fatalf("webhook requests %+v, want one, signed; deliveries %+v", hooks, ds)
			}
			var p mailing.Payload
			if err := json.Unmarshal(hooks[0].Body, &p); err != nil {
				t.Fatal(err)
			}
			if p.Delivery != hooks[0].Delivery || p.Mailing.Type != tenderbase.MailingNew || len(p.Mailing.Items) != 1 ||
				p.Mailing.Items[0].Key != "0373100000126000001" {
				t.Errorf("webhook payload %+v", p)
			}

			// The protocol names the winner: the winners mailing.
			r.put(t, &tenderbase.Protocol{ID: "p-roof-1", PurchaseNumber: "0373100000126000001", Number: "1",
				PublishedAt:  time.Date(2026, 11, 25, 10, 0, 0, 0, tenderbase.Moscow),
				Participants: []tenderbase.Participant{{Party: tenderbase.Party{INN: "5001234567", Name: "ООО «Кровельщик»"}, Price: 2100000, Winner: true}}})
			round(t, svc)
			mails = r.smtp.Mail()
			if len(mails) != 2 {
				t.Fatalf("%d mails after the protocol, want 2", len(mails))
			}
			if w := mails[1]; w.Subject != "Tenderbase · «Кровля»: определены победители, 1 закупка" ||
				!strings.Contains(w.Text, "Победитель: ООО «Кровельщик» (INN 5001234567), предложение 2100000") {
				t.Errorf("winners mail: %q\n%s", w.Subject, w.Text)
			}
			if hooks = r.hook.Requests(); len(hooks) != 2 || !hooks[1].Verified {
				t.Fatalf("webhook requests after the protocol: %d", len(hooks))
			}

			// A restart: the mailings are made and sent; nothing goes again.
			again := r.service()
			round(t, again)
			round(t, svc)
			if n, h := len(r.smtp.Mail()), len(r.hook.Requests()); n != 2 || h != 2 {
				t.Fatalf("after a restart: %d mails and %d webhook requests, want 2 and 2", n, h)
			}

			// The webhook fails once: it is tried again after its pause.
			r.hook.Fail(1)
			r.put(t, roofTender("0373100000126000004", "Ремонт кровли поликлиники", 77))
			round(t, svc)
			if n, h := len(r.smtp.Mail()), len(r.hook.Requests()); n != 3 || h != 2 {
				t.Fatalf("with the webhook failing: %d mails and %d webhook requests, want 3 and 2", n, h)
			}
			round(t, svc) // before the pause ends: not yet
			if h := len(r.hook.Requests()); h != 2 {
				t.Fatalf("the webhook was tried again before its pause: %d requests", h)
			}
			r.clock = r.clock.Add(2 * mailing.DefaultBackoff)
			round(t, again)
			if hooks = r.hook.Requests(); len(hooks) != 3 || !hooks[2].Verified {
				t.Fatalf("after the pause: %d webhook requests, want 3", len(hooks))
			}

			// The SMTP server refuses for good: the mail is given up, and
			// its error is listed.
			r.smtp.Refuse(550)
			r.put(t, roofTender("0373100000126000005", "Ремонт кровли библиотеки", 77))
			round(t, svc)
			ds, err := r.store.Deliveries(t.Context(), r.sub.ID, 10)
			if err != nil {
				t.Fatal(err)
			}
			var mailed tenderbase.Delivery
			for _, d := range ds {
				if _, byMail := d.Recipient(); byMail && d.Mailing.Items[0].Key == "0373100000126000005" {
					mailed = d
				}
			}
			if mailed.Status != tenderbase.DeliveryFailed || !strings.Contains(mailed.LastError, "550") || mailed.Attempts != 1 {
				t.Errorf("a refused mail: %+v, want failed after one attempt with the server's answer", mailed)
			}
		})
	}
}

// TestUnsubscribeLink checks that a mail's link carries the token of its
// recipient and subscription.
func TestUnsubscribeLink(t *testing.T) {
	r := newRig(t, stores["sqlite"])
	r.put(t, roofTender("0373100000126000012", "Ремонт кровли спортзала", 77))
	round(t, r.service())
	mails := r.smtp.Mail()
	if len(mails) != 1 {
		t.Fatalf("%d mails", len(mails))
	}
	want := "t=" + tenderbase.UnsubscribeToken(r.sub.Secret, "buyer@example.com")
	if link := mails[0].Header.Get("List-Unsubscribe"); !strings.Contains(link, want) || !strings.Contains(link, "s="+r.sub.ID) {
		t.Errorf("link %s lacks %s", link, want)
	}
}

// counts is an Observer that counts.
type counts map[string]int

func (c counts) MailingDecided(kind string)                { c["decided "+kind]++ }
func (c counts) DeliveryAttempted(channel, outcome string) { c[channel+" "+outcome]++ }

// TestNoSMTP checks that without an SMTP server, mail waits with an error
// that says why, and the webhook goes; the observer counts both.
func TestNoSMTP(t *testing.T) {
	r := newRig(t, stores["sqlite"])
	seen := counts{}
	svc := mailing.New(r.store, tools.New(r.store, logger), nil, webhook.NewSender(mailtest.HookPolicy, "tenderbase-test"),
		mailing.Config{Observer: seen}, logger)
	r.put(t, roofTender("0373100000126000021", "Ремонт кровли гаража", 77))
	if err := svc.Round(context.Background()); err != nil {
		t.Fatal(err)
	}
	ds, err := r.store.Deliveries(t.Context(), r.sub.ID, 10)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range ds {
		_, byMail := d.Recipient()
		switch {
		case byMail && (d.Status != tenderbase.DeliveryPending || !strings.Contains(d.LastError, "--smtp")):
			t.Errorf("mail without SMTP: %+v", d)
		case !byMail && d.Status != tenderbase.DeliverySent:
			t.Errorf("webhook: %+v", d)
		}
	}
	if want := (counts{"decided new": 1, "email retried": 1, "webhook sent": 1}); !maps.Equal(seen, want) {
		t.Errorf("observed %v, want %v", seen, want)
	}
}

// TestFailedWebhookLog checks that neither the log of a failed attempt
// nor the error kept with the delivery holds the webhook's password or
// query, on both stores.
func TestFailedWebhookLog(t *testing.T) {
	for name, open := range stores {
		t.Run(name, func(t *testing.T) {
			r := newRig(t, open)
			hook := strings.Replace(r.hook.URL, "http://", "http://hookuser:pa55w0rd@", 1) + "?token=t0k3n"
			sub, err := r.store.CreateSubscription(t.Context(), tenderbase.Subscription{
				Account: "acct-roofs", Name: "Кровля", Resource: "ru", Search: []byte(`{"query": "ремонт кровли"}`), Webhook: hook,
			}, tenderbase.PlanGuru)
			if err != nil {
				t.Fatal(err)
			}
			r.hook.Fail(2) // both subscriptions' webhooks
			var log bytes.Buffer
			svc := mailing.New(r.store, tools.New(r.store, logger), nil, webhook.NewSender(mailtest.HookPolicy, "tenderbase-test"),
				mailing.Config{}, slog.New(slog.NewTextHandler(&log, nil)))
			r.put(t, roofTender("0373100000126000031", "Ремонт кровли склада", 77))
			round(t, svc)
			ds, err := r.store.Deliveries(t.Context(), sub.ID, 10)
			if err != nil {
				t.Fatal(err)
			}
			if len(ds) != 1 || !strings.Contains(ds[0].LastError, "503") {
				t.Fatalf("deliveries %+v, want one that failed with 503", ds)
			}
			if !strings.Contains(log.String(), "delivery failed") {
				t.Fatalf("the log has no failed attempt:\n%s", log.String())
			}
			for _, secret := range []string{"hookuser", "pa55w0rd", "t0k3n"} {
				if strings.Contains(log.String(), secret) || strings.Contains(ds[0].LastError, secret) {
					t.Errorf("%q is in the log or the delivery's error:\n%s\n%s", secret, log.String(), ds[0].LastError)
				}
			}
		})
	}
}

// TestWorldWinnersMailing checks, on both stores, that a world
// subscription with the winners mailing mails a contract notice it finds
// as new, and the award notice that follows once, with its winners, as an
// EIS protocol's winners are mailed.
func TestWorldWinnersMailing(t *testing.T) {
	for name, open := range stores {
		t.Run(name, func(t *testing.T) {
			r := newRig(t, open)
			sub, err := r.store.CreateSubscription(t.Context(), tenderbase.Subscription{
				Account: "acct-roofs", Name: "Schulessen", Resource: "world", Search: []byte(`{"query": "Schulverpflegung"}`),
				Winners: true, Recipients: []string{"buyer@example.com"}, Webhook: r.hook.URL,
			}, tenderbase.PlanGuru)
			if err != nil {
				t.Fatal(err)
			}
			if err := r.store.DeleteSubscription(t.Context(), "acct-roofs", r.sub.ID); err != nil {
				t.Fatal(err)
			}
			r.sub = sub
			svc := r.service()
			published := time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC)
			r.put(t, &tenderbase.WorldTender{ID: "ted:100001-2026", Source: "ted", Country: 276, Title: "Schulverpflegung Würzburg",
				Buyer: tenderbase.Party{Name: "Stadt Würzburg"}, Value: 500000, Currency: "EUR", PublishedAt: published})
			round(t, svc)
			if mails := r.smtp.Mail(); len(mails) != 1 || !strings.Contains(mails[0].Text, "Schulverpflegung Würzburg") {
				t.Fatalf("%d mails after the contract notice, want the new notice", len(mails))
			}
			r.put(t, &tenderbase.WorldTender{ID: "ted:200002-2026", Source: "ted", Country: 276, Title: "Schulverpflegung Würzburg",
				Buyer: tenderbase.Party{Name: "Stadt Würzburg"}, AwardedValue: 410000, AwardedCurrency: "EUR", PublishedAt: published.AddDate(0, 2, 0),
				Awards: []tenderbase.WorldAward{{LotID: "1", Awarded: true, Value: 410000, Currency: "EUR", TendersReceived: 1,
					Winners: []tenderbase.WorldWinner{{Name: "Frischküche Mainfranken GmbH", ID: "DE811128135"}}}}})
			round(t, svc)
			mails := r.smtp.Mail()
			if len(mails) != 2 {
				t.Fatalf("%d mails after the award notice, want 2: the award is mailed once, with its winners", len(mails))
			}
			if w := mails[1]; w.Subject != "Tenderbase · «Schulessen»: определены победители, 1 закупка" ||
				!strings.Contains(w.Text, "Победитель: Frischküche Mainfranken GmbH (DE811128135), предложение 410000") {
				t.Errorf("winners mail: %q\n%s", w.Subject, w.Text)
			}
		})
	}
}
