package main

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/importer"
)

// importConfig is the configuration of the import command.
type importConfig struct {
	Store     storeConfig
	Paths     []string
	JSON      bool
	BatchSize int
	Limits    importer.Limits
}

// listLimit bounds the rejected records and skipped files the text summary
// lists; --json lists them all, up to importer.MaxRejections.
const listLimit = 20

// runImport loads the paths into the store and prints what it did.
func runImport(ctx context.Context, c *cli, args []string) int {
	var summary importer.Summary
	cfg, code, ok := c.parseImport(args)
	if !ok {
		return code
	}
	logger := cfg.Store.newLogger(c.stderr)
	if err := anyExists(cfg.Paths); err != nil {
		return c.fail(err)
	}
	created := cfg.Store.isNewFile()
	store, err := openStore(ctx, cfg.Store, logger)
	if err != nil {
		return c.fail(err)
	}
	defer func() {
		store.Close()
		if created && summary.Records == 0 {
			// An import that stored nothing leaves no empty store behind
			// to be taken later for one that holds data.
			cfg.Store.remove(logger)
		}
	}()

	bar := newProgress(c.stderr)
	summary, err = importer.Import(ctx, store, cfg.Paths, importer.Options{
		Decoders:  formats(),
		BatchSize: cfg.BatchSize,
		Limits:    cfg.Limits,
		Progress:  bar.set,
	})
	bar.clear()
	if summary.Inserted+summary.Replaced > 0 {
		optimize(ctx, store, logger)
	}
	if werr := writeSummary(c.stdout, summary, cfg.JSON); werr != nil {
		logger.Error("write summary", "err", werr)
	}
	if errors.Is(err, context.Canceled) {
		fmt.Fprintln(c.stderr, "tenderbase: import interrupted; the counts above are what was stored")
		return exitFailure
	}
	if err != nil {
		return c.fail(fmt.Errorf("import stopped: %w", err))
	}
	if summary.Files == 0 {
		fmt.Fprintln(c.stderr, "tenderbase: nothing could be read")
		return exitFailure
	}
	return exitOK
}

// anyExists fails when none of paths exists, before a store is opened or
// made for them: a mistyped path is told at once.
func anyExists(paths []string) error {
	var errs []error
	for _, p := range paths {
		_, err := os.Stat(p)
		if err == nil {
			return nil
		}
		errs = append(errs, err)
	}
	return tenderbase.Errorf(tenderbase.EINVALID, "nothing to import: %v", errors.Join(errs...))
}

// parseImport reads the import command line; ok is false when the
// command is not to run, and code then says how to exit.
func (c *cli) parseImport(args []string) (cfg importConfig, code int, ok bool) {
	cmd, _ := lookupCommand("import")
	fs := c.newFlagSet(cmd)
	c.storeFlags(fs, &cfg.Store, slog.LevelWarn)
	fs.BoolVar(&cfg.JSON, "json", false, "print the summary as JSON")
	fs.IntVar(&cfg.BatchSize, "batch-size", importer.DefaultBatchSize, "`N` records stored per transaction")
	if err := c.limitFlags(fs, &cfg.Limits); err != nil {
		fmt.Fprintf(c.stderr, "tenderbase import: %v\n", err)
		return cfg, exitUsage, false
	}
	paths, err := parseArgs(fs, args)
	if err != nil {
		return cfg, parseExit(err), false
	}
	if len(paths) == 0 {
		fmt.Fprintln(c.stderr, "tenderbase import: no PATH given")
		fs.Usage()
		return cfg, exitUsage, false
	}
	cfg.Paths = paths
	return cfg, exitOK, true
}

// progress draws a bar of the bytes imported on a terminal, and nothing
// elsewhere, where it would only clutter a log.
type progress struct {
	w   io.Writer
	on  bool
	bar *progressbar.ProgressBar
}

func newProgress(w io.Writer) *progress {
	return &progress{w: w, on: isTerminal(w)}
}

