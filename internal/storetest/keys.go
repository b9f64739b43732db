package storetest

import (
	"bytes"
	"context"
	"log/slog"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tenderbase/tenderbase"
)

// OpenKeys returns a fresh, empty key store whose log goes to logger (nil
// discards) and which is closed when the test ends.
type OpenKeys func(t *testing.T, logger *slog.Logger) tenderbase.KeyStore

// RunKeys runs the behaviour suite of tenderbase.KeyStore against the
// stores open returns, one for each subtest.
func RunKeys(t *testing.T, open OpenKeys) {
	for _, tc := range []struct {
		name string
		test func(*testing.T, OpenKeys)
	}{
		{"CreateAndAuthenticate", testKeyCreateAndAuthenticate},
		{"SecretsDiffer", testKeySecretsDiffer},
		{"AuthenticateRefuses", testKeyAuthenticateRefuses},
		{"CreateKeyInvalid", testKeyCreateKeyInvalid},
		{"Seats", testKeySeats},
		{"SeatsUnderConcurrency", testKeySeatsUnderConcurrency},
		{"AccountSharesOnePlan", testKeyAccountSharesOnePlan},
		{"SetKeyStatus", testKeySetKeyStatus},
		{"SetKeyLimits", testKeySetKeyLimits},
		{"NewestFirst", testKeyNewestFirst},
		{"Unholdable", testKeyUnholdable},
	} {
		t.Run(tc.name, func(t *testing.T) { tc.test(t, open) })
	}
}

// createKey creates a key and fails the test if it cannot.
func createKey(t *testing.T, s tenderbase.KeyStore, k tenderbase.Key) (tenderbase.Key, string) {
	t.Helper()
	k, secret, err := s.CreateKey(context.Background(), k)
	if err != nil {
		t.Fatalf("CreateKey: %v", err)
	}
	return k, secret
}

// wantCode fails the test unless err carries code, and returns its message.
func wantKeyCode(t *testing.T, err error, code string) string {
	t.Helper()
	if got := tenderbase.ErrorCode(err); got != code {
		t.Fatalf("error %v has code %q, want %q", err, got, code)
	}
	return tenderbase.ErrorMessage(err)
}

func setStatus(t *testing.T, s tenderbase.KeyStore, id, status string) {
	t.Helper()
	if _, err := s.SetKeyStatus(context.Background(), id, status); err != nil {
		t.Fatalf("SetKeyStatus(%s, %s): %v", id, status, err)
	}
}

func testKeyCreateAndAuthenticate(t *testing.T, open OpenKeys) {
	var logs bytes.Buffer
	s := open(t, slog.New(slog.NewTextHandler(&logs, nil)))
	k, secret := createKey(t, s, tenderbase.Key{Name: " CRM integration ", Plan: "Standard"})

	if !regexp.MustCompile(`^tb_[0-9A-Za-z]{43}$`).MatchString(secret) {
		t.Errorf("secret %q is not tb_ and 43 base62 digits", secret)
	}
	if !regexp.MustCompile(`^k_[0-9a-f]{8}$`).MatchString(k.ID) {
		t.Errorf("id %q is not k_ and 8 hex digits", k.ID)
	}
	if !strings.HasPrefix(k.Account, "acct_") {
		t.Errorf("account %q: want a new acct_ account", k.Account)
	}
	if k.Name != "CRM integration" || k.Plan != tenderbase.PlanStandard || k.Status != tenderbase.KeyActive || k.CreatedAt.IsZero() {
		t.Errorf("created key %+v", k)
	}
	got, err := s.Authenticate(context.Background(), secret)
	if err != nil {
		t.Fatalf("Authenticate: %v", err)
	}
	if diff := cmp.Diff(k, got); diff != "" {
		t.Errorf("Authenticate returned another key (-created +authenticated):\n%s", diff)
	}
	if strings.Contains(logs.String(), secret[3:]) {
		t.Errorf("the secret is in the log:\n%s", logs.String())
	}
}

