package tools

import (
	"cmp"
	"context"
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
// first, as listBy orders them.
func listOf[R tenderbase.Record](ctx context.Context, s *Set, k tenderbase.Kind, number string) ([]R, error) {
	return listBy[R](ctx, s, k, tenderbase.LookupPurchaseNumber, number)
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
