// Package golden compares what a test produced with a golden file under
// testdata, and rewrites the file instead when the tests run with -update:
//
//	go test ./internal/query -update
//
// Only tests import it; the -update flag exists in their binaries alone.
package golden

import (
	"flag"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// Updating reports whether the tests run with -update, for tests that write
// golden files of their own shape.
func Updating() bool { return *update }

// Check compares got with the file at path, or writes got to it under
// -update.
func Check(t testing.TB, path, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("%s differs (-want +got); run go test -update if the change is right:\n%s", path, diff)
	}
}
