package sqlite

import (
	"context"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/storetest"
)

// TestKeys runs the key-store behaviour suite.
func TestKeys(t *testing.T) {
	storetest.RunKeys(t, func(t *testing.T, logger *slog.Logger) tenderbase.KeyStore {
		s, err := Open(context.Background(), filepath.Join(t.TempDir(), "store.db"), logger)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	})
}

// createKey creates a key and fails the test if it cannot.
func createKey(t *testing.T, s *Store, k tenderbase.Key) (tenderbase.Key, string) {
	t.Helper()
	k, secret, err := s.CreateKey(context.Background(), k)
	if err != nil {
		t.Fatalf("CreateKey: %v", err)
	}
	return k, secret
}

func TestSecretIsNotStored(t *testing.T) {
	s := openTest(t)
	_, secret := createKey(t, s, tenderbase.Key{Name: "n", Plan: tenderbase.PlanFree})
	var row string
	err := s.read.run(context.Background(), func(c *conn) error {
		return c.queryRow(context.Background(),
			`SELECT id || name || account || plan || status || created_at || overrides || hex(secret_hash) FROM keys`).Scan(&row)
	})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(strings.ToLower(row), strings.ToLower(secret[3:])) {
		t.Errorf("the keys table holds the secret: %s", row)
	}
}

func TestKeysNewestFirst(t *testing.T) {
	path := filepath.Join(t.TempDir(), "store.db")
	s, err := Open(context.Background(), path, nil)
	if err != nil {
		t.Fatal(err)
	}
	var want []tenderbase.Key
	for _, name := range []string{"first", "second", "third"} {
		k, _ := createKey(t, s, tenderbase.Key{Name: name, Plan: tenderbase.PlanCorporate, Account: "acme",
			Overrides: tenderbase.Limits{RatePerMinute: len(name)}})
		want = append([]tenderbase.Key{k}, want...)
	}
	s.Close()

	got, err := openAt(t, path).Keys(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Keys after reopening (-want +got):\n%s", diff)
	}
}

// BenchmarkAuthenticate measures the lookup every authenticated request
// makes.
func BenchmarkAuthenticate(b *testing.B) {
	s, err := Open(context.Background(), filepath.Join(b.TempDir(), "store.db"), nil)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	var secret string
	for range 100 {
		if _, secret, err = s.CreateKey(context.Background(), tenderbase.Key{Name: "n", Plan: tenderbase.PlanFree}); err != nil {
			b.Fatal(err)
		}
	}
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, err := s.Authenticate(context.Background(), secret); err != nil {
				b.Error(err)
				return
			}
		}
	})
}
