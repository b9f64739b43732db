package storetest

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/demo"
)

// testRivalryReference checks that the rivalry of every participant of
// the demo's protocols agrees exactly with a slow reference computed from
// the protocols and contracts the searches return.
func testRivalryReference(t *testing.T, open func(t *testing.T) tenderbase.Store) {
	st := openStore(t, open)
	recs, err := demo.Records()
	if err != nil {
		t.Fatal(err)
	}
	put(t, st, recs...)
	if n := CheckRivalry(t, st); n < 5 {
		t.Fatalf("the demo's protocols name %d participants", n)
	}
}

// CheckRivalry checks the rivalry of every participant of the protocols
// st holds against the reference counted from its records, and returns
// the number of participants checked.
func CheckRivalry(t *testing.T, st tenderbase.Store) int {
	t.Helper()
	rv, ok := st.(tenderbase.Rivals)
	if !ok {
		t.Fatalf("%T is no tenderbase.Rivals", st)
	}
	ref, err := referenceOf(context.Background(), st)
	if err != nil {
		t.Fatal(err)
	}
	inns := map[string]bool{}
	for _, ps := range ref.protocols {
		for _, p := range ps {
			for _, b := range tenderbase.BidsOf(p) {
				inns[b.INN] = true
			}
		}
	}
	checked := 0
	for inn := range inns {
		for _, top := range []int{0, 2} {
			p := tenderbase.Profiling{INN: inn, Role: tenderbase.RoleSupplier, Top: top}
			want := ref.rivalry(p)
			got, err := rv.Rivalry(context.Background(), p)
			if err != nil {
				t.Fatalf("Rivalry of %s: %v", inn, err)
			}
			if diff := gocmp.Diff(want, got, cmpopts.IgnoreFields(tenderbase.Rivalry{}, "Generation"), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("Rivalry of %s, top %d, differs from the reference (-want +got):\n%s", inn, top, diff)
			}
			checked += want.Procedures
		}
	}
	if checked == 0 {
		t.Fatal("no procedure checked")
	}
	return len(inns)
}

// rivalry works p (a supplier's, without a period) out from the current
// protocols and contracts, by the rules of tenderbase.Rivalry written out
// plainly: every protocol's participants by INN, a procedure a lot of a
// purchase.
func (ref *reference) rivalry(p tenderbase.Profiling) tenderbase.Rivalry {
	type procedure struct {
		purchase string
		lot      int
	}
	bids := map[procedure]map[string]bool{} // INN: won
	names := map[string]map[string]int{}
	for _, ps := range ref.protocols {
		for _, pr := range ps {
			for _, b := range tenderbase.BidsOf(pr) {
				k := procedure{b.Purchase, b.Lot}
				if bids[k] == nil {
					bids[k] = map[string]bool{}
				}
				bids[k][b.INN] = bids[k][b.INN] || b.Won
				if b.Name != "" {
					if names[b.INN] == nil {
						names[b.INN] = map[string]int{}
					}
					names[b.INN][b.Name]++
				}
			}
		}
	}
	out := tenderbase.Rivalry{INN: p.INN, Name: refNameOf(names[p.INN]), Statuses: ref.statuses(p.INN)}
	rivals := map[string]*tenderbase.Rival{}
	for _, who := range bids {
		won, ok := who[p.INN]
		if !ok {
			continue
		}
		out.Procedures++
		lost := false
		for inn, w := range who {
			if inn == p.INN {
				continue
			}
			r := rivals[inn]
			if r == nil {
				r = &tenderbase.Rival{INN: inn, Name: refNameOf(names[inn])}
				rivals[inn] = r
			}
			r.Met++
			if w {
				r.Won++
				lost = true
				if !won {
					r.WonOver++
				}
			}
		}
		switch {
		case won:
			out.Won++
		case lost:
			out.Lost++
		}
	}
	var all, winners []tenderbase.Rival
	for _, r := range rivals {
		all = append(all, *r)
		if r.WonOver > 0 {
			winners = append(winners, *r)
		}
	}
	slices.SortFunc(all, func(a, b tenderbase.Rival) int {
		return cmp.Or(-cmp.Compare(a.Met, b.Met), -cmp.Compare(a.Won, b.Won), strings.Compare(a.INN, b.INN))
	})
	slices.SortFunc(winners, func(a, b tenderbase.Rival) int {
		return cmp.Or(-cmp.Compare(a.WonOver, b.WonOver), -cmp.Compare(a.Met, b.Met), strings.Compare(a.INN, b.INN))
	})
	n := p.Size()
	out.Rivals, out.MoreRivals = all[:min(n, len(all))], max(len(all)-n, 0)
	out.Winners, out.MoreWinners = winners[:min(n, len(winners))], max(len(winners)-n, 0)
	return out
}

// statuses counts the current contracts of which inn is any supplier by
// status, the most first.
func (ref *reference) statuses(inn string) []tenderbase.StatusCount {
	counts := map[string]int{}
	for _, cs := range ref.contracts {
		for _, c := range cs {
			if slices.ContainsFunc(c.Suppliers, func(s tenderbase.Party) bool { return s.INN == inn }) {
				counts[cmp.Or(c.Status, tenderbase.ContractExecuting)]++
			}
		}
	}
	out := []tenderbase.StatusCount{}
	for s, n := range counts {
		out = append(out, tenderbase.StatusCount{Status: s, Count: n})
	}
	slices.SortFunc(out, func(a, b tenderbase.StatusCount) int {
		return cmp.Or(-cmp.Compare(a.Count, b.Count), strings.Compare(a.Status, b.Status))
	})
	return out
}

// refNameOf returns the name most often given, the shortest and then the
// first in order on a tie.
func refNameOf(names map[string]int) string {
	best, n := "", 0
	for name, c := range names {
		if c > n || c == n && (len(name) < len(best) || len(name) == len(best) && name < best) {
			best, n = name, c
		}
	}
	return best
}