func testKeySecretsDiffer(t *testing.T, open OpenKeys) {
	s := open(t, nil)
	seen := map[string]bool{}
	for range 20 {
		k, secret := createKey(t, s, tenderbase.Key{Name: "n", Plan: tenderbase.PlanFree})
		if seen[secret] || seen[k.ID] || seen[k.Account] {
			t.Fatalf("secret, id or account drawn twice: %s %s", k.ID, k.Account)
		}
		seen[secret], seen[k.ID], seen[k.Account] = true, true, true
	}
}

func testKeyAuthenticateRefuses(t *testing.T, open OpenKeys) {
	s := open(t, nil)
	_, good := createKey(t, s, tenderbase.Key{Name: "good", Plan: tenderbase.PlanGuru})
	suspended, suspendedSecret := createKey(t, s, tenderbase.Key{Name: "s", Plan: tenderbase.PlanGuru})
	revoked, revokedSecret := createKey(t, s, tenderbase.Key{Name: "r", Plan: tenderbase.PlanGuru})
	setStatus(t, s, suspended.ID, tenderbase.KeySuspended)
	setStatus(t, s, revoked.ID, tenderbase.KeyRevoked)

	tests := map[string]string{
		"empty":           "",
		"no prefix":       good[3:],
		"changed":         good[:len(good)-1] + otherDigit(good[len(good)-1]),
		"prefix only":     "tb_",
		"key id":          suspended.ID,
		"suspended":       suspendedSecret,
		"revoked":         revokedSecret,
		"with whitespace": " " + good,
	}
	for name, secret := range tests {
		t.Run(name, func(t *testing.T) {
			_, err := s.Authenticate(context.Background(), secret)
			// One message for every refusal: it must not tell which it was.
			if msg := wantKeyCode(t, err, tenderbase.EUNAUTHORIZED); msg != "unknown, revoked or suspended API key" {
				t.Errorf("message %q", msg)
			}
		})
	}
	setStatus(t, s, suspended.ID, tenderbase.KeyActive)
	if _, err := s.Authenticate(context.Background(), suspendedSecret); err != nil {
		t.Errorf("a resumed key is refused: %v", err)
	}
}

// otherDigit returns a base62 digit that is not d.
func otherDigit(d byte) string {
	if d == 'x' {
		return "y"
	}
	return "x"
}

func testKeyCreateKeyInvalid(t *testing.T, open OpenKeys) {
	s := open(t, nil)
	tests := map[string]struct {
		key     tenderbase.Key
		message string
	}{
		"no plan":      {tenderbase.Key{Name: "n"}, `unknown plan "" (plans: free, standard, guru, corporate)`},
		"unknown plan": {tenderbase.Key{Name: "n", Plan: "gold"}, `unknown plan "gold" (plans: free, standard, guru, corporate)`},
		"no name":      {tenderbase.Key{Name: "  ", Plan: "free"}, "a key needs a name"},
		"long name":    {tenderbase.Key{Name: strings.Repeat("n", 201), Plan: "free"}, "the name is longer than 200 bytes"},
		"control":      {tenderbase.Key{Name: "a\x00b", Plan: "free"}, "the name must be printable UTF-8 text"},
		"bad account":  {tenderbase.Key{Name: "n", Account: "a\nb", Plan: "free"}, "the account must be printable UTF-8 text"},
		"rate": {tenderbase.Key{Name: "n", Plan: "free", Overrides: tenderbase.Limits{RatePerMinute: -1}},
			"rate per minute must be positive, or 0 for the plan's default"},
		"burst": {tenderbase.Key{Name: "n", Plan: "free", Overrides: tenderbase.Limits{Burst: -5}},
			"burst must be positive, or 0 for the plan's default"},
		"row cap": {tenderbase.Key{Name: "n", Plan: "free", Overrides: tenderbase.Limits{RowCap: -2}},
			"row cap must be positive, 0 for the plan's default or -1 for no cap"},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			_, _, err := s.CreateKey(context.Background(), tt.key)
			if msg := wantKeyCode(t, err, tenderbase.EINVALID); msg != tt.message {
				t.Errorf("message %q, want %q", msg, tt.message)
			}
		})
	}
	if keys, err := s.Keys(context.Background()); err != nil || len(keys) != 0 {
		t.Errorf("invalid keys were stored: %v %v", keys, err)
	}
}

