package harvesttest

import (
	"bytes"
	"os"
	"os/exec"
	"testing"
	"time"
)

// KillChild runs the test named child (a TestSyncChild that syncs into
// r's store) in a process of its own, with env added to its environment,
// and kills it with SIGKILL once reached is closed: no deferred call of
// it runs, no state of it is written. It fails the test, with what the
// child printed, when the child did not reach that point within a minute.
func KillChild(t *testing.T, child string, env []string, reached <-chan struct{}) {
	t.Helper()
	var out bytes.Buffer
	cmd := exec.Command(os.Args[0], "-test.run=^"+child+"$")
	// The child's temporary folders go into the test's own: killed, it
	// cannot remove them itself.
	cmd.Env = append(append(os.Environ(), env...), "TMPDIR="+t.TempDir())
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-reached:
	case <-time.After(time.Minute): // far past what a busy machine takes: a hang
		t.Error("the sync did not reach the point it is killed at: a hang")
	}
	cmd.Process.Kill()
	cmd.Wait()
	if t.Failed() {
		t.Fatalf("the killed sync:\n%s", out.String())
	}
}
