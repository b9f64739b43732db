package tenderbase

import (
	"slices"
	"time"
)

// Sources of lots.
const (
	LotSourceTorgi     = "torgi.gov.ru"
	LotSourceFedresurs = "fedresurs"
)

// Lot is a lot of an auction of state or bankruptcy property ("torgi"):
// a lot card or notice of torgi.gov.ru, or a lot of a bankruptcy auction
// announced on fedresurs. Its Status is one of the tender states (active,
// completed, failed, cancelled); SourceStatus keeps the publisher's word.
type Lot struct {
	ID           string `json:"id"`
	Source       string `json:"source,omitempty"` // LotSourceTorgi, LotSourceFedresurs
	NoticeNumber string `json:"notice_number,omitempty"`
	LotNumber    int    `json:"lot_number,omitempty"`
	Title        string `json:"title"`
	Description  string `json:"description,omitempty"`
	Category     string `json:"category,omitempty"`
	CategoryCode string `json:"category_code,omitempty"`
	BiddingType  string `json:"bidding_type,omitempty"` // e.g. "178FZ", "229FZ", "bankruptcy"
	BiddingForm  string `json:"bidding_form,omitempty"`
	Status       string `json:"status,omitempty"`
	SourceStatus string `json:"source_status,omitempty"` // e.g. APPLICATIONS_SUBMISSION, TradeFailed
	// Suspended is set while the procedure of an active lot is suspended
	// (torgi.gov.ru's noticeStop, or a card's isStopped), until resumed.
	Suspended  bool    `json:"suspended,omitempty"`
	Region     int     `json:"region,omitempty"`
	Address    string  `json:"address,omitempty"` // where the property is
	StartPrice float64 `json:"start_price,omitempty"`
	Deposit    float64 `json:"deposit,omitempty"`
	PriceStep  float64 `json:"price_step,omitempty"`
	Currency   string  `json:"currency,omitempty"`
	// PriceReduction is the schedule of a public offer's price reductions,
	// as published.
	PriceReduction string `json:"price_reduction,omitempty"`
	Organizer      Party  `json:"organizer,omitzero"`
	// Holder is the right holder of state property (torgi.gov.ru), when
	// another than the organizer.
	Holder Party `json:"holder,omitzero"`
	Debtor Party `json:"debtor,omitzero"` // bankruptcy trades
	// Manager is the arbitration manager who announced a bankruptcy trade.
	Manager     Party  `json:"manager,omitzero"`
	CaseNumber  string `json:"case_number,omitempty"` // the bankruptcy case
	Platform    string `json:"platform,omitempty"`    // the electronic platform
	TradeNumber string `json:"trade_number,omitempty"`
	// Properties are the characteristics of what is sold, as the card lists
	// them (cadastral number, area, VIN...).
	Properties   []LotProperty `json:"properties,omitempty"`
	Attachments  []Attachment  `json:"attachments,omitempty"`
	Result       *LotResult    `json:"result,omitempty"`
	PublishedAt  time.Time     `json:"published_at,omitzero"`
	BiddingStart time.Time     `json:"bidding_start,omitzero"`
	BiddingEnd   time.Time     `json:"bidding_end,omitzero"`
	AuctionDate  time.Time     `json:"auction_date,omitzero"`
	// Updated is when the latest document merged into the lot was
	// published: a change, a result or a cancellation.
	Updated time.Time `json:"updated,omitzero"`
	// TermsAt is when the announcement or change that set the lot's terms
	// (form, platform, prices, dates) was published, where the publisher
	// tells them apart from its results: a change published before a result
	// that came first still sets the terms.
	TermsAt time.Time `json:"terms_at,omitzero"`
	URL     string    `json:"url,omitempty"`
}

// LotProperty is one characteristic of a lot.
type LotProperty struct {
	Code  string `json:"code,omitempty"`
	Name  string `json:"name"`
	Value string `json:"value"`
	Unit  string `json:"unit,omitempty"`
}

// LotResult is how a lot's trade ended.
type LotResult struct {
	// Outcome is "sold" (a winner or a buyer), "failed" (no trade took place)
	// or "cancelled".
	Outcome     string    `json:"outcome"`
	Price       float64   `json:"price,omitempty"`
	Winner      Party     `json:"winner,omitzero"`
	Reason      string    `json:"reason,omitempty"`
	PublishedAt time.Time `json:"published_at,omitzero"`
	Document    string    `json:"document,omitempty"` // the kind of document that reported it
	// Message is the publisher's number of the message that reported it,
	// by which a cancellation of that message finds the lot (LotEvent).
	Message string `json:"message,omitempty"`
}

// Outcomes of a lot's trade.
const (
	LotSold      = "sold"
	LotFailed    = "failed"
	LotCancelled = "cancelled"
)

func (l *Lot) Kind() Kind      { return KindLot }
func (l *Lot) Key() string     { return l.ID }
func (l *Lot) Revision() int   { return 0 }
func (l *Lot) Date() time.Time { return l.PublishedAt }

// SearchText returns the lot's title, description, category, address and
// parties.
func (l *Lot) SearchText() []Text {
	return texts(
		"notice_number", l.NoticeNumber, "title", l.Title, "description", l.Description, "category", l.Category,
		"address", l.Address, "organizer", l.Organizer.Name, "organizer", l.Organizer.INN,
		"debtor", l.Debtor.Name, "debtor", l.Debtor.INN,
	)
}

