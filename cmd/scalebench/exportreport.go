package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"
)

// print writes the report of the export bench: the run and the machine,
// how each store came to be, the figures of the walks of each store in
// each format side by side, and the warnings.
func (r *exportResult) print(w io.Writer) {
	m := r.Machine
	fmt.Fprintf(w, "scalebench export: %d complaints and %d check results of seed %d, %d rounds, pages of %d\n",
		r.Complaints, r.Results, r.Seed, r.Rounds, r.PageSize)
	commit := "unknown (not stamped in this build)"
	if m.Commit != "" {
		commit = m.Commit
		if m.Modified {
			commit += " with changes"
		}
	}
	fmt.Fprintf(w, "machine: %d CPUs, %s, commit %s; load %s before, %s after\n\n", m.CPUs, m.GoVersion, commit, m.LoadBefore, m.LoadAfter)
	(&result{Builds: r.Builds}).printBuilds(w)
	fmt.Fprintln(w)
	fmt.Fprintln(w, "a walk reads every page of GET /api2.3/export?mode=fasEIS, one after another, through the HTTP server in this process")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "store\tformat\trecords\tpages\tMiB a walk\trecords/s median\teach round\tpeak heap\t")
	for _, x := range r.Walks {
		rates := make([]string, len(x.Rates))
		for i, rate := range x.Rates {
			rates[i] = fmt.Sprintf("%.0f", rate)
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%.0f\t%.0f\t%s\t%s\t\n", x.Store, x.Format, x.Records, x.Pages,
			float64(x.Bytes)/(1<<20), x.Median, strings.Join(rates, " "), mib(int64(x.PeakHeap)))
	}
	tw.Flush()
	if len(r.Warnings) == 0 {
		fmt.Fprintln(w, "\nno warnings: every walk read the total the export gave")
	}
	for _, s := range r.Warnings {
		fmt.Fprintln(w, "warning:", s)
	}
}

// writeJSON writes the figures to a file.
func (r *exportResult) writeJSON(path string) error {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("write the figures: %w", err)
	}
	return nil
}
