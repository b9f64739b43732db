package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/importer"
	"github.com/tenderbase/tenderbase/internal/reqinfo"
	"golang.org/x/term"
)

// defaultDB is the store used when neither --db nor TENDERBASE_DB names one.
const defaultDB = "./tenderbase.db"

// storeConfig says which store to open and how to log.
type storeConfig struct {
	DB string
	// Explicit tells whether DB was given, by --db or TENDERBASE_DB, rather
	// than left to the default.
	Explicit bool
	LogLevel slog.Level
	// LogFormat is "json", "text", or "" for text on a terminal and JSON
	// elsewhere.
	LogFormat string
}

// newFlagSet returns a flag set for a command that reports errors and usage
// on c.stderr.
func (c *cli) newFlagSet(cmd command) *flag.FlagSet {
	fs := flag.NewFlagSet(cmd.name, flag.ContinueOnError)
	fs.SetOutput(c.stderr)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: tenderbase %s\n\n%s.\n\nFlags:\n", cmd.usage, capitalize(cmd.summary))
		printFlags(fs)
	}
	return fs
}

// printFlags lists the flags of fs in the --name form people type.
func printFlags(fs *flag.FlagSet) {
	fs.VisitAll(func(f *flag.Flag) {
		arg, usage := flag.UnquoteUsage(f)
		name := "--" + f.Name
		if arg != "" {
			name += " " + arg
		}
		if f.DefValue != "" && f.DefValue != "false" {
			usage += fmt.Sprintf(" (default %s)", f.DefValue)
		}
		fmt.Fprintf(fs.Output(), "  %-22s %s\n", name, usage)
	})
}

// storeFlags adds --db and --log-level to fs.
func (c *cli) storeFlags(fs *flag.FlagSet, sc *storeConfig, defaultLevel slog.Level) {
	db, explicit := defaultDB, false
	if env := c.getenv("TENDERBASE_DB"); env != "" {
		db, explicit = env, true
	}
	sc.Explicit = explicit
	fs.StringVar(&sc.DB, "db", db, "`PATH` of the SQLite store file, or the postgres:// URL of a PostgreSQL database (env TENDERBASE_DB)")
	fs.TextVar(&sc.LogLevel, "log-level", defaultLevel, "log `LEVEL`: debug, info, warn or error")
	sc.LogFormat = c.getenv("TENDERBASE_LOG_FORMAT")
	fs.Var(logFormat{&sc.LogFormat}, "log-format",
		"log `FORMAT`: json or text; default text on a terminal and json elsewhere (env TENDERBASE_LOG_FORMAT)")
}

// logFormat is the flag value of --log-format.
type logFormat struct{ format *string }

func (f logFormat) String() string {
	if f.format == nil {
		return ""
	}
	return *f.format
}

func (f logFormat) Set(s string) error {
	if s != "json" && s != "text" {
		return errors.New("not a log format: use json or text")
	}
	*f.format = s
	return nil
}

// parseArgs parses the flags in args wherever they stand among the
// positional arguments, which it returns in order. Everything after "--" is
// positional. A request for help is flag.ErrHelp.
func parseArgs(fs *flag.FlagSet, args []string) ([]string, error) {
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if consumed := len(args) - len(rest); consumed > 0 && args[consumed-1] == "--" {
			return append(positional, rest...), nil
		}
		if len(rest) == 0 {
			return positional, nil
		}
		positional = append(positional, rest[0])
		args = rest[1:]
	}
}

// parseExit turns a parse error into an exit status: help was asked for and
// shown, or the flags were wrong and the flag package said so.
func parseExit(err error) int {
	if errors.Is(err, flag.ErrHelp) {
		return exitOK
	}
	return exitUsage
}

// envDuration returns the duration in the environment variable name, or def
// when it is unset. A value that is not a positive duration is an error.
func (c *cli) envDuration(name string, def time.Duration) (time.Duration, error) {
	v := c.getenv(name)
	if v == "" {
		return def, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("%s=%s is not a positive duration such as 30s", name, v)
	}
	return d, nil
}

// envInt returns the integer in the environment variable name, or def
// when it is unset.
func (c *cli) envInt(name string, def int) (int, error) {
	v := c.getenv(name)
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return 0, fmt.Errorf("%s=%s is not a whole number", name, v)
	}
	return n, nil
}

// envBool returns the truth value in the environment variable name: true,
// 1, yes or on; false, 0, no or off (any case); def when it is unset.
func (c *cli) envBool(name string, def bool) (bool, error) {
	switch v := strings.ToLower(strings.TrimSpace(c.getenv(name))); v {
	case "":
		return def, nil
	case "true", "1", "yes", "on", "t":
		return true, nil
	case "false", "0", "no", "off", "f":
		return false, nil
	}
	return false, fmt.Errorf("%s=%s: want true or false", name, c.getenv(name))
}

