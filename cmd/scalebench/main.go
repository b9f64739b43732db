// Command scalebench times searches over a large corpus of synthetic
// tenders (internal/benchcorpus: real Russian words drawn by a Zipf law)
// in three stores side by side: the SQLite store, the PostgreSQL store,
// and PostgreSQL the usual way, one table with a tsvector that PostgreSQL
// generates with its Russian configuration, a GIN index and a btree on
// the date.
//
//	scalebench [-records 1000000] [-rounds 50] [-cache DIR] [-postgres URL] [-stores sqlite,postgres,usual] [-exact] [-db-suffix S] [-json FILE]
//
// The corpus is written once as NDJSON into the cache folder (by default
// tenderbase-scalebench in the user's cache folder), with the query
// classes drawn from its words' frequencies; the SQLite store is kept
// there too, and the two PostgreSQL stores in databases of their own,
// tenderbase_scale_N and tenderbase_usual_N, created through the -postgres
// URL. A store is built again only when it is missing or holds another
// corpus. The project's stores load the corpus through the importer, as
// `tenderbase import` does; the usual way by COPY. For each store built,
// the report gives the records a second, the time, the bench's peak
// resident memory and the size on disk.
//
// Then the bench asks the queries of every class of every store, in
// rounds that shuffle the order of both: the project's stores through the
// HTTP server in this process (ru.search on its debug endpoint, with a key
// of the corporate plan, reading the whole answer), cold right after the
// store forgot its cached totals and warm right after; the usual way
// counts and reads its page in one round trip and encodes the rows as
// JSON. The report gives p50, p95 and p99 per class and store, the totals
// of each query beside the reference matcher's, and the usual way's p95
// over each store's. The project's stores must agree on every total; a
// line says where they do not. The usual way's totals differ: it indexes
// the same text, but stems it otherwise and drops stop words.
//
// With -exact each of the project's stores is timed twice in every round:
// as an agent asks (the thesaurus, corrections and partial matches on) and
// with "exact": true, the query as written, as the stores "sqlite exact"
// and "postgres exact"; the two totals differ where the widening matches
// more.
//
// With -export the bench times the export instead (exportwalk.go): -records
// synthetic complaints of internal/demo, and a check result of every
// second one, stored through Store.Put in the SQLite store and the
// PostgreSQL store (database tenderbase_export_N), each built once and
// kept; then every round walks GET /api2.3/export?mode=fasEIS page by page,
// 1,000 records a page with a key of the corporate plan, in JSON and in
// XML, reading every byte. The report gives each store's records a second
// (the median of the rounds) and the peak of the heap in use side by side.
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
	"regexp"
	"slices"
	"strings"
	"syscall"
)

// Exit statuses.
const (
	exitOK      = 0
	exitFailure = 1 // the bench could not run
	exitUsage   = 2
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// The stores the bench knows, in the order it reports them.
const (
	storeSQLite   = "sqlite"
	storePostgres = "postgres"
	storeUsual    = "usual"
)

var storeNames = []string{storeSQLite, storePostgres, storeUsual}

// config is what a run of the bench is told.
type config struct {
	// Records is the number of tenders of the corpus, and Seed the seed
	// it is generated from.
	Records int
	Seed    uint64
	// Rounds is the number of rounds of queries; each round asks one query
	// of every class of every store.
	Rounds int
	// Cache is the folder the corpus, its classes and the SQLite store are
	// kept in from run to run.
	Cache string
	// Postgres is the URL of a database of the server the bench's
	// databases are created on (the admin URL).
	Postgres string
	// Samples is the folder of published EIS XML whose decoding is timed.
	Samples string
	// Stores are the stores timed, in the order of storeNames.
	Stores []string
	// DBSuffix ends the names of the bench's databases and SQLite file,
	// so that a test keeps apart from a real run.
	DBSuffix string
	// JSON, when not empty, is the file the figures are written to.
	JSON string
	// Export times the export of stored complaints instead of searches.
	Export bool
	// Exact also times each of the project's stores with "exact": true,
	// the query as written with no widening (thesaurus, corrections,
	// partial matches), as a store of its own (sqlite exact, postgres
	// exact) beside the same store widening its queries.
	Exact bool
	// Aggregates times analytics.aggregate (aggregates.go) instead of
	// ru.search.
	Aggregates bool
}

// wants reports whether the store called name is timed.
func (c config) wants(name string) bool { return slices.Contains(c.Stores, name) }

// wantsPostgres reports whether a store on the PostgreSQL server is timed.
func (c config) wantsPostgres() bool { return c.wants(storePostgres) || c.wants(storeUsual) }

// run runs the bench with the command line args and returns the exit
// status: the report goes to stdout, progress to stderr.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	cfg, err := parseFlags(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return exitOK
	}
	if err != nil {
		return exitUsage
	}
	var r report
	if cfg.Export {
		r, err = runExport(ctx, cfg, stderr)
	} else {
		r, err = runBench(ctx, cfg, stderr)
	}
	if err != nil {
		fmt.Fprintf(stderr, "scalebench: %v\n", err)
		return exitFailure
	}
	r.print(stdout)
	if cfg.JSON != "" {
		if err := r.writeJSON(cfg.JSON); err != nil {
			fmt.Fprintf(stderr, "scalebench: %v\n", err)
			return exitFailure
		}
	}
	return exitOK
}

