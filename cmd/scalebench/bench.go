package main

import (
	"context"
	"io"
	"log/slog"
	"time"

	"github.com/tenderbase/tenderbase/internal/benchcorpus"
)

// bench is one run of the bench.
type bench struct {
	cfg    config
	logger *slog.Logger // progress
	quiet  *slog.Logger // the stores' and the server's: warnings only, as the server logs every request
	// answers are the digests of the aggregates' answers, with
	// -aggregates.
	answers answers
}

// result is what a run found.
type result struct {
	Records    int                    `json:"records"`
	Seed       uint64                 `json:"seed"`
	Rounds     int                    `json:"rounds"`
	Machine    machine                `json:"machine"`
	Vocabulary benchcorpus.Vocabulary `json:"vocabulary"`
	Builds     []built                `json:"builds"`
	Classes    []classResult          `json:"classes"`
	Decoding   decoding               `json:"eis_decoding"`
	// Warnings name the queries whose totals the project's stores
	// disagree on, with each other, with the reference matcher or from
	// one round to the next, and the searches that failed.
	Warnings []string `json:"warnings"`
}

// runBench prepares the corpus and the stores, times the queries and
// returns the figures. Progress goes to stderr.
func runBench(ctx context.Context, cfg config, stderr io.Writer) (*result, error) {
	b := &bench{
		cfg:    cfg,
		logger: slog.New(slog.NewTextHandler(stderr, nil)),
		quiet:  slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn})),
	}
	r := &result{Records: cfg.Records, Seed: cfg.Seed, Rounds: cfg.Rounds, Machine: currentMachine(), Warnings: []string{}}
	var pg *cluster
	if cfg.wantsPostgres() {
		var err error
		if pg, err = connect(ctx, cfg.Postgres); err != nil {
			return nil, err
		}
		defer pg.close()
	}
	c, err := loadCorpus(cfg, b.logger)
	if err != nil {
		return nil, err
	}
	r.Vocabulary = c.Survey.Vocabulary
	targets, err := b.openTargets(ctx, pg, c.Path, r)
	defer func() {
		for _, t := range targets {
			t.close()
		}
	}()
	if err != nil {
		return nil, err
	}
	b.logger.Info("time the queries", "rounds", cfg.Rounds, "stores", len(targets))
	start := time.Now()
	if cfg.Aggregates {
		r.Classes = b.measure(ctx, targets, aggregateClasses(cfg.Records, c.Survey.Classes), r)
		b.answers.check(r)
		b.logger.Info("timed", "in", time.Since(start).Round(time.Millisecond))
		r.Machine.LoadAfter = loadAverage()
		return r, ctx.Err()
	}
	r.Classes = b.measure(ctx, targets, withCursors(c.Survey.Classes), r)
	b.logger.Info("timed", "in", time.Since(start).Round(time.Millisecond))
	r.Decoding = measureDecoding(cfg.Samples)
	r.Machine.LoadAfter = loadAverage()
	return r, ctx.Err()
}

// openTargets opens the stores of the configuration, building those the
// cache lacks, and records how each came to be.
func (b *bench) openTargets(ctx context.Context, pg *cluster, corpusPath string, r *result) ([]*target, error) {
	var targets []*target
	for _, name := range b.cfg.Stores {
		var ts []*target
		var bt built
		var err error
		switch name {
		case storeSQLite:
			var s ourStore
			if s, bt, err = b.openSQLite(ctx, corpusPath); err == nil {
				ts, err = b.serve(ctx, name, s)
			}
		case storePostgres:
			var s ourStore
			if s, bt, err = b.openPostgres(ctx, pg, corpusPath); err == nil {
				ts, err = b.serve(ctx, name, s)
			}
		case storeUsual:
			var u *usual
			if u, bt, err = b.openUsual(ctx, pg, corpusPath); err == nil {
				ts = []*target{{name: name, search: u.search, cursorOf: u.cursorOf, close: u.close}}
			}
		}
		if err != nil {
			return targets, err
		}
		targets = append(targets, ts...)
		r.Builds = append(r.Builds, bt)
	}
	return targets, nil
}
