package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tenderbase/tenderbase/internal/harvest"
	"github.com/tenderbase/tenderbase/internal/harvest/ted/tedtest"
)

// A sync of TED fetches a day's notices, eForms and TED XML, from its
// search into the store; TED is off unless named or given its first day.
func TestSyncTED(t *testing.T) {
	s := tedtest.New(t)
	day := time.Date(2024, 4, 22, 0, 0, 0, 0, time.UTC)
	for number, file := range map[string]string{
		"740217-2023": "../../internal/source/eforms/testdata/cn-21-00740217-2023.xml",
		"905678-2022": "../../internal/source/ted/testdata/f02-original.xml",
	} {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		s.Add(day, number, b)
	}
	db := filepath.Join(t.TempDir(), "store.db")
	got := runCLI(t, nil, "sync", "--db", db, "--sources", "ted", "--documents=false", "--ted-url", s.URL(),
		"--since", "2024-04-22", "--until", "2024-04-22")
	if got.code != 0 {
		t.Fatalf("sync: exit %d\n%s%s", got.code, got.stdout, got.stderr)
	}
	status := runCLI(t, nil, "sync", "status", "--json", "--db", db)
	var rows []harvest.SourceStatus
	if err := json.Unmarshal([]byte(status.stdout), &rows); err != nil {
		t.Fatal(err, status.stdout)
	}
	i := slices.IndexFunc(rows, func(r harvest.SourceStatus) bool { return r.Source == "ted" })
	if i < 0 || rows[i].Files != 2 || rows[i].Inserted != 2 || rows[i].LastError != "" {
		t.Errorf("status %+v, want ted with 2 notices imported", rows)
	}
	if got := runCLI(t, nil, "search", "--db", db, "world", "viaduto"); got.code != 0 || !strings.Contains(got.stdout, "905678-2022") {
		t.Errorf("search after sync: exit %d\n%s%s", got.code, got.stdout, got.stderr)
	}
}

func TestTEDIsOffUntilItsFirstDay(t *testing.T) {
	names := func(sc syncConfig) []string {
		var n []string
		for _, s := range sources(sc, nil) {
			n = append(n, s.Name())
		}
		return n
	}
	var sc syncConfig
	if slices.Contains(names(sc), "ted") {
		t.Errorf("sources %v without --ted-since, want no ted", names(sc))
	}
	if err := sc.setTEDStart("2024-01-01"); err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(names(sc), "ted") || !slices.Contains(sourceNames(), "ted") {
		t.Errorf("sources %v with --ted-since, want ted", names(sc))
	}
	bad := runCLI(t, map[string]string{"TENDERBASE_TED_SINCE": "yesterday"}, "sync", "--sources", "ted")
	if bad.code != exitUsage || !strings.Contains(bad.stderr, "TENDERBASE_TED_SINCE") {
		t.Errorf("a bad TENDERBASE_TED_SINCE: exit %d\n%s", bad.code, bad.stderr)
	}
}
