package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/demo"
	"github.com/tenderbase/tenderbase/internal/importer"
	"github.com/tenderbase/tenderbase/internal/sqlite"
)

// loadDemo stores the demo dataset into store, named name, once
// checkDemoStore found it holds nothing but the demo.
func loadDemo(ctx context.Context, store tenderbase.Store, keys tenderbase.KeyStore, name string, logger *slog.Logger) error {
	if err := checkDemoStore(ctx, store, keys, name); err != nil {
		return err
	}
	sum, err := putDemo(ctx, store)
	if err != nil {
		return err
	}
	logger.Info("demo dataset loaded", "source_files", sum.Files, "records", sum.Records,
		"inserted", sum.Inserted, "replaced", sum.Replaced, "unchanged", sum.Unchanged)
	return nil
}

// putDemo stores the demo dataset: the records that have an official
// source format through the importer, from the demo's files in those
// formats, as real data comes in, and the others from the reference
// records. Storing it again changes nothing, so a store given explicitly
// can take it more than once.
func putDemo(ctx context.Context, store tenderbase.Store) (importer.Summary, error) {
	sum, err := importDemoSources(ctx, store)
	if err != nil {
		return sum, err
	}
	recs, err := demo.Records()
	if err != nil {
		return sum, fmt.Errorf("demo dataset: %w", err)
	}
	recs = slices.DeleteFunc(recs, demo.SourceBorn)
	for batch := range slices.Chunk(recs, importer.DefaultBatchSize) {
		res, err := store.Put(ctx, batch)
		if err != nil {
			return sum, fmt.Errorf("load demo dataset: %w", err)
		}
		sum.PutResult.Add(res)
	}
	sum.Records += len(recs)
	return sum, nil
}

// importDemoSources imports the demo's source files. The importer reads
// paths, so the embedded files are written to a temporary folder first.
func importDemoSources(ctx context.Context, store tenderbase.Store) (importer.Summary, error) {
	dir, err := os.MkdirTemp("", "tenderbase-demo-")
	if err != nil {
		return importer.Summary{}, fmt.Errorf("demo source files: %w", err)
	}
	defer os.RemoveAll(dir)
	if err := os.CopyFS(dir, demo.Sources()); err != nil {
		return importer.Summary{}, fmt.Errorf("demo source files: %w", err)
	}
	sum, err := importer.Import(ctx, store, []string{dir}, importer.Options{Decoders: formats()})
	if err != nil {
		return sum, fmt.Errorf("import demo source files: %w", err)
	}
	if sum.Rejected > 0 || len(sum.Skipped) > 0 {
		return sum, fmt.Errorf("import demo source files: %d records rejected, %d paths skipped", sum.Rejected, len(sum.Skipped))
	}
	return sum, nil
}

// checkDemoStore refuses a store that holds records or keys that are not
// the demo's, named name for the error: the demo's keys include one
// without a row cap, and its records would mix with real ones for good.
// A store that holds nothing, or the demo alone, takes it.
func checkDemoStore(ctx context.Context, store tenderbase.Store, keys tenderbase.KeyStore, name string) error {
	other, err := foreignKeys(ctx, keys)
	if err != nil {
		return err
	}
	totals := map[tenderbase.Kind]int{}
	for _, kind := range tenderbase.Kinds {
		p, err := store.Search(ctx, tenderbase.Search{Kind: kind, PageSize: 1})
		if err != nil {
			return fmt.Errorf("read the store's %s records: %w", kind, err)
		}
		if p.Total > 0 {
			totals[kind] = p.Total
		}
	}
	if len(totals) > 0 {
		more, err := foreignRecords(ctx, store, totals)
		if err != nil {
			return err
		}
		other = append(other, more...)
	}
	if len(other) == 0 {
		return nil
	}
	const most = 5
	if len(other) > most {
		other = append(other[:most], fmt.Sprintf("%d more", len(other)-most))
	}
	return fmt.Errorf("serve --demo: the store %s holds data that is not the demo's (%s), and the demo's records and keys, one without a row cap, "+
		"would stay in it: leave out --db to serve the demo from a temporary store, or give --db a new file or an empty database",
		name, strings.Join(other, ", "))
}

// foreignKeys names the keys that serve --demo did not make.
func foreignKeys(ctx context.Context, keys tenderbase.KeyStore) ([]string, error) {
	if keys == nil {
		return nil, nil
	}
	all, err := keys.Keys(ctx)
	if err != nil {
		return nil, fmt.Errorf("read the keys: %w", err)
	}
	var other []string
	for _, k := range all {
		if !isDemoKey(k) {
			other = append(other, fmt.Sprintf("key %s %s", k.ID, tenderbase.Quote(k.Name)))
		}
	}
	return other, nil
}

