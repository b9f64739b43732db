package tenderbase

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"fmt"
	"math/big"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Key statuses.
const (
	KeyActive    = "active"
	KeySuspended = "suspended" // temporarily refused; can be resumed
	KeyRevoked   = "revoked"   // refused for good
)

// Key is an API key as the service knows it. The secret itself is shown once,
// at creation, and never stored: only its hash is.
type Key struct {
	ID        string    `json:"id"`      // public, e.g. "k_3f9a1c2b"; safe to log
	Name      string    `json:"name"`    // what the holder calls it
	Account   string    `json:"account"` // keys of one account share its plan's seats
	Plan      Plan      `json:"plan"`
	Status    string    `json:"status"`
	CreatedAt time.Time `json:"created_at"`
	// Overrides holds the load parameters agreed for this key, if any.
	Overrides Limits `json:"overrides,omitzero"`
}

// Limits are per-key overrides of a plan's defaults; a zero field keeps the
// plan's value.
type Limits struct {
	RatePerMinute int `json:"rate_per_minute,omitempty"`
	Burst         int `json:"burst,omitempty"`
	RowCap        int `json:"row_cap,omitempty"` // -1: no cap
}

// Effective returns the limits that apply to the key: its overrides over its
// plan's defaults. A plan this build does not know gets the free plan's
// limits, never none.
func (k Key) Effective() PlanLimits {
	l, ok := Plans[k.Plan]
	if !ok {
		l = Plans[PlanFree]
	}
	if k.Overrides.RatePerMinute > 0 {
		l.RatePerMinute = k.Overrides.RatePerMinute
	}
	if k.Overrides.Burst > 0 {
		l.Burst = k.Overrides.Burst
	}
	switch {
	case k.Overrides.RowCap < 0:
		l.RowCap = 0
	case k.Overrides.RowCap > 0:
		l.RowCap = k.Overrides.RowCap
	}
	return l
}

// KeyStore keeps API keys.
//
// Errors: EINVALID for a bad plan, name or status change; EFORBIDDEN when an
// account has no free seat left; ENOTFOUND for an unknown key id, which
// includes an id that is not Holdable, on every store; EUNAUTHORIZED from
// Authenticate for a secret that is unknown, revoked or suspended, whatever
// bytes it holds.
type KeyStore interface {
	// CreateKey stores a new active key for k.Account (a new account of its
	// own when empty) and returns it with its secret.
	CreateKey(ctx context.Context, k Key) (Key, string, error)
	// Keys lists every key, newest first.
	Keys(ctx context.Context) ([]Key, error)
	// SetKeyStatus suspends, resumes or revokes a key. A revoked key stays
	// revoked.
	SetKeyStatus(ctx context.Context, id, status string) (Key, error)
	// SetKeyLimits replaces a key's overrides.
	SetKeyLimits(ctx context.Context, id string, l Limits) (Key, error)
	// Authenticate returns the active key whose secret is secret.
	Authenticate(ctx context.Context, secret string) (Key, error)
}

// RateLimiter decides whether a key may make one more request now. It returns
// zero to allow the request, or how long the caller should wait before the
// next one. An error means the limiter could not decide (a lost connection to
// a shared limiter); callers then let the request through, since an outage of
// the limiter must not become an outage of the service. A limiter that can
// fail logs when it starts failing and when it recovers, once each, so that
// callers need not log every request it fails.
type RateLimiter interface {
	Allow(ctx context.Context, k Key) (retryAfter time.Duration, err error)
}

// SecretPrefix starts every secret, so that a key is recognizable in a
// configuration file and to secret scanners.
const SecretPrefix = "tb_"

// secretDigits is the length of a secret after its prefix: 32 random bytes
// need 43 base62 digits.
const secretDigits = 43

// maxKeyTextBytes bounds a key's name and account.
const maxKeyTextBytes = 200

// ErrBadSecret is the one answer of Authenticate for every secret that does
// not open the service, so that a caller cannot tell an unknown key from a
// revoked or suspended one.
var ErrBadSecret = Errorf(EUNAUTHORIZED, "unknown, revoked or suspended API key")

// NewKey checks what a caller gave for a new key and fills in the rest: a
// new account of its own when none is given, the active status and the
// creation time. A KeyStore's CreateKey starts with it, and adds the id.
func NewKey(k Key) (Key, error) {
	var err error
	if k.Plan, err = ParsePlan(string(k.Plan)); err != nil {
		return k, err
	}
	if k.Name, err = cleanText("key", "name", k.Name); err != nil {
		return k, err
	}
	if err := k.Overrides.Validate(); err != nil {
		return k, err
	}
	if strings.TrimSpace(k.Account) == "" {
		// One account per key unless the caller groups keys explicitly.
		hexID, err := randomHex(6)
		if err != nil {
			return k, err
		}
		k.Account = "acct_" + hexID
	} else if k.Account, err = cleanText("key", "account", k.Account); err != nil {
		return k, err
	}
	k.Status = KeyActive
	k.CreatedAt = time.Now().UTC()
	return k, nil
}

