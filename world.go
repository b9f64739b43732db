package tenderbase

import (
	"slices"
	"time"
)

// WorldTender is a procurement notice from outside Russia: TED, eForms or an
// OCDS publisher. Texts are kept in the notice's own language.
type WorldTender struct {
	ID            string       `json:"id"`      // source-qualified, e.g. "ted:352444-2021"
	Source        string       `json:"source"`  // ted, eforms, ocds
	Country       int          `json:"country"` // ISO 3166 numeric
	Title         string       `json:"title"`
	Description   string       `json:"description,omitempty"`
	Buyer         Party        `json:"buyer"` // RegNum holds the buyer's national id where published
	Value         float64      `json:"value,omitempty"`
	Currency      string       `json:"currency,omitempty"`
	CPVCodes      []string     `json:"cpv_codes,omitempty"`
	PublishedAt   time.Time    `json:"published_at,omitzero"`
	Deadline      time.Time    `json:"deadline,omitzero"`  // for tenders or requests to participate
	Language      string       `json:"language,omitempty"` // ISO 639-1, lower case
	URL           string       `json:"url,omitempty"`
	NoticeType    string       `json:"notice_type,omitempty"`    // as published, e.g. "Contract notice", "cn-standard", "tender"
	ProcedureType string       `json:"procedure_type,omitempty"` // as published, e.g. "Open procedure", "open"
	ContractType  string       `json:"contract_type,omitempty"`  // works, supplies, services
	Lots          []WorldLot   `json:"lots,omitempty"`
	Documents     []Attachment `json:"documents,omitempty"` // where the procurement documents are
	Updated       time.Time    `json:"updated,omitzero"`    // the date of the newest release merged (OCDS)
}

// WorldLot is a lot of a world tender.
type WorldLot struct {
	ID          string   `json:"id,omitempty"`
	Title       string   `json:"title,omitempty"`
	Description string   `json:"description,omitempty"`
	CPVCodes    []string `json:"cpv_codes,omitempty"`
	Value       float64  `json:"value,omitempty"`
	Currency    string   `json:"currency,omitempty"`
}

func (w *WorldTender) Kind() Kind      { return KindWorldTender }
func (w *WorldTender) Key() string     { return w.ID }
func (w *WorldTender) Revision() int   { return 0 }
func (w *WorldTender) Date() time.Time { return w.PublishedAt }

// SearchText returns the title, description, buyer, CPV codes and the lots'
// titles and descriptions.
func (w *WorldTender) SearchText() []Text {
	ts := texts("title", w.Title, "description", w.Description, "buyer", w.Buyer.Name)
	for _, c := range w.CPVCodes {
		ts = append(ts, texts("cpv_codes", c)...)
	}
	for _, l := range w.Lots {
		ts = append(ts, texts("lots", l.Title, "lots", l.Description)...)
	}
	return ts
}

// Flags returns the country flag and the flags of the prefixes of the CPV
// codes of the tender and its lots (LookupCPV).
func (w *WorldTender) Flags() []string {
	var f []string
	if w.Country > 0 {
		f = append(f, CountryFlag(w.Country))
	}
	codes := slices.Clone(w.CPVCodes)
	for _, l := range w.Lots {
		codes = append(codes, l.CPVCodes...)
	}
	return append(f, codeFlags(LookupCPV, codes, CPVPrefixes)...)
}

// Lookups returns none: the tender is found by its CPV codes through its
// flags.
func (w *WorldTender) Lookups() []Lookup { return nil }

// Merge joins w with the stored version of the same notice or process, as
// OCDS merges releases: the newer one (by Updated, else PublishedAt) gives
// every field it has, the older fills those it lacks, and the first
// publication date is kept. So a release of a process imported after a
// later one changes nothing the later one said.
func (w *WorldTender) Merge(stored Record) Record {
	old, ok := stored.(*WorldTender)
	if !ok {
		return w
	}
	newer, older := w, old
	if old.stamp().After(w.stamp()) {
		newer, older = old, w
	}
	m := *newer
	m.fillFrom(older)
	return &m
}

// stamp is the date a version of a world tender speaks as of.
func (w *WorldTender) stamp() time.Time {
	if !w.Updated.IsZero() {
		return w.Updated
	}
	return w.PublishedAt
}

// fillFrom takes from o each field w lacks.
func (w *WorldTender) fillFrom(o *WorldTender) {
	for _, f := range []struct {
		dst *string
		src string
	}{
		{&w.Source, o.Source}, {&w.Title, o.Title}, {&w.Description, o.Description}, {&w.Language, o.Language},
		{&w.URL, o.URL}, {&w.NoticeType, o.NoticeType}, {&w.ProcedureType, o.ProcedureType}, {&w.ContractType, o.ContractType},
	} {
		if *f.dst == "" {
			*f.dst = f.src
		}
	}
	if w.Country == 0 {
		w.Country = o.Country
	}
	if w.Value == 0 {
		w.Value, w.Currency = o.Value, o.Currency
	}
	w.Buyer = w.Buyer.FillFrom(o.Buyer)
	if w.CPVCodes == nil {
		w.CPVCodes = o.CPVCodes
	}
	if w.Lots == nil {
		w.Lots = o.Lots
	}
	if w.Documents == nil {
		w.Documents = o.Documents
	}
	if w.Deadline.IsZero() {
		w.Deadline = o.Deadline
	}
	if w.PublishedAt.IsZero() || (!o.PublishedAt.IsZero() && o.PublishedAt.Before(w.PublishedAt)) {
		w.PublishedAt = o.PublishedAt
	}
	if o.Updated.After(w.Updated) {
		w.Updated = o.Updated
	}
}
