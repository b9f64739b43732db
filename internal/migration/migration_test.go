package migration

import (
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
)

func TestLoad(t *testing.T) {
	fsys := fstest.MapFS{
		"migrations/0010_later.sql": {Data: []byte("B")},
		"migrations/0002_first.sql": {Data: []byte("A")},
		"migrations/README":         {Data: []byte("not a migration")},
	}
	got, err := Load(fsys, "migrations/*.sql")
	if err != nil {
		t.Fatal(err)
	}
	want := []Migration{{2, "0002_first.sql", "A"}, {10, "0010_later.sql", "B"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Load (-want +got):\n%s", diff)
	}
	fsys["migrations/x_bad.sql"] = &fstest.MapFile{}
	if _, err := Load(fsys, "migrations/*.sql"); err == nil {
		t.Error("a file name without a number was accepted")
	}
}