// cleanText trims s, the field of a thing (a key, a subscription), and
// checks that it is a non-empty printable text of a reasonable length;
// the error names both.
func cleanText(thing, field, s string) (string, error) {
	s = strings.TrimSpace(s)
	switch {
	case s == "":
		return "", Errorf(EINVALID, "a %s needs a %s", thing, field)
	case len(s) > maxKeyTextBytes:
		return "", Errorf(EINVALID, "the %s is longer than %d bytes", field, maxKeyTextBytes)
	case !utf8.ValidString(s) || strings.IndexFunc(s, unicode.IsControl) >= 0:
		return "", Errorf(EINVALID, "the %s must be printable UTF-8 text", field)
	}
	return s, nil
}

// Validate rejects overrides no limiter can apply.
func (l Limits) Validate() error {
	switch {
	case l.RatePerMinute < 0:
		return Errorf(EINVALID, "rate per minute must be positive, or 0 for the plan's default")
	case l.Burst < 0:
		return Errorf(EINVALID, "burst must be positive, or 0 for the plan's default")
	case l.RowCap < -1:
		return Errorf(EINVALID, "row cap must be positive, 0 for the plan's default or -1 for no cap")
	}
	return nil
}

// CheckAccount says whether an account may get one more active key on
// plan: accountPlan is the plan of its keys that are not revoked ("" when
// it has none), active the number of its active keys. Revoked keys keep no
// plan, so that an account can move to another plan by revoking its keys.
func CheckAccount(account string, plan, accountPlan Plan, active int) error {
	if accountPlan != "" && accountPlan != plan {
		return Errorf(EINVALID,
			"account %s is on plan %s; its keys share one plan (revoke its keys to move it to %s)",
			account, accountPlan, plan)
	}
	return CheckSeat(account, plan, active)
}

// CheckSeat says whether an account on plan with active keys in use may
// have one more.
func CheckSeat(account string, plan Plan, active int) error {
	if seats := Plans[plan].Seats; active >= seats {
		return Errorf(EFORBIDDEN,
			"account %s on plan %s has %d of %d seats in use; revoke a key or choose a larger plan",
			account, plan, active, seats)
	}
	return nil
}

// CheckKeyStatus rejects a status that is not one of the three.
func CheckKeyStatus(status string) error {
	if status != KeyActive && status != KeySuspended && status != KeyRevoked {
		return Errorf(EINVALID, "unknown key status %s (statuses: active, suspended, revoked)", Quote(status))
	}
	return nil
}

// StatusChange says whether k may take status, and whether it then takes
// a seat again (a key resumed), which its account must have free.
func (k Key) StatusChange(status string) (needsSeat bool, err error) {
	switch {
	case k.Status == status:
		return false, nil
	case k.Status == KeyRevoked:
		return false, Errorf(EINVALID, "key %s is revoked, and a revoked key stays revoked", k.ID)
	}
	return status == KeyActive, nil
}

// NoKey returns the error of a key id that no key has.
func NoKey(id string) error {
	return Errorf(ENOTFOUND, "no key with id %s", Quote(id))
}

// NewKeyID draws a key id. Ids are short, so that people can read and type
// them; a store draws again on the rare collision.
func NewKeyID() (string, error) {
	hexID, err := randomHex(4)
	return "k_" + hexID, err
}

// NewSecret returns a new secret: the prefix and 32 bytes from crypto/rand
// in base62, which survives copying from a terminal, a URL or a shell.
func NewSecret() (string, error) {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("draw a secret: %w", err)
	}
	digits := new(big.Int).SetBytes(b[:]).Text(62)
	return SecretPrefix + strings.Repeat("0", secretDigits-len(digits)) + digits, nil
}

// HashSecret returns the SHA-256 of a secret, which is all a store keeps of
// it. A fast hash is right here: slow password hashes exist to stretch
// guessable passwords, and a secret of 256 random bits cannot be guessed
// however fast each guess is. A fast hash also keeps Authenticate, which
// runs on every request, cheap.
func HashSecret(secret string) []byte {
	h := sha256.Sum256([]byte(secret))
	return h[:]
}

// AuthenticateBy returns the active key whose secret is secret, as
// KeyStore.Authenticate says, with find looking a key up by the hash of its
// secret: it returns the key and the hash stored with it, or a nil hash
// when no key has it. Looking up by hash reveals only the hash of the
// caller's own guess; comparing the hashes again in constant time keeps
// the answer independent of how the store's index compares bytes.
func AuthenticateBy(secret string, find func(hash []byte) (Key, []byte, error)) (Key, error) {
	if !strings.HasPrefix(secret, SecretPrefix) {
		return Key{}, ErrBadSecret
	}
	want := HashSecret(secret)
	k, stored, err := find(want)
	if err != nil {
		return Key{}, fmt.Errorf("authenticate: %w", err)
	}
	if subtle.ConstantTimeCompare(stored, want) != 1 || k.Status != KeyActive {
		return Key{}, ErrBadSecret
	}
	return k, nil
}

// randomHex returns n random bytes in hex.
func randomHex(n int) (string, error) {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("draw an id: %w", err)
	}
	return hex.EncodeToString(b), nil
}
