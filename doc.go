package tenderbase

import "time"

// Doc is one file of procurement documentation: an attachment of a notice,
// with the tender it belongs to and, when the file itself was imported, its
// extracted text.
type Doc struct {
	ID             string    `json:"id"`
	PurchaseNumber string    `json:"purchase_number"`
	TenderTitle    string    `json:"tender_title,omitempty"`
	Customer       Party     `json:"customer,omitzero"`
	Region         int       `json:"region,omitempty"`
	FileName       string    `json:"file_name"`
	Description    string    `json:"description,omitempty"`
	URL            string    `json:"url,omitempty"`
	Size           int64     `json:"size,omitempty"`
	Text           string    `json:"text,omitempty"`
	PublishedAt    time.Time `json:"published_at,omitzero"`
}

func (d *Doc) Kind() Kind      { return KindDoc }
func (d *Doc) Key() string     { return d.ID }
func (d *Doc) Revision() int   { return 0 }
func (d *Doc) Date() time.Time { return d.PublishedAt }

// SearchText returns the file's name, description and text, and the tender
// it documents.
func (d *Doc) SearchText() []Text {
	return texts(
		"file_name", d.FileName, "description", d.Description, "text", d.Text,
		"purchase_number", d.PurchaseNumber, "tender_title", d.TenderTitle, "customer", d.Customer.Name,
	)
}

// Flags returns the region flag.
func (d *Doc) Flags() []string {
	if d.Region > 0 {
		return []string{RegionFlag(d.Region)}
	}
	return nil
}

// Lookups returns the purchase number.
func (d *Doc) Lookups() []Lookup {
	return lookups(LookupPurchaseNumber, d.PurchaseNumber, LookupCustomerINN, d.Customer.INN)
}

// Merge keeps the text extracted from the file when d, just come, carries
// none: a later version of the notice names the same file (the same doc)
// without its text, which was read from the file itself, downloaded or
// imported beside the notice. A doc that names another file (another
// address) drops the text of the old one.
func (d *Doc) Merge(stored Record) Record {
	old, ok := stored.(*Doc)
	if !ok || d.Text != "" || old.Text == "" || d.URL != old.URL {
		return d
	}
	m := *d
	m.Text = old.Text
	return &m
}