// set is an importer.Options.Progress.
func (p *progress) set(done, total int64) {
	if !p.on || total <= 0 {
		return
	}
	if p.bar == nil {
		p.bar = progressbar.NewOptions64(total,
			progressbar.OptionSetWriter(p.w),
			progressbar.OptionSetDescription("importing"),
			progressbar.OptionShowBytes(true),
			progressbar.OptionShowTotalBytes(true),
			progressbar.OptionShowCount(),
			progressbar.OptionSetPredictTime(true),
			progressbar.OptionThrottle(100*time.Millisecond),
			progressbar.OptionClearOnFinish(),
			progressbar.OptionFullWidth(),
		)
	}
	_ = p.bar.Set64(done) // drawing on a terminal; nothing to do if it fails
}

// clear removes the bar so that the summary starts on a clean line.
func (p *progress) clear() {
	if p.bar != nil {
		_ = p.bar.Clear()
	}
}

// writeSummary writes what the import did, as text or as JSON.
func writeSummary(w io.Writer, s importer.Summary, asJSON bool) error {
	if asJSON {
		return writeSummaryJSON(w, s)
	}
	fmt.Fprintf(w, "Read %s from %s: %d inserted, %d replaced, %d kept as older versions, %d unchanged.\n",
		plural(s.Records, "record"), plural(s.Files, "file"), s.Inserted, s.Replaced, s.Older, s.Unchanged)
	if len(s.Formats) > 0 {
		fmt.Fprintf(w, "Read as %s:\n", formatCounts(s.Formats))
		writeList(w, s.Read, s.Files)
	}
	if s.Rejected > 0 {
		fmt.Fprintf(w, "Rejected %s:\n", plural(s.Rejected, "record"))
		writeList(w, s.Rejections, s.Rejected)
	}
	if len(s.Skipped) > 0 {
		fmt.Fprintf(w, "Skipped %s, or read in part:\n", plural(len(s.Skipped), "path"))
		writeList(w, s.Skipped, len(s.Skipped))
	}
	if len(s.Noted) > 0 {
		fmt.Fprintf(w, "Read whole, but noted %s:\n", plural(len(s.Noted), "file"))
		writeList(w, s.Noted, len(s.Noted))
	}
	return nil
}

// formatCounts returns "EIS XML (12 files), NDJSON (1 file)": the files read
// per format, most first.
func formatCounts(formats map[string]int) string {
	names := slices.Collect(maps.Keys(formats))
	slices.SortFunc(names, func(a, b string) int {
		return cmp.Or(cmp.Compare(formats[b], formats[a]), cmp.Compare(a, b))
	})
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = fmt.Sprintf("%s (%s)", n, plural(formats[n], "file"))
	}
	return strings.Join(parts, ", ")
}

// writeList writes up to listLimit items, then says how many of total are
// left out.
func writeList[T fmt.Stringer](w io.Writer, items []T, total int) {
	for _, it := range items[:min(len(items), listLimit)] {
		fmt.Fprintf(w, "  %s\n", it)
	}
	if shown := min(len(items), listLimit); total > shown {
		fmt.Fprintf(w, "  and %d more\n", total-shown)
	}
}

func writeSummaryJSON(w io.Writer, s importer.Summary) error {
	// Empty lists as [], not null, so that a consumer can always iterate.
	if s.Rejections == nil {
		s.Rejections = []importer.Rejection{}
	}
	if s.Skipped == nil {
		s.Skipped = []importer.Skip{}
	}
	if s.Noted == nil {
		s.Noted = []importer.Note{}
	}
	if s.Read == nil {
		s.Read = []importer.FileRead{}
	}
	if s.Formats == nil {
		s.Formats = map[string]int{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(s)
}

// plural returns "1 file" or "2 files".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// optimizer is a store that can compact its indexes after a bulk load.
type optimizer interface {
	Optimize(ctx context.Context) error
}

// optimize compacts the store's indexes after an import that changed it, so
// that searches stay fast; a failure costs only speed and is logged.
func optimize(ctx context.Context, store tenderbase.Store, logger *slog.Logger) {
	o, ok := store.(optimizer)
	if !ok {
		return
	}
	if err := o.Optimize(ctx); err != nil && ctx.Err() == nil {
		logger.Warn("optimize indexes after import", "err", err)
	}
}
