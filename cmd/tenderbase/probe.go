package main

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"time"
)

// probeTimeout bounds one probe: an orchestrator's healthcheck runs it
// every few seconds and counts a hung one as a failure anyway.
const probeTimeout = 5 * time.Second

// runProbe asks a running server's /health (or, with --ready, /ready) and
// exits 0 when it answers 200, 1 otherwise. It is the healthcheck of the
// container image, which has no shell or curl to ask with.
func runProbe(ctx context.Context, c *cli, args []string) int {
	cmd, _ := lookupCommand("probe")
	fs := c.newFlagSet(cmd)
	addr := defaultAddr
	if env := c.getenv("TENDERBASE_ADDR"); env != "" {
		addr = env
	}
	fs.StringVar(&addr, "addr", addr, "`HOST:PORT` the server listens on (env TENDERBASE_ADDR); a wildcard host is asked on loopback")
	ready := fs.Bool("ready", false, "ask /ready, whether the server can answer from its store, instead of /health, whether it runs")
	rest, err := parseArgs(fs, args)
	if err != nil {
		return parseExit(err)
	}
	if len(rest) > 0 {
		fmt.Fprintf(c.stderr, "tenderbase probe: unexpected argument %q\n", rest[0])
		return exitUsage
	}
	url, err := probeURL(addr, *ready)
	if err != nil {
		fmt.Fprintf(c.stderr, "tenderbase probe: %v\n", err)
		return exitUsage
	}
	ctx, cancel := context.WithTimeout(ctx, probeTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		fmt.Fprintf(c.stderr, "tenderbase probe: %v\n", err)
		return exitUsage
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		fmt.Fprintf(c.stderr, "tenderbase probe: %s: %v\n", url, err)
		return exitFailure
	}
	resp.Body.Close()
	fmt.Fprintf(c.stdout, "%s: %s\n", url, resp.Status)
	if resp.StatusCode != http.StatusOK {
		return exitFailure
	}
	return exitOK
}

// probeURL returns the URL of the probe of a server listening on addr. A
// server listening on every interface (0.0.0.0:8080, :8080) is asked on
// loopback, where it listens too.
func probeURL(addr string, ready bool) (string, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", fmt.Errorf("--addr %q is not HOST:PORT", addr)
	}
	switch host {
	case "", "0.0.0.0":
		host = "127.0.0.1"
	case "::":
		host = "::1"
	}
	path := "/health"
	if ready {
		path = "/ready"
	}
	return "http://" + net.JoinHostPort(host, port) + path, nil
}