// Flags returns the region flag.
func (l *Lot) Flags() []string {
	if l.Region > 0 {
		return []string{RegionFlag(l.Region)}
	}
	return nil
}

// Lookups returns the notice number, the debtor's INN, as organizer the
// INNs of the organizer and of the arbitration manager who announced the
// trade, and the message that reported the result.
func (l *Lot) Lookups() []Lookup {
	ls := lookups(LookupNoticeNumber, l.NoticeNumber, LookupINN, l.Debtor.INN, LookupOrganizerINN, l.Organizer.INN)
	if l.Manager.INN != l.Organizer.INN {
		ls = append(ls, lookups(LookupOrganizerINN, l.Manager.INN)...)
	}
	if l.Result != nil {
		ls = append(ls, lookups(LookupMessage, l.Result.Message)...)
	}
	return ls
}

// Merge unites two documents about one lot: the announcement, its changes,
// the result. Each field comes from the newer document that gives it
// (Updated, then PublishedAt); a result, once reported, stays unless a newer
// document reports another.
func (l *Lot) Merge(stored Record) Record {
	old, ok := stored.(*Lot)
	if !ok {
		return l
	}
	newer, older := l, old
	if old.stamp().After(l.stamp()) {
		newer, older = old, l
	}
	m := *newer
	m.fillFrom(older)
	if older.TermsAt.After(newer.TermsAt) {
		m.termsFrom(older)
	}
	if m.PublishedAt.IsZero() || (!older.PublishedAt.IsZero() && older.PublishedAt.Before(m.PublishedAt)) {
		m.PublishedAt = older.PublishedAt // the first publication dates the lot
	}
	return &m
}

// termsFrom takes from o, whose terms are newer, each term it gives.
func (l *Lot) termsFrom(o *Lot) {
	l.TermsAt = o.TermsAt
	for _, f := range []struct {
		dst *string
		src string
	}{{&l.BiddingForm, o.BiddingForm}, {&l.Platform, o.Platform}, {&l.PriceReduction, o.PriceReduction}, {&l.Currency, o.Currency}} {
		if f.src != "" {
			*f.dst = f.src
		}
	}
	for _, f := range []struct {
		dst *float64
		src float64
	}{{&l.StartPrice, o.StartPrice}, {&l.Deposit, o.Deposit}, {&l.PriceStep, o.PriceStep}} {
		if f.src != 0 {
			*f.dst = f.src
		}
	}
	for _, f := range []struct {
		dst *time.Time
		src time.Time
	}{{&l.BiddingStart, o.BiddingStart}, {&l.BiddingEnd, o.BiddingEnd}, {&l.AuctionDate, o.AuctionDate}} {
		if !f.src.IsZero() {
			*f.dst = f.src
		}
	}
}

// stamp is the date a document about a lot speaks as of.
func (l *Lot) stamp() time.Time {
	if !l.Updated.IsZero() {
		return l.Updated
	}
	return l.PublishedAt
}

// fillFrom takes from o each field l lacks.
func (l *Lot) fillFrom(o *Lot) {
	for _, f := range []struct {
		dst *string
		src string
	}{
		{&l.Source, o.Source}, {&l.NoticeNumber, o.NoticeNumber}, {&l.Title, o.Title}, {&l.Description, o.Description},
		{&l.Category, o.Category}, {&l.CategoryCode, o.CategoryCode}, {&l.BiddingType, o.BiddingType},
		{&l.BiddingForm, o.BiddingForm}, {&l.Status, o.Status}, {&l.SourceStatus, o.SourceStatus}, {&l.Address, o.Address},
		{&l.Currency, o.Currency}, {&l.PriceReduction, o.PriceReduction}, {&l.CaseNumber, o.CaseNumber},
		{&l.Platform, o.Platform}, {&l.TradeNumber, o.TradeNumber}, {&l.URL, o.URL},
	} {
		if *f.dst == "" {
			*f.dst = f.src
		}
	}
	for _, f := range []struct {
		dst *float64
		src float64
	}{{&l.StartPrice, o.StartPrice}, {&l.Deposit, o.Deposit}, {&l.PriceStep, o.PriceStep}} {
		if *f.dst == 0 {
			*f.dst = f.src
		}
	}
	for _, f := range []struct {
		dst *time.Time
		src time.Time
	}{{&l.BiddingStart, o.BiddingStart}, {&l.BiddingEnd, o.BiddingEnd}, {&l.AuctionDate, o.AuctionDate}} {
		if f.dst.IsZero() {
			*f.dst = f.src
		}
	}
	if l.LotNumber == 0 {
		l.LotNumber = o.LotNumber
	}
	if l.Region == 0 {
		l.Region = o.Region
	}
	l.Organizer = l.Organizer.FillFrom(o.Organizer)
	l.Holder = l.Holder.FillFrom(o.Holder)
	l.Debtor = l.Debtor.FillFrom(o.Debtor)
	l.Manager = l.Manager.FillFrom(o.Manager)
	if len(l.Properties) == 0 {
		l.Properties = slices.Clone(o.Properties)
	}
	if len(l.Attachments) == 0 {
		l.Attachments = slices.Clone(o.Attachments)
	}
	if l.Result == nil && o.Result != nil {
		r := *o.Result
		l.Result = &r
	}
}
