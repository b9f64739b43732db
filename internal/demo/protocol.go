package demo

import (
	"hash/fnv"
	"slices"
	"strconv"

	"github.com/tenderbase/tenderbase"
)

// Reasons the demo's failed tenders give, as protocols word them.
const noApplications = "По окончании срока подачи заявок не подано ни одной заявки"

// outcomes returns the protocols and events of the purchases: a final
// protocol for every tender that was settled, with the participants its
// latest version names, and an event for every cancellation. They are
// derived from the purchases without drawing random numbers, so the rest of
// the dataset stays as it was.
func (b *builder) outcomes() []tenderbase.Record {
	var recs []tenderbase.Record
	for _, p := range b.purchases {
		t := p.latest()
		switch t.Status {
		case tenderbase.TenderCompleted, tenderbase.TenderFailed:
			recs = append(recs, finalProtocol(t))
		case tenderbase.TenderCancelled:
			recs = append(recs, cancellation(t))
		}
	}
	return recs
}

// finalProtocol is the protocol that settled t, published the day after the
// bidding.
func finalProtocol(t *tenderbase.Tender) *tenderbase.Protocol {
	p := &tenderbase.Protocol{
		ID:             documentID(t.PurchaseNumber, "protocol"),
		PurchaseNumber: t.PurchaseNumber,
		Law:            t.Law,
		Type:           protocolType(t.Law),
		Number:         t.PurchaseNumber + "-1",
		Version:        1,
		ProtocolDate:   t.BiddingDate,
		PublishedAt:    t.BiddingDate.AddDate(0, 0, 1),
		Participants:   slices.Clone(t.Participants),
		Customer:       t.Customer,
	}
	if t.Status == tenderbase.TenderFailed {
		p.Failed, p.Reason = true, noApplications
	}
	return p
}

func protocolType(law string) string {
	if law == tenderbase.Law223 {
		return "purchaseProtocolSummingup"
	}
	return "epProtocolEF2020Final"
}

// cancellation is the event of the cancelling version t.
func cancellation(t *tenderbase.Tender) *tenderbase.TenderEvent {
	e := &tenderbase.TenderEvent{
		PurchaseNumber: t.PurchaseNumber,
		Law:            t.Law,
		Type:           tenderbase.EventCancellation,
		Document:       "epNotificationCancel",
		PublishedAt:    t.PublishedAt,
	}
	if t.Law == tenderbase.Law223 {
		e.Document = "purchaseRejection"
	}
	e.ID = e.Document + "-" + documentID(t.PurchaseNumber, "cancel")
	if t.Change != nil {
		e.Reason = t.Change.Reason
	}
	return e
}

// documentID returns a stable eight-digit document id for a document of a
// purchase, as the EIS numbers its documents.
func documentID(purchaseNumber, what string) string {
	h := fnv.New32a()
	h.Write([]byte(purchaseNumber + "/" + what))
	return strconv.Itoa(30_000_000 + int(h.Sum32()%10_000_000))
}
