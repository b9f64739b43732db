// Package mailing runs the subscriptions' mailings: each round it reads
// what changed for every subscription that is due, decides its mailings
// and commits them with its new position in one transaction, then sends
// the deliveries due, by e-mail and by webhook, retrying with backoff.
//
// A mailing is decided once: the position moves only with the deliveries
// it decided, and only from where the round read, so that a restart or a
// second server never mails the same changes again nor skips any. Sending
// is at least once: a delivery whose sender dies after the server took it
// and before it was marked sent goes again when its claim runs out, under
// the same Message-ID and delivery id, which a receiver can tell.
package mailing

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"time"
	"unicode/utf8"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/email"
)

// Matcher decides what a subscription mails of changes of its feed
// (tools.Set): Candidates reads the records of the changes once for every
// subscription that reads them, and Matches, as the subscription's account
// (the caller of ctx), which of them its search finds.
type Matcher interface {
	Candidates(ctx context.Context, resource string, changes []tenderbase.FeedEntry) (tenderbase.Candidates, error)
	Matches(ctx context.Context, sub tenderbase.Subscription, cands tenderbase.Candidates, now time.Time) (news, winners []tenderbase.MailItem, err error)
}

// Mailer sends an e-mail (email.Sender).
type Mailer interface {
	Send(ctx context.Context, m email.Message) error
}

// Poster posts a webhook (webhook.Sender).
type Poster interface {
	Send(ctx context.Context, url, delivery, secret string, body []byte) error
}

// Observer counts what the mailings do (metrics.Metrics).
type Observer interface {
	MailingDecided(kind string)
	// DeliveryAttempted counts an attempt: channel email or webhook,
	// outcome sent, retried or failed.
	DeliveryAttempted(channel, outcome string)
}

// Store is what the mailings read and write.
type Store interface {
	tenderbase.SubscriptionStore
	tenderbase.ChangeFeed
	tenderbase.KeyStore
}

// Config is how the mailings run.
type Config struct {
	// Every is the time between two rounds.
	Every time.Duration
	// PublicURL is the address the service is reached at from outside,
	// which the unsubscribe links start with; "" sends mail without them.
	PublicURL string
	// Backoff is the pause after a delivery's first failure; it doubles
	// after each, up to MaxBackoff.
	Backoff, MaxBackoff time.Duration
	// Lease is how long a sender holds a delivery it is sending.
	Lease time.Duration
	// Observer, when not nil, counts the mailings and the attempts.
	Observer Observer
}

// Defaults of Config.
const (
	DefaultEvery      = time.Minute
	DefaultBackoff    = time.Minute
	DefaultMaxBackoff = 6 * time.Hour
	DefaultLease      = 5 * time.Minute
)

// Bounds of one round: changes read for one subscription, and deliveries
// sent. What is left waits for the next round.
const (
	maxChangesPerRound = 10 * tenderbase.MaxFeedPage
	claimBatch         = 50
	maxClaimsPerRound  = 20
	maxErrorBytes      = 500
)

// Service runs the mailings.
type Service struct {
	store  Store
	match  Matcher
	mail   Mailer // nil: no SMTP server is configured
	post   Poster
	cfg    Config
	logger *slog.Logger
	now    func() time.Time
}

// New returns the mailings of store. mail is nil when the service has no
// SMTP server: mail then waits, retried, with an error that says so.
func New(store Store, match Matcher, mail Mailer, post Poster, cfg Config, logger *slog.Logger) *Service {
	if cfg.Every <= 0 {
		cfg.Every = DefaultEvery
	}
	if cfg.Backoff <= 0 {
		cfg.Backoff = DefaultBackoff
	}
	if cfg.MaxBackoff <= 0 {
		cfg.MaxBackoff = DefaultMaxBackoff
	}
	if cfg.Lease <= 0 {
		cfg.Lease = DefaultLease
	}
	return &Service{store: store, match: match, mail: mail, post: post, cfg: cfg, logger: logger, now: time.Now}
}

// SetClock makes the service read the time from now: tests move it past
// a delivery's pause.
func (s *Service) SetClock(now func() time.Time) { s.now = now }

