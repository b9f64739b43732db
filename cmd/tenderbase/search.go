package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"strings"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/tools"
)

// searchConfig is the configuration of the search command.
type searchConfig struct {
	Store    storeConfig
	Resource string
	Query    string // "" lists every record, newest first
	Page     int
	PageSize int
	Cursor   string // the next cursor of a page of the same search
	Filters  tenderbase.Filters
	// Named are the named filters of the resource's search tool, by name,
	// as --filter gives them; Sort is its sort.
	Named map[string]any
	Sort  string
	JSON  bool
}

// runSearch prints one page of the records of a resource that match a query.
func runSearch(ctx context.Context, c *cli, args []string) int {
	cfg, code, ok := c.parseSearch(args)
	if !ok {
		return code
	}
	search, err := buildSearch(cfg)
	if err != nil {
		return c.fail(fmt.Errorf("search: %w", err))
	}
	if err := cfg.Store.mustExist("import data first, or give --db"); err != nil {
		return c.fail(err)
	}
	store, err := openStore(ctx, cfg.Store, cfg.Store.newLogger(c.stderr))
	if err != nil {
		return c.fail(err)
	}
	defer store.Close()
	page, err := store.Search(ctx, search)
	if err != nil {
		return c.fail(fmt.Errorf("search: %w", err))
	}
	if cfg.JSON {
		err = writePageJSON(c.stdout, page)
	} else {
		err = writePage(c.stdout, cfg.Resource, page, cfg.Cursor != "")
	}
	if err != nil {
		return c.fail(err)
	}
	return exitOK
}

// parseSearch reads the search command line, as parseImport does.
func (c *cli) parseSearch(args []string) (cfg searchConfig, code int, ok bool) {
	cmd, _ := lookupCommand("search")
	fs := c.newFlagSet(cmd)
	c.storeFlags(fs, &cfg.Store, slog.LevelWarn)
	fs.IntVar(&cfg.Page, "page", 0, "show page `N`, counting from 0")
	fs.StringVar(&cfg.Cursor, "cursor", "", "show the page after the one whose next cursor is `C` (printed under each page); quick however deep")
	fs.IntVar(&cfg.PageSize, "page-size", tenderbase.DefaultPageSize, fmt.Sprintf("`N` records per page, at most %d", tenderbase.MaxPageSize))
	fs.Var(intList{&cfg.Filters.Regions, 1, 99}, "region", "region `CODE`, such as 77; repeat the flag or separate codes by commas")
	fs.Var(intList{&cfg.Filters.Countries, 1, 999}, "country", "ISO 3166 numeric country `CODE`, such as 643; repeatable")
	fs.Var(lawList{&cfg.Filters.Laws}, "law", "`LAW`: 44 or 223; repeatable")
	fs.Var(namedFilters{&cfg.Named}, "filter", "a filter of the resource's search tool as `NAME=VALUE`, such as price_min=5000000, "+
		"deadline_from=2026-12-01, okpd2=43.91, open=true (docs/tools.md); repeatable")
	fs.StringVar(&cfg.Sort, "sort", "", "`ORDER`: newest (default), deadline, price_asc, price_desc or relevance, as the resource offers")
	fs.BoolVar(&cfg.JSON, "json", false, "print the page as JSON")
	positional, err := parseArgs(fs, args)
	if err != nil {
		return cfg, parseExit(err), false
	}
	if len(positional) == 0 {
		fmt.Fprintln(c.stderr, "tenderbase search: no RESOURCE given")
		fs.Usage()
		return cfg, exitUsage, false
	}
	cfg.Resource = positional[0]
	// Words given unquoted arrive as separate arguments; a space between
	// words means AND in the query language, so joining them keeps the sense.
	cfg.Query = strings.Join(positional[1:], " ")
	return cfg, exitOK, true
}

