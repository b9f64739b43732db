package main

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// print writes the report of the export bench: the run and the machine,
// how each store came to be, the figures of the walks of each store in
// each format side by side, and the warnings.
func (r *exportResult) print(w io.Writer) {
	fmt.Fprintf(w, "scalebench export: %d complaints and %d check results of seed %d, %d rounds, pages of %d\n",
		r.Complaints, r.Results, r.Seed, r.Rounds, r.PageSize)
	fmt.Fprintf(w, "%s\n\n", r.Machine.describe())
	printBuilds(w, r.Builds)
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
func (r *exportResult) writeJSON(path string) error { return writeFigures(path, r) }