// Run runs a round every cfg.Every until ctx is done.
func (s *Service) Run(ctx context.Context) {
	s.logger.Info("mailings started", "every", s.cfg.Every.String(), "smtp", s.mail != nil)
	t := time.NewTicker(s.cfg.Every)
	defer t.Stop()
	for {
		if err := s.Round(ctx); err != nil && ctx.Err() == nil {
			s.logger.Error("mailing round failed", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// Round decides the mailings of every subscription due, then sends the
// deliveries due.
func (s *Service) Round(ctx context.Context) error {
	subs, err := s.decide(ctx)
	if err != nil {
		return err
	}
	return s.send(ctx, subs)
}

// decide commits the mailings of the subscriptions due, and returns every
// subscription by id, for the senders.
func (s *Service) decide(ctx context.Context) (map[string]tenderbase.Subscription, error) {
	plans, err := s.plans(ctx)
	if err != nil {
		return nil, err
	}
	subs, err := s.store.Subscriptions(ctx, "")
	if err != nil {
		return nil, err
	}
	byID := make(map[string]tenderbase.Subscription, len(subs))
	reads := map[reading]read{}
	for _, sub := range subs {
		byID[sub.ID] = sub
		plan, ok := plans[sub.Account]
		if !ok {
			// An account without an active key is mailed nothing; what
			// came meanwhile is mailed when it has one again.
			continue
		}
		if !sub.Due(s.now(), tenderbase.Plans[plan]) {
			continue
		}
		if err := s.decideOne(ctx, sub, plan, reads); err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			s.logger.Error("mailing not decided", "subscription", sub.ID, "err", err)
		}
	}
	return byID, nil
}

// plans returns the plan of every account with an active key.
func (s *Service) plans(ctx context.Context) (map[string]tenderbase.Plan, error) {
	keys, err := s.store.Keys(ctx)
	if err != nil {
		return nil, fmt.Errorf("read the accounts' plans: %w", err)
	}
	plans := map[string]tenderbase.Plan{}
	for _, k := range keys {
		if k.Status == tenderbase.KeyActive {
			plans[k.Account] = k.Plan
		}
	}
	return plans, nil
}

// reading names what a subscription reads in a round: its resource's
// feed after its position. Subscriptions mailed in the same rounds share
// it, and what they read is read once.
type reading struct {
	resource string
	after    int64
}

// read is what a reading found: the candidates of the changes and the
// position after them.
type read struct {
	cands tenderbase.Candidates
	to    int64
	any   bool // whether there were changes
}

// decideOne reads what changed for sub since its position, or takes what
// another subscription read of the same, and commits the mailings it
// makes.
func (s *Service) decideOne(ctx context.Context, sub tenderbase.Subscription, plan tenderbase.Plan, cache map[reading]read) error {
	at := reading{sub.Resource, sub.Position}
	r, ok := cache[at]
	if !ok {
		changes, to, err := s.changes(ctx, sub)
		if err != nil {
			return err
		}
		r = read{to: to, any: len(changes) > 0}
		if r.any {
			if r.cands, err = s.match.Candidates(ctx, sub.Resource, changes); err != nil {
				return fmt.Errorf("read the candidates: %w", err)
			}
		}
		cache[at] = r
	}
	to := r.to
	digest := sub.Schedule.Every != tenderbase.SchedulePublished
	if to == sub.Position && !digest {
		return nil // nothing new, and nothing to note
	}
	now := s.now().UTC()
	var news, winners []tenderbase.MailItem
	if r.any {
		as := tenderbase.NewContextWithKey(ctx, tenderbase.Key{ID: "mailer", Account: sub.Account, Plan: plan, Status: tenderbase.KeyActive})
		var err error
		if news, winners, err = s.match.Matches(as, sub, r.cands, now); err != nil {
			return fmt.Errorf("match: %w", err)
		}
	}
	mailings, err := mailingsOf(sub, news, winners, now)
	if err != nil {
		return err
	}
	ds, err := deliveriesOf(sub, mailings, now)
	if err != nil {
		return err
	}
	err = s.store.CommitMailing(ctx, tenderbase.MailingCommit{Subscription: sub.ID, From: sub.Position, To: to, At: now, Deliveries: ds})
	if errors.Is(err, tenderbase.ErrMailingConflict) {
		s.logger.Debug("mailing decided elsewhere", "subscription", sub.ID)
		return nil
	}
	if err != nil {
		return err
	}
	if o := s.cfg.Observer; o != nil {
		for _, m := range mailings {
			o.MailingDecided(m.Type)
		}
	}
	if len(mailings) > 0 {
		s.logger.Info("mailing decided", "subscription", sub.ID, "new", len(news), "winners", len(winners), "deliveries", len(ds))
	}
	return nil
}

// mailingsOf returns the mailings of sub that news and winners make, each
// of at most MaxMailingItems.
func mailingsOf(sub tenderbase.Subscription, news, winners []tenderbase.MailItem, now time.Time) ([]tenderbase.Mailing, error) {
	var mailings []tenderbase.Mailing
	for _, part := range []struct {
		kind  string
		items []tenderbase.MailItem
	}{{tenderbase.MailingNew, news}, {tenderbase.MailingWinners, winners}} {
		for items := range slices.Chunk(part.items, tenderbase.MaxMailingItems) {
			id, err := tenderbase.NewDeliveryID("m_")
			if err != nil {
				return nil, err
			}
			mailings = append(mailings, tenderbase.Mailing{
				ID: id, Type: part.kind, Subscription: sub.ID, Name: sub.Name, Branch: sub.Branch, Resource: sub.Resource,
				Schedule: sub.Schedule.Every, Items: items, CreatedAt: now,
			})
		}
	}
	return mailings, nil
}

// deliveriesOf returns a delivery of each mailing to each target of sub.
func deliveriesOf(sub tenderbase.Subscription, mailings []tenderbase.Mailing, now time.Time) ([]tenderbase.Delivery, error) {
	var ds []tenderbase.Delivery
	for _, m := range mailings {
		for _, target := range sub.Targets() {
			id, err := tenderbase.NewDeliveryID("d_")
			if err != nil {
				return nil, err
			}
			// Each a millisecond after the one before, so that they are
			// sent in the order they were decided.
			ds = append(ds, tenderbase.Delivery{ID: id, Subscription: sub.ID, Target: target, Mailing: m,
				CreatedAt: now.Add(time.Duration(len(ds)) * time.Millisecond)})
		}
	}
	return ds, nil
}

// changes returns the changes of sub's feed after its position, at most
// maxChangesPerRound, and the position after them.
func (s *Service) changes(ctx context.Context, sub tenderbase.Subscription) ([]tenderbase.FeedEntry, int64, error) {
	var out []tenderbase.FeedEntry
	q := tenderbase.FeedQuery{Kinds: tenderbase.FeedResources[sub.Resource], After: sub.Position, Limit: tenderbase.MaxFeedPage}
	for len(out) < maxChangesPerRound {
		p, err := s.store.Changes(ctx, q)
		if err != nil {
			return nil, 0, fmt.Errorf("read the feed of %s: %w", sub.Resource, err)
		}
		out = append(out, p.Entries...)
		q.After = p.Last
		if !p.More {
			break
		}
	}
	return out, q.After, nil
}

// send sends the deliveries due, a batch at a time.
func (s *Service) send(ctx context.Context, subs map[string]tenderbase.Subscription) error {
	for range maxClaimsPerRound {
		ds, err := s.store.ClaimDeliveries(ctx, s.now(), s.cfg.Lease, claimBatch)
		if err != nil {
			return err
		}
		for _, d := range ds {
			d = s.attempt(ctx, subs[d.Subscription], d)
			if err := s.store.FinishDelivery(ctx, d); err != nil {
				return err
			}
		}
		if len(ds) < claimBatch {
			return nil
		}
	}
	return nil
}

// attempt sends d once and returns it with the outcome, counted.
func (s *Service) attempt(ctx context.Context, sub tenderbase.Subscription, d tenderbase.Delivery) tenderbase.Delivery {
	d = s.try(ctx, sub, d)
	if o := s.cfg.Observer; o != nil {
		channel := "webhook"
		if _, byMail := d.Recipient(); byMail {
			channel = "email"
		}
		outcome := d.Status
		if outcome == tenderbase.DeliveryPending {
			outcome = "retried"
		}
		o.DeliveryAttempted(channel, outcome)
	}
	return d
}

// try sends d once and returns it with the outcome.
func (s *Service) try(ctx context.Context, sub tenderbase.Subscription, d tenderbase.Delivery) tenderbase.Delivery {
	d.Attempts++
	var err error
	switch recipient, byMail := d.Recipient(); {
	case sub.ID == "":
		err = tenderbase.Undeliverable(errors.New("the subscription was deleted"))
	case byMail && s.mail == nil:
		err = errors.New("this server has no SMTP server to send mail through (tenderbase serve --smtp)")
	case byMail:
		var m email.Message
		if m, err = render(d, recipient, unsubscribeURL(s.cfg.PublicURL, sub, recipient)); err == nil {
			err = s.mail.Send(ctx, m)
		}
	default:
		var body []byte
		if body, err = json.Marshal(Payload{Delivery: d.ID, Mailing: d.Mailing}); err == nil {
			err = s.post.Send(ctx, d.Target, d.ID, sub.Secret, body)
		}
	}
	now := s.now().UTC()
	if err == nil {
		d.Status, d.SentAt, d.LastError = tenderbase.DeliverySent, now, ""
		s.logger.Info("delivery sent", "delivery", d.ID, "subscription", d.Subscription, "mailing", d.Mailing.Type, "items", len(d.Mailing.Items))
		return d
	}
	d.LastError = cut(err.Error(), maxErrorBytes)
	if tenderbase.IsUndeliverable(err) || d.Attempts >= tenderbase.MaxDeliveryAttempts {
		d.Status = tenderbase.DeliveryFailed
		s.logger.Warn("delivery given up", "delivery", d.ID, "subscription", d.Subscription, "attempts", d.Attempts, "err", err)
		return d
	}
	d.NextAttempt = now.Add(s.backoff(d.Attempts))
	s.logger.Warn("delivery failed; retried later", "delivery", d.ID, "subscription", d.Subscription,
		"attempts", d.Attempts, "next", d.NextAttempt, "err", err)
	return d
}

// backoff returns the pause after the attempts-th failure.
func (s *Service) backoff(attempts int) time.Duration {
	d := s.cfg.Backoff
	for range attempts - 1 {
		if d *= 2; d >= s.cfg.MaxBackoff {
			return s.cfg.MaxBackoff
		}
	}
	return d
}

// Payload is the JSON body a webhook receives.
type Payload struct {
	// Delivery is the delivery's id, also in the X-Tenderbase-Delivery
	// header: the same at every attempt.
	Delivery string             `json:"delivery"`
	Mailing  tenderbase.Mailing `json:"mailing"`
}

// cut returns s in at most n bytes, whole runes.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
