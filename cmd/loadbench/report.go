package main

import (
	"fmt"
	"io"
	"net/url"
	"slices"
	"text/tabwriter"
	"time"
)

// print writes the report: the set-up, a line a phase, the medians of the
// rounds, a line a class and phase, the 5xx and how the server stopped.
func (r *result) print(w io.Writer) {
	c := r.cfg
	hostile := c.hostileWorkers()
	fmt.Fprintf(w, "store %s: %d tenders, %d complaints\n", storeName(c.DB), r.tenders, r.claims)
	fmt.Fprintf(w, "%d clients: %d normal, %d more hostile in the hostile phases; %d rounds of %s baseline then %s hostile\n\n",
		c.Clients, c.Clients-hostile, hostile, c.Rounds, c.Duration/time.Duration(c.Rounds), c.Duration/time.Duration(c.Rounds))
	r.printPhases(w)
	fmt.Fprintln(w)
	r.printClasses(w)
	fmt.Fprintf(w, "\n5xx: %d seen by the clients, %d answered by the server (to clients that had gone too)\n",
		r.serverErrors(), r.answered5xx())
	switch {
	case r.outage != nil:
		r.outage.print(w, r.phases[len(r.phases)-1])
	case !isPostgres(c.DB):
		fmt.Fprintln(w, "outage: none: the outage phase cuts a PostgreSQL store's database off")
	}
	if r.stopErr != nil {
		fmt.Fprintf(w, "server stop: %v after %s\n", r.stopErr, r.stopIn.Round(100*time.Millisecond))
	} else {
		fmt.Fprintf(w, "server stopped in %s\n", r.stopIn.Round(100*time.Millisecond))
	}
}

// storeName names the store without a password.
func storeName(db string) string {
	if u, err := url.Parse(db); err == nil && u.Scheme != "" {
		return u.Redacted()
	}
	return db
}

func (r *result) printPhases(w io.Writer) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "round\tphase\tnormal answered\treq/s\tp50 ms\tp90 ms\tp99 ms\thostile sent\t5xx seen\t5xx answered\tidle after s\t")
	p99 := map[string][]float64{}
	for _, p := range r.phases {
		fmt.Fprintf(tw, "%d\t%s\t%d\t%.0f\t%.1f\t%.1f\t%.1f\t%d\t%d\t%d\t%.1f\t\n", p.round, p.name, len(p.latency),
			float64(len(p.latency))/p.length.Seconds(), ms(percentile(p.latency, 50)), ms(percentile(p.latency, 90)),
			ms(percentile(p.latency, 99)), p.hostileSent, p.serverErrors(), p.answered5xx, p.settle.Seconds())
		p99[p.name] = append(p99[p.name], ms(percentile(p.latency, 99)))
	}
	tw.Flush()
	base, host := median(p99["baseline"]), median(p99["hostile"])
	fmt.Fprintf(w, "median p99 of the normal requests: baseline %.1f ms, hostile %.1f ms, ratio %.2f\n", base, host, host/base)
}

func (r *result) printClasses(w io.Writer) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "class\tphase\trequests\t2xx-3xx\t503 retry\t4xx\t5xx\ttimeouts\tfailed\thung up\t")
	for _, class := range r.classes {
		for _, name := range []string{"baseline", "hostile", "outage"} {
			t := r.total(name, class)
			if t.requests == 0 {
				continue
			}
			fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t\n", class, name,
				t.requests, t.ok, t.unavailable, t.client, t.server, t.timeouts, t.failed, t.hungUp)
		}
	}
	tw.Flush()
}

// total sums the tallies of class in the phases called name.
func (r *result) total(name, class string) tally {
	var sum tally
	for _, p := range r.phases {
		if t := p.tallies[class]; p.name == name && t != nil {
			sum.merge(t)
		}
	}
	return sum
}

// serverErrors counts the 5xx of every phase.
func (r *result) serverErrors() int {
	n := 0
	for _, p := range r.phases {
		n += p.serverErrors()
	}
	return n
}

// answered5xx counts the 5xx the server answered in every phase.
func (r *result) answered5xx() int {
	n := 0
	for _, p := range r.phases {
		n += p.answered5xx
	}
	return n
}

// serverErrors counts the 5xx of p; a 503 with Retry-After is one but in
// the outage phase, which expects them.
func (p phase) serverErrors() int {
	n := 0
	for _, t := range p.tallies {
		n += t.server
		if p.name != "outage" {
			n += t.unavailable
		}
	}
	return n
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	xs = slices.Clone(xs)
	slices.Sort(xs)
	return xs[len(xs)/2]
}