// buildSearch turns the configuration into a store search, checking the
// resource, the query and the paging.
func buildSearch(cfg searchConfig) (tenderbase.Search, error) {
	kind, err := tenderbase.ResourceKind(cfg.Resource)
	if err != nil {
		return tenderbase.Search{}, err
	}
	// The search tools read the filters and the sort, so that the command
	// line takes them as MCP does; the query's errors say they are about it.
	s, err := tools.New(nil, nil).SearchOf(kind, cfg.Query, cfg.Sort, cfg.Named)
	if err != nil {
		return tenderbase.Search{}, err
	}
	s.Filters, s.Page, s.PageSize, s.Cursor = s.Filters.Merge(cfg.Filters), cfg.Page, cfg.PageSize, cfg.Cursor
	if err := s.Validate(); err != nil {
		return tenderbase.Search{}, err
	}
	return s, nil
}

func resourceNames() string {
	names := make([]string, len(tenderbase.Resources))
	for i, r := range tenderbase.Resources {
		names[i] = string(r.Name)
	}
	return strings.Join(names, ", ")
}

// writePageJSON writes the page with each item in its canonical JSON form.
func writePageJSON(w io.Writer, page tenderbase.Page) error {
	if page.Items == nil {
		page.Items = []tenderbase.Record{}
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(page)
}

// writePage writes the page as a listing: one line a record with its key,
// date and title, and the cursor of the next page. A page read by cursor
// does not know its number.
func writePage(w io.Writer, resource string, page tenderbase.Page, byCursor bool) error {
	lastPage := max(page.Total-1, 0) / max(page.PageSize, 1)
	where := fmt.Sprintf("page %d of pages 0-%d", page.Page, lastPage)
	if byCursor {
		where = "the page after the cursor"
	}
	if _, err := fmt.Fprintf(w, "%d found in %s (%s, %d per page)\n", page.Total, resource, where, page.PageSize); err != nil {
		return err
	}
	for _, r := range page.Items {
		date := "          "
		if !r.Date().IsZero() {
			date = r.Date().Format("2006-01-02")
		}
		if _, err := fmt.Fprintf(w, "%s  %-20s  %s\n", date, r.Key(), headline(r)); err != nil {
			return err
		}
	}
	if len(page.Items) == 0 && page.Total > 0 && !byCursor {
		// Past the end the listing is empty: say so, or it reads as a
		// search that found nothing.
		if _, err := fmt.Fprintf(w, "page %d is past the last page: the %d found are on pages 0-%d; ask for --page %d or less\n",
			page.Page, page.Total, lastPage, lastPage); err != nil {
			return err
		}
	}
	if page.Next != "" {
		if _, err := fmt.Fprintf(w, "next page: --cursor %s\n", page.Next); err != nil {
			return err
		}
	}
	return nil
}

// headline returns the line that best tells a record at a glance.
func headline(r tenderbase.Record) string {
	var line string
	switch r := r.(type) {
	case *tenderbase.Tender:
		line = r.Title
	case *tenderbase.Doc:
		line = strings.TrimSpace(r.FileName + " " + r.Description)
	case *tenderbase.Contract:
		line = r.Subject
	case *tenderbase.WorldTender:
		line = r.Title
	case *tenderbase.Lot:
		line = r.Title
	case *tenderbase.Complaint:
		line = r.PurchaseObjectInfo
	case *tenderbase.ComplaintResult:
		line = r.PurchaseName
	case *tenderbase.FASCase:
		line = r.Name
	case *tenderbase.Org:
		line = r.Name
	case *tenderbase.PlannedPurchase:
		line = r.Object
	}
	if line == "" {
		if texts := tenderbase.MatchedText(r, false); len(texts) > 0 {
			line = texts[0]
		}
	}
	return clip(strings.Join(strings.Fields(line), " "), 120)
}

// clip cuts s to at most n characters, marking the cut.
func clip(s string, n int) string {
	runes := []rune(s)
	if len(runes) <= n {
		return s
	}
	return string(runes[:n-1]) + "…"
}

// namedFilters is the --filter flag: NAME=VALUE, repeatable; a name given
// twice keeps its last value.
type namedFilters struct{ m *map[string]any }

func (f namedFilters) String() string { return "" }

func (f namedFilters) Set(v string) error {
	name, value, ok := strings.Cut(v, "=")
	if !ok || strings.TrimSpace(name) == "" {
		return fmt.Errorf("%q is not NAME=VALUE", v)
	}
	if *f.m == nil {
		*f.m = map[string]any{}
	}
	(*f.m)[strings.TrimSpace(name)] = strings.TrimSpace(value)
	return nil
}