// foreignRecords says how many of the records of store, totals of each
// kind, are not the demo's: exactly where the store holds no more of a
// kind than the demo, else at least the difference, without reading a
// large store through. The demo's records are those it stores, since the
// importers give them their keys: it is stored into a temporary store to
// read them.
func foreignRecords(ctx context.Context, store tenderbase.Store, totals map[tenderbase.Kind]int) ([]string, error) {
	known, err := demoIdentities(ctx)
	if err != nil {
		return nil, err
	}
	var other []string
	for _, kind := range tenderbase.Kinds {
		total := totals[kind]
		switch {
		case total == 0:
			continue
		case total > len(known[kind]):
			other = append(other, fmt.Sprintf("at least %d %s records", total-len(known[kind]), kind))
			continue
		}
		n := 0
		err := eachKey(ctx, store, kind, func(key string) {
			if !known[kind][key] {
				n++
			}
		})
		if err != nil {
			return nil, fmt.Errorf("read the store's %s records: %w", kind, err)
		}
		if n > 0 {
			other = append(other, fmt.Sprintf("%d %s records", n, kind))
		}
	}
	return other, nil
}

// demoIdentities returns the keys of the demo's records, by kind, as a
// store holds them.
func demoIdentities(ctx context.Context) (map[tenderbase.Kind]map[string]bool, error) {
	dir, err := os.MkdirTemp("", "tenderbase-demo-")
	if err != nil {
		return nil, fmt.Errorf("demo store: %w", err)
	}
	defer os.RemoveAll(dir)
	store, err := sqlite.Open(ctx, filepath.Join(dir, "demo.db"), slog.New(slog.DiscardHandler))
	if err != nil {
		return nil, fmt.Errorf("demo store: %w", err)
	}
	defer store.Close()
	if _, err := putDemo(ctx, store); err != nil {
		return nil, err
	}
	known := map[tenderbase.Kind]map[string]bool{}
	for _, kind := range tenderbase.Kinds {
		known[kind] = map[string]bool{}
		if err := eachKey(ctx, store, kind, func(key string) { known[kind][key] = true }); err != nil {
			return nil, fmt.Errorf("read the demo's %s records: %w", kind, err)
		}
	}
	return known, nil
}

// eachKey calls visit with the key of every current record of kind in
// store.
func eachKey(ctx context.Context, store tenderbase.Store, kind tenderbase.Kind, visit func(key string)) error {
	q := tenderbase.Search{Kind: kind, PageSize: tenderbase.MaxPageSize}
	for {
		p, err := store.Search(ctx, q)
		if err != nil {
			return err
		}
		for _, r := range p.Items {
			visit(r.Key())
		}
		if p.Next == "" {
			return nil
		}
		q.Cursor = p.Next
	}
}

// demoKeyName names the keys that serve --demo makes, one per plan:
// "demo " and the plan's name.
const demoKeyName = "demo "

// isDemoKey reports whether k is a key serve --demo made.
func isDemoKey(k tenderbase.Key) bool { return k.Name == demoKeyName+string(k.Plan) }

// demoKeys makes sure the store has an active demo key of every plan, so
// that the demo can be queried at once. A key made by an earlier run is
// kept and named by its id, since only its hash is stored and its secret
// was printed by that run; a plan without one gets a new key, whose secret
// is printed. Revoking a demo key and starting again makes a new one.
func (c *cli) demoKeys(ctx context.Context, keys tenderbase.KeyStore, sc storeConfig) error {
	if keys == nil {
		return nil
	}
	all, err := keys.Keys(ctx)
	if err != nil {
		return fmt.Errorf("demo keys: %w", err)
	}
	kept := map[tenderbase.Plan]tenderbase.Key{}
	for _, k := range all { // newest first: the newest active one is kept
		if _, ok := kept[k.Plan]; !ok && isDemoKey(k) && k.Status == tenderbase.KeyActive {
			kept[k.Plan] = k
		}
	}
	for _, plan := range tenderbase.PlanNames {
		if k, ok := kept[plan]; ok {
			fmt.Fprintf(c.stdout, "demo key %s: %s, kept from an earlier run, which printed its secret\n", plan, k.ID)
			continue
		}
		_, secret, err := keys.CreateKey(ctx, tenderbase.Key{Name: demoKeyName + string(plan), Plan: plan})
		if err != nil {
			return fmt.Errorf("demo key %s: %w", plan, err)
		}
		fmt.Fprintf(c.stdout, "demo key %s: %s\n", plan, secret)
	}
	if len(kept) > 0 {
		fmt.Fprintf(c.stdout, "a key's secret is shown only once; for a new demo key, revoke the kept one "+
			"(tenderbase keys revoke ID --db %s) and start serve --demo again\n", shellQuote(sc.String()))
	}
	return nil
}