// durationVar defines the flag name of a positive duration, whose default
// is the duration in the environment variable env, or else def.
func (c *cli) durationVar(fs *flag.FlagSet, p *time.Duration, name, env string, def time.Duration, usage string) error {
	d, err := c.envDuration(env, def)
	if err != nil {
		return err
	}
	*p = d
	fs.Var(positiveDuration{p}, name, usage)
	return nil
}

// positiveDuration is a flag value that takes only a positive duration.
type positiveDuration struct{ d *time.Duration }

func (v positiveDuration) String() string {
	if v.d == nil {
		return ""
	}
	return v.d.String()
}

func (v positiveDuration) Set(s string) error {
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		return errors.New("not a positive duration such as 30s")
	}
	*v.d = d
	return nil
}

// wasSet reports whether the flag name was given on the command line.
func wasSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// intList is a repeatable flag of integers from lo to hi that also takes
// comma-separated lists: --region 77 --region 50,78.
type intList struct {
	values *[]int
	lo, hi int
}

func (l intList) String() string {
	if l.values == nil {
		return ""
	}
	s := make([]string, len(*l.values))
	for i, v := range *l.values {
		s[i] = strconv.Itoa(v)
	}
	return strings.Join(s, ",")
}

func (l intList) Set(text string) error {
	for part := range strings.SplitSeq(text, ",") {
		v, err := strconv.Atoi(strings.TrimSpace(part))
		if err != nil || v < l.lo || v > l.hi {
			return fmt.Errorf("%q is not a code from %d to %d", part, l.lo, l.hi)
		}
		*l.values = append(*l.values, v)
	}
	return nil
}

// lawList is a repeatable flag of laws, "44" or "223", also comma-separated.
type lawList struct{ values *[]string }

func (l lawList) String() string {
	if l.values == nil {
		return ""
	}
	return strings.Join(*l.values, ",")
}

func (l lawList) Set(text string) error {
	for part := range strings.SplitSeq(text, ",") {
		law := strings.TrimSpace(strings.TrimSuffix(strings.ToLower(part), "-fz"))
		if !slices.Contains([]string{"44", "223"}, law) {
			return fmt.Errorf("%q is not a law: use 44 or 223", part)
		}
		*l.values = append(*l.values, law)
	}
	return nil
}

