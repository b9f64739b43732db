package tenderbase

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/mail"
	"net/url"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// The schedules of a subscription: when its mailings go out.
const (
	// SchedulePublished mails what matched as it is published: at the
	// mailer's next round, or, for a plan with a MailEvery, once that much
	// time has passed since the last mailing.
	SchedulePublished = "published"
	// ScheduleDaily mails what matched over the day, once a day at Hour,
	// Moscow time.
	ScheduleDaily = "daily"
	// ScheduleWeekly mails what matched over the week, on Weekday at Hour,
	// Moscow time.
	ScheduleWeekly = "weekly"
)

// Schedule says when a subscription's mailings go out.
type Schedule struct {
	Every string `json:"every"`          // published, daily or weekly
	Hour  int    `json:"hour,omitempty"` // 0-23, Moscow time, of daily and weekly
	// Weekday is the day of weekly, in English ("monday").
	Weekday string `json:"weekday,omitempty"`
}

// Subscription is a saved search whose new matches are mailed to its
// recipients, by e-mail or by webhook, on its schedule.
type Subscription struct {
	ID      string `json:"id"`      // "s_3f9a1c2b"
	Account string `json:"account"` // the account of the key that created it
	// Branch groups the subscriptions of a corporate account by the branch
	// they serve; "" for the account as a whole.
	Branch   string `json:"branch,omitempty"`
	Name     string `json:"name"`
	Resource string `json:"resource"` // the search tool's resource: ru, docs, contracts, world, torgi, rnp
	// Search holds the arguments of the resource's search tool, as a JSON
	// object: the query and the filters. Paging and sort are not part of
	// it.
	Search   json.RawMessage `json:"search"`
	Schedule Schedule        `json:"schedule"`
	// Winners adds the winners mailing: the tenders the subscription's
	// search finds, whatever their state, when a protocol names their
	// winners. Of resource ru only.
	Winners bool `json:"winners,omitempty"`
	// WatchINNs are INNs whose wins the winners mailing also reports,
	// in any tender.
	WatchINNs  []string `json:"watch_inns,omitempty"`
	Recipients []string `json:"recipients,omitempty"` // e-mail addresses
	Webhook    string   `json:"webhook,omitempty"`    // an http(s) URL that receives each mailing as signed JSON
	// Secret signs the webhook's requests and the recipients' unsubscribe
	// links. It is shown once, when the subscription is created.
	Secret    string    `json:"-"`
	CreatedAt time.Time `json:"created_at"`
	// Position is the Seq of the last change of the feed the mailer has
	// read for it; a new subscription starts at the end of the feed, so
	// that it mails what comes after it, not the whole history.
	Position int64 `json:"-"`
	// RanAt is when the mailer last read its feed; the creation time until
	// then.
	RanAt time.Time `json:"last_mailing_round"`
}

// Subscription bounds that no plan changes.
const (
	MaxRecipients = 20
	MaxWatchINNs  = 50
	// MaxSearchBytes bounds a subscription's search arguments.
	MaxSearchBytes = 4096
)

// SubscriptionResources are the resources a subscription can watch: those
// with a search tool, whose feed has the same name.
var SubscriptionResources = []string{"ru", "docs", "contracts", "world", "torgi", "rnp", "plans"}

// Weekdays are the names a weekly schedule takes, from Sunday as
// time.Weekday counts.
var Weekdays = []string{"sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"}

// NewSubscription checks a subscription about to be created by an account
// on plan and fills in what the caller does not give: the creation time
// and the round time. Its search arguments are checked by the search tool
// they are for, not here; its count, by the store against the account's
// others.
func NewSubscription(s Subscription, plan Plan) (Subscription, error) {
	limits, ok := Plans[plan]
	if !ok {
		return s, Errorf(EINVALID, "unknown plan %s", Quote(string(plan)))
	}
	var err error
	if s.Name, err = cleanText("subscription", "name", s.Name); err != nil {
		return s, err
	}
	if s.Account, err = cleanText("subscription", "account", s.Account); err != nil {
		return s, err
	}
	if !slices.Contains(SubscriptionResources, s.Resource) {
		return s, Errorf(EINVALID, "a subscription watches one of %s, not %s", strings.Join(SubscriptionResources, ", "), Quote(s.Resource))
	}
	if len(s.Search) > MaxSearchBytes {
		return s, Errorf(EINVALID, "the search of a subscription is longer than %d bytes", MaxSearchBytes)
	}
	if len(s.Search) == 0 {
		s.Search = json.RawMessage(`{}`)
	}
	if trimmed := bytes.TrimSpace(s.Search); !utf8.Valid(s.Search) || !json.Valid(s.Search) || trimmed[0] != '{' {
		return s, Errorf(EINVALID, "the search of a subscription must be a JSON object of valid UTF-8")
	}
	if s.Schedule, err = checkSchedule(s.Schedule, plan, limits); err != nil {
		return s, err
	}
	if err := checkBranch(s.Branch, plan, limits); err != nil {
		return s, err
	}
	if err := checkWinners(s, plan, limits); err != nil {
		return s, err
	}
	if s.Recipients, err = checkRecipients(s.Recipients); err != nil {
		return s, err
	}
	if err := checkWebhook(s.Webhook); err != nil {
		return s, err
	}
	if len(s.Recipients) == 0 && s.Webhook == "" {
		return s, Errorf(EINVALID, "a subscription needs recipients (e-mail addresses), a webhook, or both")
	}
	s.CreatedAt = time.Now().UTC().Truncate(time.Second)
	s.RanAt = s.CreatedAt
	return s, nil
}

