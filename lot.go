package tenderbase

import "time"

// Lot is a lot of an auction of state or bankruptcy property ("torgi").
type Lot struct {
	ID           string    `json:"id"`
	Source       string    `json:"source,omitempty"` // "torgi.gov.ru", "fedresurs"
	NoticeNumber string    `json:"notice_number,omitempty"`
	LotNumber    int       `json:"lot_number,omitempty"`
	Title        string    `json:"title"`
	Description  string    `json:"description,omitempty"`
	Category     string    `json:"category,omitempty"`
	BiddingType  string    `json:"bidding_type,omitempty"` // e.g. "178FZ", "229FZ", "bankruptcy"
	BiddingForm  string    `json:"bidding_form,omitempty"`
	Status       string    `json:"status,omitempty"`
	Region       int       `json:"region,omitempty"`
	StartPrice   float64   `json:"start_price,omitempty"`
	Deposit      float64   `json:"deposit,omitempty"`
	PriceStep    float64   `json:"price_step,omitempty"`
	Currency     string    `json:"currency,omitempty"`
	Organizer    Party     `json:"organizer,omitzero"`
	Debtor       Party     `json:"debtor,omitzero"` // bankruptcy trades
	PublishedAt  time.Time `json:"published_at,omitzero"`
	BiddingEnd   time.Time `json:"bidding_end,omitzero"`
	AuctionDate  time.Time `json:"auction_date,omitzero"`
	URL          string    `json:"url,omitempty"`
}

func (l *Lot) Kind() Kind      { return KindLot }
func (l *Lot) Key() string     { return l.ID }
func (l *Lot) Revision() int   { return 0 }
func (l *Lot) Date() time.Time { return l.PublishedAt }

// SearchText returns the lot's title, description, category and parties.
func (l *Lot) SearchText() []Text {
	return texts(
		"notice_number", l.NoticeNumber, "title", l.Title, "description", l.Description, "category", l.Category,
		"organizer", l.Organizer.Name, "debtor", l.Debtor.Name, "debtor", l.Debtor.INN,
	)
}

// Flags returns the region flag.
func (l *Lot) Flags() []string {
	if l.Region > 0 {
		return []string{RegionFlag(l.Region)}
	}
	return nil
}

// Lookups returns the notice number and the debtor's INN.
func (l *Lot) Lookups() []Lookup {
	return lookups(LookupNoticeNumber, l.NoticeNumber, LookupINN, l.Debtor.INN)
}
