package postgres

import (
	"context"
	"log/slog"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/postgres/pgtest"
	"github.com/tenderbase/tenderbase/internal/storetest"
)

// TestKeys runs the key-store behaviour suite.
func TestKeys(t *testing.T) {
	storetest.RunKeys(t, func(t *testing.T, logger *slog.Logger) tenderbase.KeyStore {
		s, err := Open(context.Background(), pgtest.URL(t), logger)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	})
}

func TestSecretIsNotStored(t *testing.T) {
	s := openTest(t)
	_, secret, err := s.CreateKey(context.Background(), tenderbase.Key{Name: "n", Plan: tenderbase.PlanFree})
	if err != nil {
		t.Fatal(err)
	}
	var row string
	if err := s.pool.QueryRow(context.Background(),
		`SELECT id || name || account || plan || status || created_at::text || overrides::text || encode(secret_hash, 'hex') FROM keys`).Scan(&row); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(strings.ToLower(row), strings.ToLower(secret[3:])) {
		t.Errorf("the keys table holds the secret: %s", row)
	}
}

// TestKeysAfterReopening checks that keys, their order and their exact
// creation times survive closing the store, and that a second Open of a
// migrated database changes nothing.
func TestKeysAfterReopening(t *testing.T) {
	url := pgtest.URL(t)
	s, err := Open(context.Background(), url, nil)
	if err != nil {
		t.Fatal(err)
	}
	var want []tenderbase.Key
	for _, name := range []string{"first", "second", "third"} {
		k, _, err := s.CreateKey(context.Background(), tenderbase.Key{Name: name, Plan: tenderbase.PlanCorporate, Account: "acme",
			Overrides: tenderbase.Limits{RatePerMinute: len(name)}})
		if err != nil {
			t.Fatal(err)
		}
		want = append([]tenderbase.Key{k}, want...)
	}
	s.Close()
	s, err = Open(context.Background(), url, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	got, err := s.Keys(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Keys after reopening (-want +got):\n%s", diff)
	}
}
