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
	// Contact is the contact block a contract or protocol gives for a
	// supplier or participant.
	Contact Contact `json:"contact,omitzero"`
}

// FillFrom returns p with each of its empty fields taken from q: two
// documents naming the same party, each giving part of it.
func (p Party) FillFrom(q Party) Party {
	for _, f := range []struct {
		dst *string
		src string
	}{
		{&p.INN, q.INN}, {&p.KPP, q.KPP}, {&p.OGRN, q.OGRN}, {&p.RegNum, q.RegNum},
		{&p.Name, q.Name}, {&p.ShortName, q.ShortName}, {&p.Address, q.Address},
	} {
		if *f.dst == "" {
			*f.dst = f.src
		}
	}
	p.Contact = p.Contact.FillFrom(q.Contact)
	return p
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

// FillFrom returns c with each of its empty fields taken from d.
func (c Contact) FillFrom(d Contact) Contact {
	for _, f := range []struct {
		dst *string
		src string
	}{
		{&c.Person, d.Person}, {&c.Email, d.Email}, {&c.Phone, d.Phone}, {&c.Fax, d.Fax}, {&c.Address, d.Address},
	} {
		if *f.dst == "" {
			*f.dst = f.src
		}
	}
	return c
}

// Attachment is a file published with a notice, a protocol or a decision.
type Attachment struct {
	FileName    string `json:"file_name,omitempty"`
	Description string `json:"description,omitempty"`
	URL         string `json:"url,omitempty"`
	DocNumber   string `json:"doc_number,omitempty"`
	Size        int64  `json:"size,omitempty"`
}
