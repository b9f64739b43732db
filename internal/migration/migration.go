// Package migration reads the schema changes a store embeds, so that every
// store numbers, names and orders them alike. Applying them is each store's
// own business: its SQL dialect, its transactions, its locks.
package migration

import (
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"
)

// Migration is one schema change.
type Migration struct {
	Version int    // the number the file name starts with
	Name    string // the file name, "0001_records.sql"
	SQL     string
}

// Load returns the migrations in fsys matching pattern ("migrations/*.sql"),
// in the order of their numbers.
func Load(fsys fs.FS, pattern string) ([]Migration, error) {
	names, err := fs.Glob(fsys, pattern)
	if err != nil {
		return nil, err
	}
	var all []Migration
	for _, name := range names {
		base := path.Base(name)
		num, _, _ := strings.Cut(base, "_")
		v, err := strconv.Atoi(num)
		if err != nil {
			return nil, fmt.Errorf("migration %s: name must start with a number", base)
		}
		body, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, err
		}
		all = append(all, Migration{Version: v, Name: base, SQL: string(body)})
	}
	slices.SortFunc(all, func(a, b Migration) int { return a.Version - b.Version })
	return all, nil
}