// newLogger returns the logger of a command, writing to w in the format
// configured: by default text on a terminal and JSON otherwise, for a log
// collector. Every line logged while a request is served names the request
// (reqinfo.LogHandler).
func (sc storeConfig) newLogger(w io.Writer) *slog.Logger {
	opts := &slog.HandlerOptions{Level: sc.LogLevel}
	format := sc.LogFormat
	if format == "" {
		format = "json"
		if isTerminal(w) {
			format = "text"
		}
	}
	var h slog.Handler = slog.NewJSONHandler(w, opts)
	if format == "text" {
		h = slog.NewTextHandler(w, opts)
	}
	return slog.New(reqinfo.LogHandler{Handler: h})
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// parseSubcommand parses the flags of subcommand cmd of a command that
// manages things of the store (keys, subscriptions), after more adds its
// own flags, and the ID of the thing (what names it) when wantID is true.
func (c *cli) parseSubcommand(cmd command, args []string, sc *storeConfig, what string, wantID bool,
	more func(*flag.FlagSet)) (id string, fs *flag.FlagSet, code int, ok bool) {
	fs = c.newFlagSet(cmd)
	c.storeFlags(fs, sc, slog.LevelWarn)
	more(fs)
	positional, err := parseArgs(fs, args)
	if err != nil {
		return "", fs, parseExit(err), false
	}
	want := 0
	if wantID {
		want = 1
	}
	switch {
	case len(positional) < want:
		fmt.Fprintf(c.stderr, "tenderbase %s: no %s ID given\n", cmd.name, what)
	case len(positional) > want:
		fmt.Fprintf(c.stderr, "tenderbase %s: unexpected argument %q\n", cmd.name, positional[want])
	default:
		if wantID {
			id = positional[0]
		}
		return id, fs, exitOK, true
	}
	fs.Usage()
	return "", fs, exitUsage, false
}

// subcommands are the subcommands of a command that manages things of the
// store: keys, subscriptions.
type subcommands struct {
	name  string // the command's
	intro string // what it does, one sentence
	list  []command
}

// run runs the subcommand named by args[0].
func (g subcommands) run(ctx context.Context, c *cli, args []string) int {
	if len(args) == 0 {
		g.usage(c.stderr)
		return exitUsage
	}
	if slices.Contains([]string{"-h", "-help", "--help", "help"}, args[0]) {
		g.usage(c.stderr) // help asks for stderr as the other commands do; runHelp points it at stdout
		return exitOK
	}
	for _, sub := range g.list {
		if sub.name == args[0] {
			return sub.run(ctx, c, args[1:])
		}
	}
	fmt.Fprintf(c.stderr, "tenderbase %s: unknown subcommand %q\n\n", g.name, args[0])
	g.usage(c.stderr)
	return exitUsage
}

func (g subcommands) usage(w io.Writer) {
	fmt.Fprintf(w, "Usage: tenderbase %s SUBCOMMAND [flags] [ID]\n\n", g.name)
	fmt.Fprintf(w, "%s Subcommands:\n", g.intro)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, sub := range g.list {
		fmt.Fprintf(tw, "  %s\t%s\n", sub.usage, sub.summary)
	}
	tw.Flush()
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Every subcommand takes --db PATH (default ./tenderbase.db, env TENDERBASE_DB).")
	fmt.Fprintf(w, "Run \"tenderbase %s SUBCOMMAND -h\" for its flags.\n", g.name)
}

// command returns the subcommand name, named for its flag set.
func (g subcommands) command(name string) command {
	for _, sub := range g.list {
		if sub.name == name {
			sub.name = g.name + " " + name
			return sub
		}
	}
	panic("no " + g.name + " subcommand " + name)
}

// withStoreOf opens the store of sc, which must exist unless create, runs
// f on it and on the part of it a command manages (T: its keys, its
// subscriptions; what names them), and closes it.
func withStoreOf[T any](ctx context.Context, c *cli, sc storeConfig, create bool, what string, f func(tenderbase.Store, T) error) int {
	if !create {
		if err := sc.mustExist("give --db"); err != nil {
			return c.fail(err)
		}
	}
	store, err := openStore(ctx, sc, sc.newLogger(c.stderr))
	if err != nil {
		return c.fail(err)
	}
	defer store.Close()
	part, ok := store.(T)
	if !ok {
		return c.fail(fmt.Errorf("the store at %s keeps no %s", sc, what))
	}
	if err := f(store, part); err != nil {
		return c.fail(err)
	}
	return exitOK
}

// limitFlags adds the flags of the importer's bounds to fs, each of whose
// defaults is its environment variable's value, or else the importer's.
func (c *cli) limitFlags(fs *flag.FlagSet, l *importer.Limits) error {
	def := importer.DefaultLimits
	var errs []error
	for _, f := range []struct {
		name, env, what string
		p               *int64
		def             int64
	}{
		{"max-entry-bytes", "TENDERBASE_MAX_ENTRY_BYTES", "the largest archive member read, unpacked", &l.MaxEntryBytes, def.MaxEntryBytes},
		{"max-archive-bytes", "TENDERBASE_MAX_ARCHIVE_BYTES", "the most read of one archive, unpacked", &l.MaxArchiveBytes, def.MaxArchiveBytes},
		{"max-document-bytes", "TENDERBASE_MAX_DOCUMENT_BYTES", "the largest document read (an EIS, TED or torgi file)", &l.MaxDocumentBytes, def.MaxDocumentBytes},
		{"max-text-bytes", "TENDERBASE_MAX_TEXT_BYTES", "the longest text or tag of an XML file read", &l.MaxTextBytes, def.MaxTextBytes},
	} {
		*f.p = f.def
		if v := c.getenv(f.env); v != "" {
			n, err := parseSize(v)
			if err != nil {
				errs = append(errs, fmt.Errorf("%s=%s: %v", f.env, v, err))
			}
			*f.p = n
		}
		fs.Var(byteSize{f.p}, f.name, fmt.Sprintf("%s: `SIZE` in bytes, or with KiB, MiB or GiB (env %s)", f.what, f.env))
	}
	return errors.Join(errs...)
}

// byteSize is a flag value that takes a positive size: 1048576, 64KiB,
// 256MiB, 4GiB.
type byteSize struct{ n *int64 }

func (v byteSize) String() string {
	if v.n == nil {
		return ""
	}
	return importer.Size(*v.n)
}

func (v byteSize) Set(s string) error {
	n, err := parseSize(s)
	if err == nil {
		*v.n = n
	}
	return err
}

// parseSize reads a positive size in bytes, with an optional unit KiB, MiB
// or GiB.
func parseSize(s string) (int64, error) {
	s = strings.TrimSpace(s)
	unit := int64(1)
	for suffix, u := range map[string]int64{"KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30} {
		if digits, ok := strings.CutSuffix(s, suffix); ok {
			s, unit = strings.TrimSpace(digits), u
			break
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 || n > math.MaxInt64/unit {
		return 0, errors.New("not a positive size such as 256MiB")
	}
	return n * unit, nil
}
