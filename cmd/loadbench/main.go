// Command loadbench drives the HTTP server at saturation with normal
// traffic, alone and mixed with hostile requests, and reports the latency
// of the normal requests in both and every 5xx; on PostgreSQL a last
// phase cuts the database off for a while, through a proxy of its own. docs/load.md says how to
// run it and what it measured.
//
//	loadbench [--db PATH|URL] [--records N] [--duration 60s] [--clients 16] [--hostile 0.2] [--rounds 3] [--timeout 30s] [--settle 1m] [--outage 5s]
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"
)

// Exit statuses.
const (
	exitOK      = 0
	exitFailure = 1 // a 5xx, an outage not held, a server that did not stop, or a bench that could not run
	exitUsage   = 2
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// config is what a run of the bench is told.
type config struct {
	// DB is the path of a SQLite file or a postgres:// URL; the corpus is
	// built there unless it is there already.
	DB string
	// Records is the number of synthetic tenders of the corpus; it holds a
	// tenth as many synthetic complaints, and the demo dataset.
	Records int
	// Duration is the time of the hostile phases together; the baseline
	// phases take as long again.
	Duration time.Duration
	// Clients is the number of concurrent workers; in the hostile phases a
	// share Hostile of them sends hostile requests, and in the baseline
	// phases those workers rest.
	Clients int
	Hostile float64
	// Rounds is the number of baseline and hostile phases each.
	Rounds int
	// Timeout bounds every request; a phase ends when its last request
	// has.
	Timeout time.Duration
	// Settle bounds the wait for the server to go idle after a phase.
	Settle time.Duration
	// Outage is how long the outage phase cuts a PostgreSQL store's
	// database off; 0 runs no outage phase.
	Outage time.Duration
}

// run runs the bench with the command line args and returns the exit
// status: the report goes to stdout, progress and the server's warnings to
// stderr.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	cfg, err := parseFlags(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return exitOK
	}
	if err != nil {
		return exitUsage
	}
	r, err := runBench(ctx, cfg, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "loadbench: %v\n", err)
		return exitFailure
	}
	r.print(stdout)
	if r.serverErrors() > 0 || r.stopErr != nil || r.outage != nil && !r.outage.held(r.phases[len(r.phases)-1]) {
		return exitFailure
	}
	return exitOK
}

// parseFlags reads the command line; a wrong one is reported on stderr.
func parseFlags(args []string, stderr io.Writer) (config, error) {
	fs := flag.NewFlagSet("loadbench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var cfg config
	fs.StringVar(&cfg.DB, "db", filepath.Join(os.TempDir(), "tenderbase-loadbench.db"),
		"`PATH` of a SQLite file or postgres:// URL of a database of the bench's own; the corpus is built there once")
	fs.IntVar(&cfg.Records, "records", 100_000, "synthetic `TENDERS` in the corpus (and a tenth as many complaints)")
	fs.DurationVar(&cfg.Duration, "duration", 60*time.Second, "time of the hostile phases together; the baseline takes as long")
	fs.IntVar(&cfg.Clients, "clients", 16, "concurrent `WORKERS`")
	fs.Float64Var(&cfg.Hostile, "hostile", 0.2, "`SHARE` of the workers that send hostile requests in the hostile phases")
	fs.IntVar(&cfg.Rounds, "rounds", 3, "`N` baseline and N hostile phases, alternating; the report gives their medians")
	fs.DurationVar(&cfg.Timeout, "timeout", 30*time.Second, "how long a client waits for an answer")
	fs.DurationVar(&cfg.Settle, "settle", time.Minute, "how long to wait at most, after a phase, for the server to finish the work its clients gave up")
	fs.DurationVar(&cfg.Outage, "outage", 5*time.Second, "how long a last phase cuts a PostgreSQL store's database off, through a proxy of the bench's own; 0 for no such phase")
	if err := fs.Parse(args); err != nil {
		return cfg, err
	}
	err := cfg.check()
	if err == nil && fs.NArg() > 0 {
		err = fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if err != nil {
		fmt.Fprintf(stderr, "loadbench: %v\n", err)
	}
	return cfg, err
}

// check rejects a configuration the bench cannot run.
func (c config) check() error {
	switch {
	case c.Records < 1:
		return errors.New("--records must be at least 1")
	case c.Clients < 2:
		return errors.New("--clients must be at least 2")
	case c.Hostile <= 0 || c.Hostile >= 1:
		return errors.New("--hostile must be between 0 and 1")
	case c.Rounds < 1:
		return errors.New("--rounds must be at least 1")
	case c.Timeout < time.Second:
		return errors.New("--timeout must be a second at least")
	case c.Duration < time.Duration(c.Rounds)*time.Second:
		return errors.New("--duration must give each round a second at least")
	case c.Outage < 0 || isPostgres(c.DB) && c.Outage >= c.Duration/time.Duration(c.Rounds)/2:
		return errors.New("--outage must be 0, or shorter than half a phase (--duration / --rounds)")
	}
	return nil
}

// hostileWorkers is the number of workers that send hostile requests in
// the hostile phases: the share of the clients, at least one, and at least
// one worker left for normal traffic.
func (c config) hostileWorkers() int {
	return min(max(1, int(float64(c.Clients)*c.Hostile+0.5)), c.Clients-1)
}
