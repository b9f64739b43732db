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
	eisDir := flag.String("eis", "", "folder to write the EIS XML into, replacing its XML files")
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

// writeEIS replaces the XML files of dir with the demo's EIS XML.
func writeEIS(dir string, recs []tenderbase.Record) error {
	files, err := demo.WriteEIS(recs)
	if err != nil {
		return err
	}
	old, err := filepath.Glob(filepath.Join(dir, "*.xml"))
	if err != nil {
		return err
	}
	for _, name := range old {
		if err := os.Remove(name); err != nil {
			return err
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, f := range files {
		if err := os.WriteFile(filepath.Join(dir, f.Name), f.Data, 0o644); err != nil {
			return err
		}
	}
	return nil
}
