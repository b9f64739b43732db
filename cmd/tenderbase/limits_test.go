package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestImportLimitFlags sets the bound of an archive member by flag and by
// environment variable: a member past it is skipped with the bound and the
// flag named, and the other member of the archive is stored.
func TestImportLimitFlags(t *testing.T) {
	dir := t.TempDir()
	tenders := tenders(t, dir, "Поставка бумаги")
	line, err := os.ReadFile(tenders)
	if err != nil {
		t.Fatal(err)
	}
	archive := filepath.Join(dir, "a.zip")
	padded := filepath.Join(dir, "padded.ndjson")
	if err := os.WriteFile(padded, append(line, strings.Repeat("\n", 4096)...), 0o644); err != nil {
		t.Fatal(err)
	}
	writeZip(t, archive, map[string]string{"a.ndjson": tenders, "b.ndjson": padded})
	skipped := fmt.Sprintf("%s!/b.ndjson: unpacks to %d bytes, more than the 2 KiB an archive member may (--max-entry-bytes)", archive, len(line)+4096)
	for name, tt := range map[string]struct {
		env  map[string]string
		args []string
	}{
		"flag": {nil, []string{"--max-entry-bytes", "2KiB"}},
		"env":  {map[string]string{"TENDERBASE_MAX_ENTRY_BYTES": "2048"}, nil},
	} {
		t.Run(name, func(t *testing.T) {
			args := append([]string{"import", "--db", filepath.Join(t.TempDir(), "test.db")}, tt.args...)
			got := runCLI(t, tt.env, append(args, archive)...)
			if got.code != 0 || !strings.Contains(got.stdout, "1 inserted") || !strings.Contains(got.stdout, skipped) {
				t.Errorf("exit %d, stdout:\n%s\nstderr:\n%s\nwant 1 inserted and %q", got.code, got.stdout, got.stderr, skipped)
			}
		})
	}
	for _, tt := range []struct {
		env   map[string]string
		args  []string
		error string
	}{
		{nil, []string{"--max-text-bytes", "0"}, `invalid value "0" for flag -max-text-bytes: not a positive size such as 256MiB`},
		{nil, []string{"--max-archive-bytes", "4TB"}, `invalid value "4TB"`},
		{map[string]string{"TENDERBASE_MAX_DOCUMENT_BYTES": "big"}, nil, "TENDERBASE_MAX_DOCUMENT_BYTES=big: not a positive size"},
	} {
		got := runCLI(t, tt.env, append(append([]string{"import"}, tt.args...), archive)...)
		if got.code != exitUsage || !strings.Contains(got.stderr, tt.error) {
			t.Errorf("%v %v: exit %d, stderr:\n%s\nwant exit %d and %q", tt.env, tt.args, got.code, got.stderr, exitUsage, tt.error)
		}
	}
}
