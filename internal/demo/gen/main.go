// Command gen writes the demo dataset of package demo in the canonical NDJSON
// form, and its 44-FZ notices as EIS XML. It runs from go:generate in that
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
	eisDir := flag.String("eis", "", "folder to write the EIS XML into, replacing what it holds")
	flag.Parse()
	if err := run(*out, *eisDir); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run(out, eisDir string) error {
	recs := demo.Generate()
	var buf bytes.Buffer
	if err := demo.Write(&buf, recs); err != nil {
		return err
	}
	if err := os.WriteFile(out, buf.Bytes(), 0o644); err != nil {
		return err
	}
	if eisDir == "" {
		return nil
	}
	return writeEIS(eisDir, recs)
}

// writeEIS replaces the content of dir with the demo's EIS XML.
func writeEIS(dir string, recs []tenderbase.Record) error {
	files, err := demo.WriteEIS(recs)
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
