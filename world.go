package tenderbase

import "time"

// WorldTender is a procurement notice from outside Russia: TED, eForms or an
// OCDS publisher.
type WorldTender struct {
	ID          string    `json:"id"` // source-qualified, e.g. "ted:2024/S 123-456789"
	Source      string    `json:"source"`
	Country     int       `json:"country"` // ISO 3166 numeric
	Title       string    `json:"title"`
	Description string    `json:"description,omitempty"`
	Buyer       Party     `json:"buyer"`
	Value       float64   `json:"value,omitempty"`
	Currency    string    `json:"currency,omitempty"`
	CPVCodes    []string  `json:"cpv_codes,omitempty"`
	PublishedAt time.Time `json:"published_at,omitzero"`
	Deadline    time.Time `json:"deadline,omitzero"`
	Language    string    `json:"language,omitempty"`
	URL         string    `json:"url,omitempty"`
}

func (w *WorldTender) Kind() Kind      { return KindWorldTender }
func (w *WorldTender) Key() string     { return w.ID }
func (w *WorldTender) Revision() int   { return 0 }
func (w *WorldTender) Date() time.Time { return w.PublishedAt }

// SearchText returns the title, description, buyer and CPV codes.
func (w *WorldTender) SearchText() []Text {
	ts := texts("title", w.Title, "description", w.Description, "buyer", w.Buyer.Name)
	for _, c := range w.CPVCodes {
		ts = append(ts, texts("cpv_codes", c)...)
	}
	return ts
}

// Flags returns the country flag.
func (w *WorldTender) Flags() []string {
	if w.Country > 0 {
		return []string{CountryFlag(w.Country)}
	}
	return nil
}

// Lookups returns nothing: world tenders are found by id or by search.
func (w *WorldTender) Lookups() []Lookup { return nil }
