package tenderbase

import (
	"cmp"
	"errors"
	"slices"
	"strings"
	"time"
)

// The mailings a subscription sends.
const (
	// MailingNew lists the records its search found among those stored
	// since the last mailing: the new-tender mailing, and the daily and
	// weekly mailings of a digest schedule.
	MailingNew = "new"
	// MailingWinners lists tenders of the subscription, or won by a
	// watched INN, whose protocols named their winners since the last
	// mailing.
	MailingWinners = "winners"
)

// MaxMailingItems bounds the items of one mailing; what matched beyond it
// goes out in further mailings of the same round, so that nothing is
// skipped and no message grows past what a mail client shows.
const MaxMailingItems = 100

// Mailing is one message of a subscription: what its e-mail says and
// what its webhook receives.
type Mailing struct {
	ID           string     `json:"id"` // the same for every recipient of it
	Type         string     `json:"type"`
	Subscription string     `json:"subscription"`
	Name         string     `json:"name"`
	Branch       string     `json:"branch,omitempty"`
	Resource     string     `json:"resource"`
	Schedule     string     `json:"schedule"`
	Items        []MailItem `json:"items"`
	CreatedAt    time.Time  `json:"created_at"`
}

// MailItem is one record of a mailing, as the subscriber's plan shows it.
type MailItem struct {
	Kind  Kind   `json:"kind"`
	Key   string `json:"key"`
	Title string `json:"title"`
	// Facts are the record's facts in brief, each "label: value", in
	// Russian, as the e-mail lists them.
	Facts []string `json:"facts,omitempty"`
	URL   string   `json:"url,omitempty"`
	// Winners are who won the tender, for a winners mailing; empty for a
	// plan that does not see participants.
	Winners []Participant `json:"winners,omitempty"`
	// Watched are the watched INNs among the winners.
	Watched []string `json:"watched,omitempty"`
}

// MailingCommit is what CommitMailing stores: the mailings decided from
// the subscription's feed between From and To, each to be delivered to
// every target.
type MailingCommit struct {
	Subscription string
	From, To     int64
	At           time.Time
	Deliveries   []Delivery
}

// Delivery statuses.
const (
	DeliveryPending = "pending"
	DeliverySent    = "sent"
	DeliveryFailed  = "failed" // given up after MaxDeliveryAttempts
)

// MaxDeliveryAttempts is how many times a delivery is tried before it is
// given up: with the mailer's backoff, about a day.
const MaxDeliveryAttempts = 12

// Delivery is one mailing to one target: an e-mail address or a webhook.
type Delivery struct {
	ID           string    `json:"id"`
	Subscription string    `json:"subscription"`
	Target       string    `json:"target"` // "mailto:addr" or the webhook's URL
	Mailing      Mailing   `json:"mailing"`
	Status       string    `json:"status"`
	Attempts     int       `json:"attempts"`
	NextAttempt  time.Time `json:"next_attempt,omitzero"`
	SentAt       time.Time `json:"sent_at,omitzero"`
	LastError    string    `json:"last_error,omitempty"`
	CreatedAt    time.Time `json:"created_at"`
}

// undeliverable is a delivery's failure that no later attempt will mend.
type undeliverable struct{ error }

func (u undeliverable) Unwrap() error { return u.error }

// Undeliverable returns err marked as a failure that no later attempt at
// the delivery will mend: the receiving server refused it for good, or
// there is nothing left to deliver it for. The mailer gives such a
// delivery up at once instead of retrying it.
func Undeliverable(err error) error { return undeliverable{err} }

// IsUndeliverable reports whether err, or an error it wraps, was marked
// by Undeliverable.
func IsUndeliverable(err error) bool {
	_, ok := errors.AsType[undeliverable](err)
	return ok
}

// MailtoPrefix starts the target of a delivery by e-mail.
const MailtoPrefix = "mailto:"

// Recipient returns the e-mail address of a delivery by e-mail, and false
// for a webhook.
func (d Delivery) Recipient() (string, bool) {
	return strings.CutPrefix(d.Target, MailtoPrefix)
}

// Targets returns where the mailings of s go: its recipients, then its
// webhook.
func (s Subscription) Targets() []string {
	var ts []string
	for _, r := range s.Recipients {
		ts = append(ts, MailtoPrefix+r)
	}
	if s.Webhook != "" {
		ts = append(ts, s.Webhook)
	}
	return ts
}

// NewDeliveryID draws the id of a delivery or a mailing.
func NewDeliveryID(prefix string) (string, error) {
	hexID, err := randomHex(8)
	return prefix + hexID, err
}

// CompareDeliveries orders deliveries oldest first, as a store lists them
// to be sent.
func CompareDeliveries(a, b Delivery) int {
	return cmp.Or(a.CreatedAt.Compare(b.CreatedAt), strings.Compare(a.ID, b.ID))
}

// StillTargeted returns the deliveries of ds whose target s still mails:
// a store commits a mailing with the subscription's settings as they are
// then, not as the mailer read them.
func (s Subscription) StillTargeted(ds []Delivery) []Delivery {
	targets := s.Targets()
	var out []Delivery
	for _, d := range ds {
		if slices.Contains(targets, d.Target) {
			out = append(out, d)
		}
	}
	return out
}

// Candidates are the records of a page of a resource's feed that its
// subscriptions may mail: read once for all the subscriptions that read
// the same changes, each of which then asks which of them its search finds.
type Candidates struct {
	Kind Kind // of the records of New
	// New are the records stored new, still current, in the feed's order.
	New Published
	// Won are the records that got their winners, and Winners who won
	// each, by its key, with the record: read once, for every
	// subscription whose winners mailing may report it. Of resource ru,
	// tenders whose protocols named their winners (of kind KindTender,
	// whatever Kind); of resource world, world tenders stored new or
	// anew with awards that name winners.
	Won     Published
	Winners map[string]Won
}

// Won is a record and who won it: a tender and the participants its
// protocols name as winners, or a world tender and its awards' winners
// (WorldWinnersOf).
type Won struct {
	Record  Record
	Winners []Participant
}

// WorldWinnersOf returns the winners of w's awards as a winners mailing
// lists them: each winner of each award that was made, its id as the
// party's RegNum and the award's value as its offer.
func WorldWinnersOf(w *WorldTender) []Participant {
	var out []Participant
	for _, a := range w.Awards {
		if !a.Awarded {
			continue
		}
		for _, win := range a.Winners {
			out = append(out, Participant{Party: Party{Name: win.Name, RegNum: win.ID}, Price: a.Value, Winner: true})
		}
	}
	return out
}

// Published are keys of records and the span of the days they were
// published on (their Date), which bounds the search that finds them.
type Published struct {
	Keys     []string
	From, To time.Time
	held     map[string]bool
}

// Add adds a record to p, once however often it comes.
func (p *Published) Add(key string, date time.Time) {
	if p.held[key] {
		return
	}
	if p.held == nil {
		p.held = map[string]bool{}
	}
	p.held[key] = true
	if len(p.Keys) == 0 || date.Before(p.From) {
		p.From = date
	}
	if len(p.Keys) == 0 || date.After(p.To) {
		p.To = date
	}
	p.Keys = append(p.Keys, key)
}
