package tenderbase

import (
	"context"
	"time"
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
// account has no free seat left; ENOTFOUND for an unknown key id;
// EUNAUTHORIZED from Authenticate for a secret that is unknown, revoked or
// suspended.
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
// a shared limiter); callers then let the request through and log it, since
// an outage of the limiter must not become an outage of the service.
type RateLimiter interface {
	Allow(ctx context.Context, k Key) (retryAfter time.Duration, err error)
}
