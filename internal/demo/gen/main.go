// Command gen writes the demo dataset of package demo in the canonical NDJSON
// form. It runs from go:generate in that package.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"

	"github.com/tenderbase/tenderbase/internal/demo"
)

func main() {
	out := flag.String("o", "demo.ndjson", "file to write")
	flag.Parse()
	var buf bytes.Buffer
	if err := demo.Write(&buf, demo.Generate()); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
	if err := os.WriteFile(*out, buf.Bytes(), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}