func testKeySeats(t *testing.T, open OpenKeys) {
	s := open(t, nil)
	ctx := context.Background()
	acme := tenderbase.Key{Name: "n", Account: "acme", Plan: tenderbase.PlanStandard}
	first, _ := createKey(t, s, acme)
	createKey(t, s, acme)

	_, _, err := s.CreateKey(ctx, acme)
	want := "account acme on plan standard has 2 of 2 seats in use; revoke a key or choose a larger plan"
	if msg := wantKeyCode(t, err, tenderbase.EFORBIDDEN); msg != want {
		t.Errorf("third key: %q, want %q", msg, want)
	}

	// A suspended key gives its seat up, and must find one to come back.
	setStatus(t, s, first.ID, tenderbase.KeySuspended)
	third, _ := createKey(t, s, acme)
	_, err = s.SetKeyStatus(ctx, first.ID, tenderbase.KeyActive)
	wantKeyCode(t, err, tenderbase.EFORBIDDEN)

	setStatus(t, s, third.ID, tenderbase.KeyRevoked)
	setStatus(t, s, first.ID, tenderbase.KeyActive)

	// Another account has seats of its own.
	createKey(t, s, tenderbase.Key{Name: "n", Account: "globex", Plan: tenderbase.PlanStandard})
}

func testKeySeatsUnderConcurrency(t *testing.T, open OpenKeys) {
	s := open(t, nil)
	var wg sync.WaitGroup
	errs := make(chan error, 10)
	for range 10 {
		wg.Go(func() {
			_, _, err := s.CreateKey(context.Background(), tenderbase.Key{Name: "n", Account: "acme", Plan: tenderbase.PlanGuru})
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	created := 0
	for err := range errs {
		switch tenderbase.ErrorCode(err) {
		case "":
			created++
		case tenderbase.EFORBIDDEN:
		default:
			t.Errorf("CreateKey: %v", err)
		}
	}
	if want := tenderbase.Plans[tenderbase.PlanGuru].Seats; created != want {
		t.Errorf("%d keys created at once on plan guru, want %d", created, want)
	}
}

func testKeyAccountSharesOnePlan(t *testing.T, open OpenKeys) {
	s := open(t, nil)
	k, _ := createKey(t, s, tenderbase.Key{Name: "n", Account: "acme", Plan: tenderbase.PlanStandard})
	setStatus(t, s, k.ID, tenderbase.KeySuspended) // a suspended key still holds the plan

	_, _, err := s.CreateKey(context.Background(), tenderbase.Key{Name: "n", Account: "acme", Plan: tenderbase.PlanGuru})
	want := "account acme is on plan standard; its keys share one plan (revoke its keys to move it to guru)"
	if msg := wantKeyCode(t, err, tenderbase.EINVALID); msg != want {
		t.Errorf("message %q, want %q", msg, want)
	}

	setStatus(t, s, k.ID, tenderbase.KeyRevoked)
	createKey(t, s, tenderbase.Key{Name: "n", Account: "acme", Plan: tenderbase.PlanGuru})
}

func testKeySetKeyStatus(t *testing.T, open OpenKeys) {
	s := open(t, nil)
	ctx := context.Background()
	k, _ := createKey(t, s, tenderbase.Key{Name: "n", Plan: tenderbase.PlanFree})

	got, err := s.SetKeyStatus(ctx, k.ID, tenderbase.KeySuspended)
	if err != nil || got.Status != tenderbase.KeySuspended || got.ID != k.ID {
		t.Fatalf("suspend: %+v %v", got, err)
	}
	setStatus(t, s, k.ID, tenderbase.KeySuspended) // again: no change, no error
	setStatus(t, s, k.ID, tenderbase.KeyRevoked)
	setStatus(t, s, k.ID, tenderbase.KeyRevoked)

	for _, status := range []string{tenderbase.KeyActive, tenderbase.KeySuspended} {
		_, err := s.SetKeyStatus(ctx, k.ID, status)
		want := "key " + k.ID + " is revoked, and a revoked key stays revoked"
		if msg := wantKeyCode(t, err, tenderbase.EINVALID); msg != want {
			t.Errorf("%s after revoke: %q", status, msg)
		}
	}
	_, err = s.SetKeyStatus(ctx, k.ID, "paused")
	wantKeyCode(t, err, tenderbase.EINVALID)
	_, err = s.SetKeyStatus(ctx, "k_00000000", tenderbase.KeySuspended)
	if msg := wantKeyCode(t, err, tenderbase.ENOTFOUND); msg != `no key with id "k_00000000"` {
		t.Errorf("unknown key: %q", msg)
	}
}

func testKeySetKeyLimits(t *testing.T, open OpenKeys) {
	s := open(t, nil)
	ctx := context.Background()
	k, secret := createKey(t, s, tenderbase.Key{Name: "n", Plan: tenderbase.PlanStandard,
		Overrides: tenderbase.Limits{Burst: 99}})

	l := tenderbase.Limits{RatePerMinute: 600, RowCap: -1}
	got, err := s.SetKeyLimits(ctx, k.ID, l)
	if err != nil {
		t.Fatal(err)
	}
	if got.Overrides != l {
		t.Errorf("overrides %+v, want %+v (replaced, not merged)", got.Overrides, l)
	}
	authenticated, err := s.Authenticate(ctx, secret)
	if err != nil {
		t.Fatal(err)
	}
	want := tenderbase.Plans[tenderbase.PlanStandard]
	want.RowCap, want.RatePerMinute = 0, 600
	if diff := cmp.Diff(want, authenticated.Effective()); diff != "" {
		t.Errorf("effective limits (-want +got):\n%s", diff)
	}

	_, err = s.SetKeyLimits(ctx, k.ID, tenderbase.Limits{Burst: -1})
	wantKeyCode(t, err, tenderbase.EINVALID)
	_, err = s.SetKeyLimits(ctx, "k_nope", l)
	wantKeyCode(t, err, tenderbase.ENOTFOUND)
}

// testKeyNewestFirst checks that Keys lists keys newest first, as they
// were created.
func testKeyNewestFirst(t *testing.T, open OpenKeys) {
	s := open(t, nil)
	var want []tenderbase.Key
	for _, name := range []string{"first", "second", "third"} {
		k, _ := createKey(t, s, tenderbase.Key{Name: name, Plan: tenderbase.PlanCorporate, Account: "acme",
			Overrides: tenderbase.Limits{RatePerMinute: len(name)}})
		want = append([]tenderbase.Key{k}, want...)
	}
	got, err := s.Keys(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Keys (-want +got):\n%s", diff)
	}
}

// testKeyUnholdable checks that a key id or secret that a store cannot hold
// as text is no key's, alike on every store, and never an internal error.
func testKeyUnholdable(t *testing.T, open OpenKeys) {
	s := open(t, nil)
	ctx := context.Background()
	k, secret := createKey(t, s, tenderbase.Key{Name: "n", Plan: tenderbase.PlanFree})
	for name, id := range map[string]string{
		"NUL":     k.ID + "\x00",
		"invalid": k.ID + "\xff",
		"long":    strings.Repeat(k.ID, 200),
	} {
		t.Run(name, func(t *testing.T) {
			_, err := s.SetKeyStatus(ctx, id, tenderbase.KeySuspended)
			if msg := wantKeyCode(t, err, tenderbase.ENOTFOUND); !strings.HasPrefix(msg, "no key with id ") {
				t.Errorf("SetKeyStatus: message %q", msg)
			}
			_, err = s.SetKeyLimits(ctx, id, tenderbase.Limits{Burst: 1})
			wantKeyCode(t, err, tenderbase.ENOTFOUND)
			_, err = s.Authenticate(ctx, secret+id[len(k.ID):])
			wantKeyCode(t, err, tenderbase.EUNAUTHORIZED)
			_, _, err = s.CreateKey(ctx, tenderbase.Key{Name: "n", Plan: tenderbase.PlanFree, Account: id})
			wantKeyCode(t, err, tenderbase.EINVALID)
		})
	}
	if _, err := s.Authenticate(ctx, secret); err != nil {
		t.Errorf("the key was changed: %v", err)
	}
}
