// Command gen writes the demo dataset of package demo in the canonical NDJSON
// form, and the records of it that have an official source format as files of that format. It runs from go:generate in that
// package.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/tenderbase/tenderbase"

	"github.com/tenderbase/tenderbase/internal/demo"
)

func main() {
	out := flag.String("o", "demo.ndjson", "file to write")
	srcDir := flag.String("sources", "", "folder to write the source files into (a folder per format), replacing what it holds")
	flag.Parse()
	if err := run(*out, *srcDir); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run(out, srcDir string) error {
	recs := demo.Generate()
	var buf bytes.Buffer
	if err := demo.Write(&buf, recs); err != nil {
		return err
	}
	if err := os.WriteFile(out, buf.Bytes(), 0o644); err != nil {
		return err
	}
	if srcDir == "" {
		return nil
	}
	return writeSources(srcDir, recs)
}

// writeSources replaces the content of dir with the demo's source files.
func writeSources(dir string, recs []tenderbase.Record) error {
	files, err := demo.WriteSources(recs)
	if err != nil {
		return err
	}
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	for _, f := range files {
		name := filepath.Join(dir, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(name, f.Data, 0o644); err != nil {
			return err
		}
	}
	return nil
}
