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
	stored    []*tenderbase.Protocol // every protocol, cancelled or not, its participants identified
	protocols []*tenderbase.Protocol // those in force: no protocol cancellation names them
	events    []*tenderbase.TenderEvent
}

// known reports whether any protocol or event names the tender.
func (o outcome) known() bool { return len(o.stored)+len(o.events) > 0 }

// outcomeOf returns the protocols and events of the tender with the purchase
// number.
func (s *Set) outcomeOf(ctx context.Context, number string) (outcome, error) {
	var o outcome
	var err error
	if o.stored, err = listOf[*tenderbase.Protocol](ctx, s, tenderbase.KindProtocol, number); err != nil {
		return o, err
	}
	o.stored = identify(o.stored)
	if o.events, err = listOf[*tenderbase.TenderEvent](ctx, s, tenderbase.KindTenderEvent, number); err != nil {
		return o, err
	}
	o.protocols = tenderbase.ProtocolsInForce(o.stored, o.events)
	return o, nil
}

// application is a participant's application to one lot of a tender: its
// journal number is unique within the lot.
type application struct {
	lot     int
	journal string
}

// identify returns the protocols (newest first) with what each participant
// named by its journal number lacks (INN, name and the rest of the party,
// its offer) taken from the participants with the same journal number in
// the protocols of the same lot: the summary of an auction names who and
// their places, its auction protocol their offers by journal number alone.
// The newest protocol that gives a field gives it, so the answer does not
// depend on the order of import. The protocols are copied where they
// change, never written through.
func identify(protocols []*tenderbase.Protocol) []*tenderbase.Protocol {
	known := map[application]tenderbase.Participant{}
	for _, p := range protocols {
		for _, part := range p.Participants {
			if k := (application{p.LotNumber, part.JournalNumber}); part.JournalNumber != "" {
				known[k] = completed(known[k], part)
			}
		}
	}
	out := make([]*tenderbase.Protocol, len(protocols))
	for i, p := range protocols {
		out[i] = p
		for j, part := range p.Participants {
			filled := completed(part, known[application{p.LotNumber, part.JournalNumber}])
			if part.JournalNumber == "" || filled == part {
				continue
			}
			if out[i] == p {
				c := *p
				c.Participants = slices.Clone(p.Participants)
				out[i] = &c
			}
			out[i].Participants[j] = filled
		}
	}
	return out
}

// completed returns part with its empty party fields and its missing offer
// taken from other, the same application as another protocol names it.
// Places and winners are each protocol's own and stay as they are.
func completed(part, other tenderbase.Participant) tenderbase.Participant {
	part.Party = part.Party.FillFrom(other.Party)
	part.Price = cmp.Or(part.Price, other.Price)
	return part
}

// listOf returns the records of kind k with the purchase number, newest
// first, as listBy orders them.
func listOf[R tenderbase.Record](ctx context.Context, s *Set, k tenderbase.Kind, number string) ([]R, error) {
	return listBy[R](ctx, s, k, tenderbase.LookupPurchaseNumber, number)
}

// protocolWinners returns the winners of the newest protocol of each lot
// that names any, or nil when no protocol names one.
func protocolWinners(protocols []*tenderbase.Protocol) []tenderbase.Participant {
	var out []tenderbase.Participant
	for _, p := range tenderbase.NewestByLot(protocols, namesWinner) {
		out = append(out, p.Winners()...)
	}
	return out
}

func namesWinner(p *tenderbase.Protocol) bool { return len(p.Winners()) > 0 }
