package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"text/tabwriter"
	"time"
)

// print writes the report: the run and the machine, how each store came
// to be, the percentiles of each class on each store, the totals of each
// query and the warnings.
func (r *result) print(w io.Writer) {
	fmt.Fprintf(w, "scalebench: %d tenders of seed %d, %d rounds\n", r.Records, r.Seed, r.Rounds)
	fmt.Fprintln(w, r.Machine.describe())
	v := r.Vocabulary
	fmt.Fprintf(w, "vocabulary: %d lexemes; the corpus holds %d keys of Russian words in %d forms\n\n", v.Lexemes, v.Keys, v.Forms)
	printBuilds(w, r.Builds)
	fmt.Fprintln(w)
	r.printClasses(w)
	fmt.Fprintln(w)
	r.printQueries(w)
	fmt.Fprintln(w)
	r.Decoding.print(w)
	fmt.Fprintln(w)
	if len(r.Warnings) == 0 {
		fmt.Fprintln(w, "no warnings: the project's stores gave every query the same total, the reference matcher's")
	}
	for _, s := range r.Warnings {
		fmt.Fprintln(w, "warning:", s)
	}
}

// printBuilds writes how each store came to be: built, with what that
// took, or found in the cache.
func printBuilds(w io.Writer, builds []built) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "store\tbuild\trecords\twall\trecords/s\tpeak RSS\tsize")
	for _, b := range builds {
		if b.Cached {
			fmt.Fprintf(tw, "%s\tcached\t\t\t\t\t%s\n", b.Store, mib(b.Size))
			continue
		}
		fmt.Fprintf(tw, "%s\tbuilt\t%d\t%s\t%.0f\t%s\t%s\n", b.Store, b.Records, b.Wall.Round(100*time.Millisecond),
			b.RecordsPerSecond, mib(b.PeakRSS), mib(b.Size))
	}
	tw.Flush()
}

func (r *result) printClasses(w io.Writer) {
	for _, c := range r.Classes {
		fmt.Fprintf(w, "%s: %s\n", c.Name, c.About)
	}
	fmt.Fprintln(w, "times in ms; cold: right after the store forgot its cached totals; warm: the same search again")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "class\tstore\tsearches\tfailed\tmedian total\tcold p50\tp95\tp99\twarm p50\tp95\tp99\tusual p95 / cold p95\t/ warm p95\t")
	for _, c := range r.Classes {
		for _, f := range c.Stores {
			fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%s\t%.1f\t%.1f\t%.1f\t%s\t%s\t%s\t%s\t%s\t\n", c.Name, f.Store, f.Searches, f.Failed,
				medianTotal(c, f.Store), f.ColdP50, f.ColdP95, f.ColdP99,
				optional(f.WarmP50, "%.1f"), optional(f.WarmP95, "%.1f"), optional(f.WarmP99, "%.1f"),
				optional(f.UsualOverCold, "%.2f"), optional(f.UsualOverWarm, "%.2f"))
		}
	}
	tw.Flush()
}

// printQueries writes the totals each store gave each query asked, beside
// the reference matcher's.
func (r *result) printQueries(w io.Writer) {
	var stores []string
	for _, b := range r.Builds {
		stores = append(stores, b.Store)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprint(tw, "class\tquery\tregion\tpage\tmatcher")
	for _, s := range stores {
		fmt.Fprint(tw, "\t", s)
	}
	fmt.Fprintln(tw)
	for _, c := range r.Classes {
		for _, q := range c.Queries {
			if len(q.Totals) == 0 {
				continue
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d", c.Name, q.Text, optional(float64(q.Region), "%.0f"), optional(float64(q.Page), "%.0f"), q.Hits)
			for _, s := range stores {
				n, ok := q.Totals[s]
				fmt.Fprint(tw, "\t", map[bool]string{true: strconv.Itoa(n), false: "-"}[ok])
			}
			fmt.Fprintln(tw)
		}
	}
	tw.Flush()
}

// medianTotal returns the median of the totals a store gave the queries
// of a class.
func medianTotal(c classResult, store string) string {
	var totals []int
	for _, q := range c.Queries {
		if n, ok := q.Totals[store]; ok {
			totals = append(totals, n)
		}
	}
	if len(totals) == 0 {
		return "-"
	}
	slices.Sort(totals)
	return strconv.Itoa(totals[len(totals)/2])
}

// optional formats x, or a dash for 0.
func optional(x float64, format string) string {
	if x == 0 {
		return "-"
	}
	return fmt.Sprintf(format, x)
}

// mib formats bytes in MiB, or a dash for 0.
func mib(n int64) string {
	if n == 0 {
		return "-"
	}
	return fmt.Sprintf("%.0f MiB", float64(n)/(1<<20))
}

// writeJSON writes the figures to a file.
func (r *result) writeJSON(path string) error { return writeFigures(path, r) }

// writeFigures writes a report's figures to a file, as indented JSON.
func writeFigures(path string, report any) error {
	b, err := json.MarshalIndent(report, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("write the figures: %w", err)
	}
	return nil
}