// report is the figures of a run, of searches or of the export.
type report interface {
	print(w io.Writer)
	writeJSON(path string) error
}

// parseFlags reads the command line; a wrong one is reported on stderr.
func parseFlags(args []string, stderr io.Writer) (config, error) {
	fs := flag.NewFlagSet("scalebench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var cfg config
	var stores string
	fs.IntVar(&cfg.Records, "records", 1_000_000, "`TENDERS` in the corpus")
	fs.Uint64Var(&cfg.Seed, "seed", 2026, "`SEED` of the corpus")
	fs.IntVar(&cfg.Rounds, "rounds", 50, "`N` rounds of queries, each one query of every class on every store")
	fs.StringVar(&cfg.Cache, "cache", defaultCache(), "`DIR` the corpus and the SQLite store are kept in from run to run")
	fs.StringVar(&cfg.Postgres, "postgres", "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable",
		"`URL` of a database of the PostgreSQL server to create the bench's databases on")
	fs.StringVar(&stores, "stores", strings.Join(storeNames, ","), "`LIST` of the stores to time, of "+strings.Join(storeNames, ", "))
	fs.StringVar(&cfg.DBSuffix, "db-suffix", "", "`SUFFIX` of the names of the bench's databases and SQLite file (lowercase letters, digits, _)")
	fs.StringVar(&cfg.JSON, "json", "", "`FILE` to write the figures to, as JSON")
	fs.BoolVar(&cfg.Export, "export", false, "time the export of -records stored complaints instead of searches")
	fs.BoolVar(&cfg.Exact, "exact", false, "also time each of the project's stores with \"exact\": true (no thesaurus, corrections or partial matches), beside the same store with them")
	fs.BoolVar(&cfg.Aggregates, "aggregates", false, "time analytics.aggregate over the corpus instead of ru.search, on the project's stores")
	fs.StringVar(&cfg.Samples, "samples", filepath.Join("..", "shared", "data"), "`DIR` of published EIS XML documents whose decoding is timed")
	if err := fs.Parse(args); err != nil {
		return cfg, err
	}
	cfg.Stores = strings.Split(stores, ",")
	err := cfg.check()
	if err == nil && fs.NArg() > 0 {
		err = fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if err != nil {
		fmt.Fprintf(stderr, "scalebench: %v\n", err)
	}
	return cfg, err
}

var suffixPattern = regexp.MustCompile(`^[a-z0-9_]*$`)

// check rejects a configuration the bench cannot run, and puts the stores
// in the order of storeNames.
func (c *config) check() error {
	for _, s := range c.Stores {
		if !slices.Contains(storeNames, s) {
			return fmt.Errorf("-stores: unknown store %q; the stores are %s", s, strings.Join(storeNames, ", "))
		}
	}
	c.Stores = slices.DeleteFunc(slices.Clone(storeNames), func(s string) bool {
		// The usual way has no export and no aggregates.
		return !slices.Contains(c.Stores, s) || ((c.Export || c.Aggregates) && s == storeUsual)
	})
	switch {
	case c.Records < 1:
		return errors.New("-records must be at least 1")
	case c.Rounds < 1:
		return errors.New("-rounds must be at least 1")
	case c.Cache == "":
		return errors.New("-cache is empty and there is no user cache folder to take instead")
	case !suffixPattern.MatchString(c.DBSuffix):
		return fmt.Errorf("-db-suffix %q may hold only lowercase letters, digits and _", c.DBSuffix)
	case c.wantsPostgres() && !strings.HasPrefix(c.Postgres, "postgres://") && !strings.HasPrefix(c.Postgres, "postgresql://"):
		return fmt.Errorf("-postgres must be a postgres:// URL, got %q", c.Postgres)
	}
	return nil
}

// defaultCache is the bench's folder in the user's cache folder
// ($XDG_CACHE_HOME or ~/.cache), or nothing when there is none.
func defaultCache() string {
	dir, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "tenderbase-scalebench")
}
