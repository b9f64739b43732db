package tools

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"github.com/tenderbase/tenderbase"
)

// outcome is what is known of a tender besides its notice: its protocols and
// its events, each newest first. They are records of their own, stored in
// whatever order they arrived, and applied only when the tender is read.
type outcome struct {
	protocols []*tenderbase.Protocol
	events    []*tenderbase.TenderEvent
}

// known reports whether any protocol or event names the tender.
func (o outcome) known() bool { return len(o.protocols)+len(o.events) > 0 }

// outcomeOf returns the protocols and events of the tender with the purchase
// number.
func (s *Set) outcomeOf(ctx context.Context, number string) (outcome, error) {
	var o outcome
	var err error
	if o.protocols, err = listOf[*tenderbase.Protocol](ctx, s, tenderbase.KindProtocol, number); err != nil {
		return o, err
	}
	o.events, err = listOf[*tenderbase.TenderEvent](ctx, s, tenderbase.KindTenderEvent, number)
	return o, err
}

// listOf returns the records of kind k with the purchase number, newest
// first. Records published at the same moment are ordered by key rather
// than by arrival, so that the order of import never changes an answer.
func listOf[R tenderbase.Record](ctx context.Context, s *Set, k tenderbase.Kind, number string) ([]R, error) {
	var out []R
	var bad tenderbase.Record
	_, _, err := s.scan(ctx, lookup(k, tenderbase.LookupPurchaseNumber, number, 0), func(r tenderbase.Record) {
		if v, ok := r.(R); ok {
			out = append(out, v)
		} else {
			bad = r
		}
	})
	if err != nil {
		return nil, err
	}
	if bad != nil {
		return nil, fmt.Errorf("%s of tender %s is a %T", k, number, bad)
	}
	slices.SortStableFunc(out, func(a, b R) int {
		return cmp.Or(b.Date().Compare(a.Date()), cmp.Compare(b.Key(), a.Key()))
	})
	return out, nil
}

// byLot returns the newest protocol of each lot, in the order of lot
// numbers. A tender's protocols without a lot number are one lot.
func byLot(protocols []*tenderbase.Protocol, keep func(*tenderbase.Protocol) bool) []*tenderbase.Protocol {
	var out []*tenderbase.Protocol
	seen := map[int]bool{}
	for _, p := range protocols {
		if !seen[p.LotNumber] && keep(p) {
			seen[p.LotNumber] = true
			out = append(out, p)
		}
	}
	slices.SortStableFunc(out, func(a, b *tenderbase.Protocol) int { return cmp.Compare(a.LotNumber, b.LotNumber) })
	return out
}

// protocolWinners returns the winners of the newest protocol of each lot
// that names any, or nil when no protocol names one.
func protocolWinners(protocols []*tenderbase.Protocol) []tenderbase.Participant {
	var out []tenderbase.Participant
	for _, p := range byLot(protocols, namesWinner) {
		out = append(out, p.Winners()...)
	}
	return out
}

func namesWinner(p *tenderbase.Protocol) bool { return len(p.Winners()) > 0 }

func everyProtocol(*tenderbase.Protocol) bool { return true }
