package tenderbase

// Party is an organization or a person as a notice, contract or protocol names
// it: a customer, a supplier, a participant, an organizer.
type Party struct {
	INN       string `json:"inn,omitempty"`
	KPP       string `json:"kpp,omitempty"`
	OGRN      string `json:"ogrn,omitempty"`
	RegNum    string `json:"reg_num,omitempty"` // EIS registry number of a customer
	Name      string `json:"name,omitempty"`
	ShortName string `json:"short_name,omitempty"`
	Address   string `json:"address,omitempty"`
}

// Contact is a contact block: who to reach and how.
type Contact struct {
	Person  string `json:"person,omitempty"`
	Email   string `json:"email,omitempty"`
	Phone   string `json:"phone,omitempty"`
	Fax     string `json:"fax,omitempty"`
	Address string `json:"address,omitempty"`
}

// IsZero reports whether the contact block says nothing.
func (c Contact) IsZero() bool { return c == Contact{} }

// Attachment is a file published with a notice, a protocol or a decision.
type Attachment struct {
	FileName    string `json:"file_name,omitempty"`
	Description string `json:"description,omitempty"`
	URL         string `json:"url,omitempty"`
	DocNumber   string `json:"doc_number,omitempty"`
	Size        int64  `json:"size,omitempty"`
}