func checkSchedule(sc Schedule, plan Plan, limits PlanLimits) (Schedule, error) {
	sc.Every = strings.ToLower(strings.TrimSpace(sc.Every))
	sc.Weekday = strings.ToLower(strings.TrimSpace(sc.Weekday))
	switch sc.Every {
	case "", SchedulePublished:
		if sc.Hour != 0 || sc.Weekday != "" {
			return sc, Errorf(EINVALID, "a schedule \"published\" takes no hour or weekday: it mails as records come")
		}
		sc.Every = SchedulePublished
		return sc, nil
	case ScheduleDaily, ScheduleWeekly:
	default:
		return sc, Errorf(EINVALID, "unknown schedule %s (schedules: published, daily, weekly)", Quote(sc.Every))
	}
	if !limits.DigestMailing {
		return sc, Errorf(EFORBIDDEN, "plan %s mails as records are published; daily and weekly mailings come with plans %s",
			plan, plansWith(func(l PlanLimits) bool { return l.DigestMailing }))
	}
	if sc.Hour < 0 || sc.Hour > 23 {
		return sc, Errorf(EINVALID, "the hour of a schedule is from 0 to 23 (Moscow time), got %d", sc.Hour)
	}
	if sc.Every == ScheduleDaily && sc.Weekday != "" {
		return sc, Errorf(EINVALID, "a daily schedule takes no weekday")
	}
	if sc.Every == ScheduleWeekly && !slices.Contains(Weekdays, sc.Weekday) {
		return sc, Errorf(EINVALID, "a weekly schedule needs a weekday (%s), got %s", strings.Join(Weekdays, ", "), Quote(sc.Weekday))
	}
	return sc, nil
}

func checkBranch(branch string, plan Plan, limits PlanLimits) error {
	if branch == "" {
		return nil
	}
	if !limits.Branches {
		return Errorf(EFORBIDDEN, "plan %s has no branches; per-branch mailings come with plan %s",
			plan, plansWith(func(l PlanLimits) bool { return l.Branches }))
	}
	_, err := cleanText("subscription", "branch", branch)
	return err
}

func checkWinners(s Subscription, plan Plan, limits PlanLimits) error {
	if !s.Winners && len(s.WatchINNs) == 0 {
		return nil
	}
	if !limits.WinnersMailing {
		return Errorf(EFORBIDDEN, "plan %s has no winners mailing; it comes with plans %s",
			plan, plansWith(func(l PlanLimits) bool { return l.WinnersMailing }))
	}
	if s.Resource != "ru" && s.Resource != "world" {
		return Errorf(EINVALID, "the winners mailing watches Russian tenders (resource \"ru\") and world tenders (resource \"world\")")
	}
	if s.Resource == "world" && len(s.WatchINNs) > 0 {
		return Errorf(EINVALID, "watch_inns are INNs of Russian tenders' winners; a world tender's winner is watched by its id: give \"winner_id\" in the search")
	}
	if len(s.WatchINNs) > MaxWatchINNs {
		return Errorf(EINVALID, "a subscription watches at most %d INNs, got %d", MaxWatchINNs, len(s.WatchINNs))
	}
	for _, inn := range s.WatchINNs {
		if !ValidINN(inn) {
			return Errorf(EINVALID, "watched INN %s is not 10 or 12 digits", Quote(inn))
		}
	}
	return nil
}

// ValidINN reports whether s has the shape of an INN: 10 digits for an
// organization, 12 for a person.
func ValidINN(s string) bool {
	if len(s) != 10 && len(s) != 12 {
		return false
	}
	return strings.IndexFunc(s, func(r rune) bool { return r < '0' || r > '9' }) < 0
}

