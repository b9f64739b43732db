package harvesttest

import (
	"bytes"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/tenderbase/tenderbase/internal/harvest"
	"github.com/tenderbase/tenderbase/internal/importer"
)

// The environment of the process Kill starts: the store to sync into and
// the service to sync from.
const (
	childDriver  = "HARVESTTEST_CHILD_DRIVER"
	childDSN     = "HARVESTTEST_CHILD_DSN"
	childService = "HARVESTTEST_CHILD_SERVICE"
	// childMayEnd, set, lets the child's sync end: Suite.Kills draws the
	// request it kills at, and a draw past a run's last lets it end.
	childMayEnd = "HARVESTTEST_CHILD_MAY_END"
)

// Child is the body of the test that Kill runs in a process of its own:
// the sync over scope, at now, of the source newSource returns for the
// address of the recorded service, into the rig's store. Run by any other
// way, it skips.
func Child(t *testing.T, decoders []importer.Decoder, now time.Time, scope harvest.Scope, newSource func(service string) harvest.Source) {
	child(t, decoders, now, scope, newSource, false)
}

func child(t *testing.T, decoders []importer.Decoder, now time.Time, scope harvest.Scope, newSource func(service string) harvest.Source, mayEnd bool) {
	driver := os.Getenv(childDriver)
	if driver == "" {
		t.Skip("run by harvesttest.Kill")
	}
	r := NewRig(t, driver, os.Getenv(childDSN), decoders)
	r.Runner.Now = func() time.Time { return now }
	err := r.Run(t, scope, newSource(os.Getenv(childService)))
	if !mayEnd || os.Getenv(childMayEnd) == "" {
		t.Errorf("the sync ended before it was killed: %v", err)
	}
}

// Kill runs the test named child of the same test binary (one that calls
// Child) in a process of its own, syncing into r's store from the
// recorded service at service, waits until reached is closed (the service
// holds the request where the kill is to fall) and kills the process with
// SIGKILL: no deferred call runs, no state is written. It fails the test,
// with the child's output, when the child never gets there.
func Kill(t *testing.T, child string, r *Rig, service string, reached <-chan struct{}) {
	t.Helper()
	if !kill(t, child, r, service, reached, false) {
		t.Fatal("the sync ended before it was killed")
	}
}

// kill runs child as Kill does and reports whether it was killed; with
// mayEnd, a child whose sync ends first is no failure.
func kill(t *testing.T, child string, r *Rig, service string, reached <-chan struct{}, mayEnd bool) bool {
	t.Helper()
	var out bytes.Buffer
	cmd := exec.Command(os.Args[0], "-test.run=^"+child+"$")
	// The child's temporary folders go into the test's own: killed, it
	// cannot remove them itself.
	cmd.Env = append(os.Environ(), childDriver+"="+r.Driver, childDSN+"="+r.DSN, childService+"="+service, "TMPDIR="+t.TempDir())
	if mayEnd {
		cmd.Env = append(cmd.Env, childMayEnd+"=1")
	}
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ended := make(chan error, 1)
	go func() { ended <- cmd.Wait() }()
	select {
	case <-reached:
	case err := <-ended:
		if err != nil || !mayEnd {
			t.Fatalf("the sync ended before it was killed: %v\n%s", err, out.String())
		}
		return false
	case <-time.After(time.Minute): // far past what a busy machine takes: a hang
		t.Error("the sync did not reach the request it was to be killed at: a hang")
	}
	cmd.Process.Kill()
	<-ended
	if t.Failed() {
		t.Fatalf("the killed sync:\n%s", out.String())
	}
	return true
}
