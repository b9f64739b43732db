// Package e2e drives the real tenderbase binary with real MCP clients: the
// official Go SDK client, the TypeScript SDK client, the MCP Inspector CLI and
// the official conformance suite. The Node clients need `npm ci` in
// e2e/clients (.ci/run does it); without them those tests skip.
package e2e

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// server is one running `tenderbase serve --demo`.
type server struct {
	URL  string            // base URL, e.g. http://127.0.0.1:41234
	Keys map[string]string // plan -> secret of its demo key
}

var (
	binPath string
	srv     *server
)

func TestMain(m *testing.M) {
	code, err := runMain(m)
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		os.Exit(1)
	}
	os.Exit(code)
}

func runMain(m *testing.M) (int, error) {
	dir, err := os.MkdirTemp("", "tenderbase-e2e-")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(dir)
	binPath = filepath.Join(dir, "tenderbase")
	build := exec.Command("go", "build", "-o", binPath, "../cmd/tenderbase")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		return 0, fmt.Errorf("build the binary: %w", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s, stop, err := startServer(ctx, binPath)
	if err != nil {
		return 0, err
	}
	defer stop()
	srv = s
	return m.Run(), nil
}

var (
	listeningLine = regexp.MustCompile(`listening on (http://\S+)`)
	demoKeyLine   = regexp.MustCompile(`^demo key (\w+): (\S+)$`)
)

// startServer runs `serve --demo` with flags on a free loopback port and
// reads the address and the demo keys it prints. stop ends it with SIGTERM
// and waits.
func startServer(ctx context.Context, bin string, flags ...string) (*server, func(), error) {
	args := append([]string{"serve", "--demo", "--addr", "127.0.0.1:0", "--log-level", "warn"}, flags...)
	return startCommand(ctx, bin, args, 4)
}

// startCommand runs the binary with args, a serve command, and reads the
// address and the keys it prints, until it has keys of them. stop ends it
// with SIGTERM and waits; calling it again does nothing.
func startCommand(ctx context.Context, bin string, args []string, keys int) (*server, func(), error) {
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, nil, fmt.Errorf("start serve: %w", err)
	}
	var once sync.Once
	stop := func() {
		once.Do(func() {
			cmd.Process.Signal(os.Interrupt)
			done := make(chan struct{})
			go func() { cmd.Wait(); close(done) }()
			select {
			case <-done:
			case <-time.After(15 * time.Second):
				cmd.Process.Kill()
			}
		})
	}
	s, err := readBanner(out, 60*time.Second, keys)
	if err != nil {
		stop()
		return nil, nil, err
	}
	return s, stop, nil
}

// readBanner reads serve's stdout until it has the address and keys keys
// (one for every plan of the demo), then keeps draining it in the
// background.
func readBanner(out io.Reader, limit time.Duration, keys int) (*server, error) {
	s := &server{Keys: map[string]string{}}
	ready := make(chan error, 1)
	var once sync.Once
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			line := strings.TrimSpace(sc.Text())
			if m := listeningLine.FindStringSubmatch(line); m != nil {
				s.URL = m[1]
			}
			if m := demoKeyLine.FindStringSubmatch(line); m != nil {
				s.Keys[m[1]] = m[2]
			}
			if s.URL != "" && len(s.Keys) == keys {
				once.Do(func() { ready <- nil })
			}
		}
		once.Do(func() { ready <- fmt.Errorf("serve stopped before it was ready (url %q, %d keys)", s.URL, len(s.Keys)) })
	}()
	select {
	case err := <-ready:
		return s, err
	case <-time.After(limit):
		return nil, fmt.Errorf("serve was not ready within %s", limit)
	}
}

// key returns the demo key of a plan.
func key(t *testing.T, plan string) string {
	t.Helper()
	k, ok := srv.Keys[plan]
	if !ok {
		t.Fatalf("serve printed no demo key for plan %s", plan)
	}
	return k
}