// checkRecipients returns the recipients as bare addresses, each once.
func checkRecipients(rs []string) ([]string, error) {
	if len(rs) > MaxRecipients {
		return nil, Errorf(EINVALID, "a subscription mails at most %d recipients, got %d", MaxRecipients, len(rs))
	}
	var out []string
	for _, r := range rs {
		a, err := mail.ParseAddress(strings.TrimSpace(r))
		if err != nil || strings.ContainsAny(a.Address, " \r\n") {
			return nil, Errorf(EINVALID, "recipient %s is no e-mail address", Quote(r))
		}
		addr := strings.ToLower(a.Address)
		if !slices.Contains(out, addr) {
			out = append(out, addr)
		}
	}
	return out, nil
}

func checkWebhook(raw string) error {
	if raw == "" {
		return nil
	}
	if !utf8.ValidString(raw) || strings.IndexFunc(raw, unicode.IsControl) >= 0 {
		return Errorf(EINVALID, "webhook must be printable UTF-8 text")
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || len(raw) > 2000 {
		return Errorf(EINVALID, "webhook %s is no http or https URL", Quote(RedactURL(raw)))
	}
	return nil
}

// plansWith names the plans whose limits have what has says.
func plansWith(has func(PlanLimits) bool) string {
	var ps []string
	for _, p := range PlanNames {
		if has(Plans[p]) {
			ps = append(ps, string(p))
		}
	}
	return strings.Join(ps, ", ")
}

// CheckSubscriptionCount says whether an account on plan that has n
// subscriptions may create one more.
func CheckSubscriptionCount(account string, plan Plan, n int) error {
	if most := Plans[plan].Subscriptions; n >= most {
		return Errorf(EFORBIDDEN,
			"account %s on plan %s has %d of %d subscriptions; delete one or choose a larger plan",
			account, plan, n, most)
	}
	return nil
}

// Due reports whether the mailer should read the subscription's feed at
// now, on its schedule and its account's plan: a published schedule every
// round, or MailEvery after the last; daily and weekly once their hour has
// come since the last round.
func (s Subscription) Due(now time.Time, limits PlanLimits) bool {
	switch s.Schedule.Every {
	case ScheduleDaily, ScheduleWeekly:
		return s.Schedule.lastAt(now).After(s.RanAt)
	}
	return !now.Before(s.RanAt.Add(limits.MailEvery))
}

// lastAt returns the last time at or before now at which the daily or
// weekly schedule comes.
func (sc Schedule) lastAt(now time.Time) time.Time {
	m := now.In(Moscow)
	at := time.Date(m.Year(), m.Month(), m.Day(), sc.Hour, 0, 0, 0, Moscow)
	if at.After(m) {
		at = at.AddDate(0, 0, -1)
	}
	if sc.Every == ScheduleWeekly {
		want := slices.Index(Weekdays, sc.Weekday)
		for int(at.Weekday()) != want {
			at = at.AddDate(0, 0, -1)
		}
	}
	return at
}

// NewSubscriptionID draws a subscription id.
func NewSubscriptionID() (string, error) {
	hexID, err := randomHex(4)
	return "s_" + hexID, err
}

// NewSubscriptionSecret draws the secret that signs a subscription's
// webhooks and unsubscribe links.
func NewSubscriptionSecret() (string, error) {
	hexID, err := randomHex(32)
	return "whsec_" + hexID, err
}

// NoSubscription returns the error of a subscription id that the account
// has none of.
func NoSubscription(id string) error {
	return Errorf(ENOTFOUND, "no subscription with id %s", Quote(id))
}

// SubscriptionStore keeps subscriptions and the deliveries of their
// mailings.
//
// A mailing is decided once: CommitMailing stores its deliveries and moves
// the subscription's position past the changes it read in one
// transaction, and only from the position the mailer read from, so that
// two mailers, or one restarted, never mail the same changes twice nor
// skip any. A delivery is then sent until it is sent, or fails for good.
type SubscriptionStore interface {
	// CreateSubscription stores s, checked by NewSubscription, as a new
	// subscription of its account on plan, starting at the end of the
	// feed. It returns it with its id and secret. EFORBIDDEN when the
	// account has all the subscriptions its plan allows.
	CreateSubscription(ctx context.Context, s Subscription, plan Plan) (Subscription, error)
	// Subscriptions lists the subscriptions of account, or of every
	// account when account is "", oldest first, with their secrets.
	Subscriptions(ctx context.Context, account string) ([]Subscription, error)
	// Subscription returns the subscription of id, with its secret, or
	// ENOTFOUND.
	Subscription(ctx context.Context, id string) (Subscription, error)
	// DeleteSubscription deletes a subscription of account (any account
	// when ""), and the deliveries not yet sent. ENOTFOUND when it has
	// none of that id.
	DeleteSubscription(ctx context.Context, account, id string) error
	// RemoveRecipient takes recipient off a subscription's recipients,
	// and drops the deliveries not yet sent to them: the unsubscribe
	// link. A subscription left with no recipient and no webhook is
	// deleted. ENOTFOUND for an unknown id or recipient.
	RemoveRecipient(ctx context.Context, id, recipient string) error
	// CommitMailing stores m's deliveries, due at m.At and ordered by
	// their CreatedAt, and moves the subscription from m.From to m.To, at
	// m.At, in one transaction. A delivery to a target the subscription
	// no longer has (a recipient who unsubscribed since the mailer read
	// it) is dropped. ECONFLICT when the
	// subscription is no longer at m.From (another mailer committed
	// first) or was deleted.
	CommitMailing(ctx context.Context, m MailingCommit) error
	// ClaimDeliveries returns up to limit deliveries due at now, oldest
	// first, each claimed until now+lease: a sender that dies while
	// sending leaves it to be claimed again when the lease ends.
	ClaimDeliveries(ctx context.Context, now time.Time, lease time.Duration, limit int) ([]Delivery, error)
	// FinishDelivery records the outcome of an attempt at a claimed
	// delivery: d's Status, Attempts, NextAttempt, SentAt and LastError.
	FinishDelivery(ctx context.Context, d Delivery) error
	// Deliveries lists the deliveries of a subscription, newest first, at
	// most limit.
	Deliveries(ctx context.Context, subscription string, limit int) ([]Delivery, error)
}

// ErrMailingConflict is CommitMailing's answer when the subscription is no
// longer where the mailer read it from. It never reaches a caller: the
// mailer leaves the subscription to whoever moved it.
var ErrMailingConflict = errors.New("the subscription moved on, or was deleted, since its feed was read")

// subscriptionSettings are the fields of a subscription that its creator
// sets, which a store keeps as one JSON document beside its columns.
type subscriptionSettings struct {
	Branch     string          `json:"branch,omitempty"`
	Name       string          `json:"name"`
	Resource   string          `json:"resource"`
	Search     json.RawMessage `json:"search"`
	Schedule   Schedule        `json:"schedule"`
	Winners    bool            `json:"winners,omitempty"`
	WatchINNs  []string        `json:"watch_inns,omitempty"`
	Recipients []string        `json:"recipients,omitempty"`
	Webhook    string          `json:"webhook,omitempty"`
}

// Settings returns the JSON document a store keeps of s's settings.
func (s Subscription) Settings() ([]byte, error) {
	return json.Marshal(subscriptionSettings{
		Branch: s.Branch, Name: s.Name, Resource: s.Resource, Search: s.Search, Schedule: s.Schedule,
		Winners: s.Winners, WatchINNs: s.WatchINNs, Recipients: s.Recipients, Webhook: s.Webhook,
	})
}

// SetSettings sets s's settings from a document of Settings.
func (s *Subscription) SetSettings(doc []byte) error {
	var set subscriptionSettings
	if err := json.Unmarshal(doc, &set); err != nil {
		return fmt.Errorf("subscription %s: settings: %w", s.ID, err)
	}
	s.Branch, s.Name, s.Resource, s.Search, s.Schedule = set.Branch, set.Name, set.Resource, set.Search, set.Schedule
	s.Winners, s.WatchINNs, s.Recipients, s.Webhook = set.Winners, set.WatchINNs, set.Recipients, set.Webhook
	return nil
}

// WithoutRecipient returns s without recipient, the target of the
// deliveries to them, and whether s had them.
func (s Subscription) WithoutRecipient(recipient string) (Subscription, string, bool) {
	addr := strings.ToLower(strings.TrimSpace(recipient))
	i := slices.Index(s.Recipients, addr)
	if i < 0 {
		return s, "", false
	}
	s.Recipients = slices.Delete(slices.Clone(s.Recipients), i, i+1)
	return s, MailtoPrefix + addr, true
}

// Mails reports whether s still has somewhere to mail to.
func (s Subscription) Mails() bool { return len(s.Recipients) > 0 || s.Webhook != "" }

// UnsubscribeToken returns the token of recipient's unsubscribe link of a
// subscription whose secret is secret: it proves the link came in a mail
// of that subscription to that recipient, so that nobody else can take
// them off it.
func UnsubscribeToken(secret, recipient string) string {
	h := hmac.New(sha256.New, []byte(secret))
	h.Write([]byte("unsubscribe\n" + strings.ToLower(recipient)))
	return hex.EncodeToString(h.Sum(nil))[:32]
}
