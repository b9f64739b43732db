package tenderbase

import (
	"strings"
	"time"
)

// Protocol is a protocol of a procurement commission: who applied, who was
// admitted, the offers, and the winner, of one tender (or one of its lots).
// Protocols are records of their own rather than versions of the tender:
// they arrive in any order, before or after the notice, and each is true of
// its own stage.
type Protocol struct {
	ID             string        `json:"id"` // the EIS document id
	PurchaseNumber string        `json:"purchase_number"`
	Law            string        `json:"law,omitempty"`
	Type           string        `json:"type"` // the EIS document, e.g. "fcsProtocolEF3", "purchaseProtocolZK"
	Number         string        `json:"number,omitempty"`
	Version        int           `json:"version,omitempty"`
	LotNumber      int           `json:"lot_number,omitempty"`
	ProtocolDate   time.Time     `json:"protocol_date,omitzero"`
	PublishedAt    time.Time     `json:"published_at"`
	Participants   []Participant `json:"participants,omitempty"`
	// Failed says the procurement did not take place at this stage (no
	// application, a single one, all rejected); Reason says why, as given.
	Failed      bool         `json:"failed,omitempty"`
	Reason      string       `json:"reason,omitempty"`
	Customer    Party        `json:"customer,omitzero"`
	Attachments []Attachment `json:"attachments,omitempty"`
	URL         string       `json:"url,omitempty"`
}

func (p *Protocol) Kind() Kind      { return KindProtocol }
func (p *Protocol) Key() string     { return p.ID }
func (p *Protocol) Revision() int   { return p.Version }
func (p *Protocol) Date() time.Time { return p.PublishedAt }

// SearchText returns nil: protocols are found through their tender.
func (p *Protocol) SearchText() []Text { return nil }

// Flags returns nil.
func (p *Protocol) Flags() []string { return nil }

// Lookups returns the purchase number and the INN of every participant,
// leaving out a placeholder INN, which names nobody.
func (p *Protocol) Lookups() []Lookup {
	ls := lookups(LookupPurchaseNumber, p.PurchaseNumber)
	for _, part := range p.Participants {
		if !IsPlaceholderINN(part.INN) {
			ls = append(ls, lookups(LookupSupplierINN, part.INN)...)
		}
	}
	return ls
}

// IsPlaceholderINN reports whether inn is the INN of zeros (0000000000)
// that the EIS publishes for a participant it masks ("Участник 1"): a
// placeholder, not a party, so it is neither stored nor found as an INN.
func IsPlaceholderINN(inn string) bool {
	return inn != "" && strings.Trim(inn, "0") == ""
}

// Winners returns the participants the protocol names as winners: those
// marked so, or else those ranked first.
func (p *Protocol) Winners() []Participant {
	var winners, first []Participant
	for _, part := range p.Participants {
		switch {
		case part.Winner:
			winners = append(winners, part)
		case part.Rank == 1:
			first = append(first, part)
		}
	}
	if len(winners) > 0 {
		return winners
	}
	return first
}

// Tender events: documents that change a published notice without
// restating it.
const (
	EventDateChange          = "date_change"          // new dates of the procedure
	EventCancellation        = "cancellation"         // the notice is cancelled
	EventCancellationFailure = "cancellation_failure" // a cancellation is itself cancelled
	EventLotCancellation     = "lot_cancellation"     // one lot is cancelled
	EventNoApplications      = "no_applications"      // no application came: the tender failed
	EventDateChangeCancel    = "date_change_cancel"   // a date change is itself cancelled
	EventLotChange           = "lot_change"           // one lot is restated
	EventOrgChange           = "org_change"           // another organization conducts the purchase
	// A protocol is cancelled (by a court or a control body): the tender's
	// state and winners no longer rest on it. ProtocolNumber names it.
	EventProtocolCancellation = "protocol_cancellation"
)

// TenderEvent is a document that changes a tender without restating its
// notice: a date change, a cancellation, a change of one lot. Like
// protocols, events are records of their own, so that they apply whatever
// order they arrive in: a tender's state is its latest notice with its
// events applied.
type TenderEvent struct {
	ID             string    `json:"id"` // the EIS document id
	PurchaseNumber string    `json:"purchase_number"`
	Law            string    `json:"law,omitempty"`
	Type           string    `json:"type"`     // one of the Event constants
	Document       string    `json:"document"` // the EIS document, e.g. "fcsNotificationCancel"
	LotNumber      int       `json:"lot_number,omitempty"`
	PublishedAt    time.Time `json:"published_at"`
	Reason         string    `json:"reason,omitempty"`
	// ProtocolNumber is the number (not the document id) of the protocol a
	// protocol cancellation cancels: the number is all the EIS gives of it.
	ProtocolNumber string `json:"protocol_number,omitempty"`
	// The new dates of a date change; zero where unchanged.
	ApplicationsDeadline time.Time `json:"applications_deadline,omitzero"`
	BiddingDate          time.Time `json:"bidding_date,omitzero"`
	// Changes is what a change says it changes, in its own words; Org is
	// the organization that conducts the purchase after an org change.
	Changes string `json:"changes,omitempty"`
	Org     Party  `json:"org,omitzero"`
	URL     string `json:"url,omitempty"`
}

func (e *TenderEvent) Kind() Kind      { return KindTenderEvent }
func (e *TenderEvent) Key() string     { return e.ID }
func (e *TenderEvent) Revision() int   { return 0 }
func (e *TenderEvent) Date() time.Time { return e.PublishedAt }

// SearchText returns nil: events are found through their tender.
func (e *TenderEvent) SearchText() []Text { return nil }

// Flags returns nil.
func (e *TenderEvent) Flags() []string { return nil }

// Lookups returns the purchase number.
func (e *TenderEvent) Lookups() []Lookup {
	return lookups(LookupPurchaseNumber, e.PurchaseNumber)
}
