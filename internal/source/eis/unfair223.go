package eis

import (
	"encoding/xml"

	"github.com/tenderbase/tenderbase"
)

// unfairSuppliers223 decodes the entries of the 223-FZ register of unfair
// suppliers. The documents of the way to an entry (a customer's
// application, its rejection, the control body's include, exclude and
// reject packets) are not entries; notRecords says so.
var unfairSuppliers223 = map[string]documentFunc{"dishonestSupplier": decodeDishonestSuppliers}

// dishonestSupplierWire is a <dishonestSupplier>: each item of its body is
// a version of one entry.
type dishonestSupplierWire struct {
	Items []*dishonestSupplierData `xml:"body>item>dishonestSupplierData"`
}

// dishonestSupplierData is the dishonestSupplierDataType of
// dishonestSupplier.xsd.
type dishonestSupplierData struct {
	Placer            org223Wire        `xml:"placer>mainInfo"`
	RegNumber         string            `xml:"registrationNumber"`
	Version           string            `xml:"version"`
	URL               string            `xml:"urlEIS"`
	Published         eisTime           `xml:"publicationDateTime"`
	Created           eisTime           `xml:"createDateTime"`
	ApplicationNumber string            `xml:"applicationNumber"`
	IncludeReasonInfo string            `xml:"includeReasonInfo"`
	Application       rnpApplication223 `xml:"commonApplicationInfo"`
	ApproveStatus     string            `xml:"approveStatus"`
	IncludeDate       eisTime           `xml:"includeDate"`
	ExcludeDate       eisTime           `xml:"excludeDate"`
	Attachments       []document223Wire `xml:"attachments>document"`
}

// rnpApplication223 is the commonApplicationInfoType: what the customer's
// application said of the supplier, the purchase and the contract.
type rnpApplication223 struct {
	IncludeReason     string          `xml:"includeReason"`
	IncludeReasonText string          `xml:"includeReasonText"`
	ControlAgency     org223Wire      `xml:"controlAgency"`
	Supplier          supplier223     `xml:"supplier"`
	Purchase          *purchase223    `xml:"purchaseInfo"`
	Contract          *contract223RNP `xml:"contractInfo"`
	Items             []struct {
		OKPD2  codeName223 `xml:"okpd2"`
		OKVED2 codeName223 `xml:"okved2"`
		Name   string      `xml:"name"`
	} `xml:"contractItems>contractItem"`
	Branch *supplier223 `xml:"detachedDepart"`
}

type codeName223 struct {
	Code string `xml:"code"`
	Name string `xml:"name"`
}

// supplier223 is the supplier, or its separate subdivision, whose address
// is an extendedAddressType (the subdivision's is a line of text).
type supplier223 struct {
	Name    string `xml:"name"`
	INN     string `xml:"inn"`
	KPP     string `xml:"kpp"`
	Email   string `xml:"email"`
	Address struct {
		Text       string `xml:",chardata"`
		Country    string `xml:"country>digitalCode"`
		Zip        string `xml:"zip"`
		Region     string `xml:"region"`
		Area       string `xml:"area"`
		City       string `xml:"city"`
		Settlement string `xml:"settlement"`
		Street     string `xml:"street"`
		House      string `xml:"house"`
		Corpus     string `xml:"corpus"`
		Structure  string `xml:"structure"`
	} `xml:"address"`
}

type purchase223 struct {
	Number             string  `xml:"purchaseNoticeNumber"`
	Name               string  `xml:"name"`
	MethodName         string  `xml:"purchaseMethod>name"`
	CodeName           string  `xml:"purchaseCodeName"`
	LotInfo            string  `xml:"lotInfo"`
	PurchaseDate       eisTime `xml:"purchaseDate"`
	SummingupDate      eisTime `xml:"summingupDate"`
	CancellationDate   eisTime `xml:"cancellationDate"`
	DocumentRequisites struct {
		Number string  `xml:"documentNumber"`
		Name   string  `xml:"documentName"`
		Date   eisTime `xml:"documentDate"`
	} `xml:"documentRequisites"`
}

// contract223RNP is the contractInfoType of 223-FZ documents.
type contract223RNP struct {
	Number   string  `xml:"contractNumber"`
	Date     eisTime `xml:"contractDate"`
	Name     string  `xml:"name"`
	Currency struct {
		LetterCode string `xml:"letterCode"`
		Code       string `xml:"code"`
	} `xml:"currency"`
	Sum              string  `xml:"sum"`
	SumInfo          string  `xml:"sumInfo"`
	FulfillmentDate  string  `xml:"fulfillmentDate"`
	CancelReason     string  `xml:"cancellationReason"`
	CancelJudgment   eisTime `xml:"cancellationJudgmentDate"`
	CancellationDate eisTime `xml:"cancellationDate"`
}

// reasons223 maps the 223-FZ codes of why a supplier was included to the
// 44-FZ codes of the same reasons, so that one vocabulary serves both laws.
var reasons223 = map[string]string{
	"WD":  "WINNER_DEVIATION",
	"AWD": "PARTICIPANT_DEVIATION_IF_WINNER_DEVIATION",
	"OPD": "ONE_WINNER_DEVIATION",
	"CD":  "CANCEL_CONTRACT",
}

// approveStates223 maps the state of an entry's inclusion: in the register,
// in the archive, refused.
var approveStates223 = map[string]string{
	"RG": tenderbase.UnfairIncluded,
	"AR": tenderbase.UnfairExcluded,
	"PR": tenderbase.UnfairRefused,
}

// decodeDishonestSuppliers decodes every item of a <dishonestSupplier>.
func decodeDishonestSuppliers(d *xml.Decoder, start xml.StartElement, src source) ([]tenderbase.Record, error) {
	var w dishonestSupplierWire
	if err := d.DecodeElement(&w, &start); err != nil {
		return nil, err
	}
	if len(w.Items) == 0 {
		return nil, tenderbase.Errorf(tenderbase.EINVALID, "%s holds no item with dishonestSupplierData", src.kind)
	}
	recs := make([]tenderbase.Record, 0, len(w.Items))
	for i, item := range w.Items {
		u, err := item.record(src.kind, i+1)
		if err != nil {
			return nil, err
		}
		recs = append(recs, u)
	}
	return recs, nil
}

func (w *dishonestSupplierData) record(kind string, n int) (*tenderbase.UnfairSupplier, error) {
	reg := cleanText(w.RegNumber)
	if reg == "" {
		return nil, tenderbase.Errorf(tenderbase.EINVALID, "%s item %d has no registrationNumber", kind, n)
	}
	version, err := parseVersion(w.Version, 1)
	if err != nil {
		return nil, err
	}
	a := w.Application
	reason := cleanText(a.IncludeReason)
	status := cleanText(w.ApproveStatus)
	u := &tenderbase.UnfairSupplier{
		RegistryNumber: reg, Law: "223", Version: version,
		State: firstOf(approveStates223[status], tenderbase.UnfairIncluded), StateCode: status,
		PublishedAt: firstTime(w.Published.Time, w.Created.Time), IncludedAt: w.IncludeDate.Time,
		ApplicationNumber: cleanText(w.ApplicationNumber),
		Reason:            firstOf(reasons223[reason], reason), ReasonText: cleanText(a.IncludeReasonText),
		Decision:    (&unfairDocWire{Name: w.IncludeReasonInfo}).doc(),
		Supplier:    a.Supplier.party(),
		PublishOrg:  a.ControlAgency.party().FillFrom(w.Placer.party()),
		Purchase:    a.Purchase.buy(),
		Contract:    a.contract(),
		Attachments: attachments223(w.Attachments),
		URL:         cleanText(w.URL),
	}
	if a.Branch != nil {
		branch := a.Branch.party()
		u.Branch = &branch
	}
	if !w.ExcludeDate.IsZero() {
		u.Exclusion = &tenderbase.UnfairExclude{Date: w.ExcludeDate.Time}
	}
	return u, nil
}

// party returns the supplier; its address is the line the subdivision
// gives, or the parts of a structured one joined as people write them.
func (s supplier223) party() tenderbase.UnfairParty {
	a := s.Address
	address := joinNonEmpty([]string{
		cleanText(a.Zip), cleanText(a.Region), cleanText(a.Area), cleanText(a.City), cleanText(a.Settlement),
		cleanText(a.Street), cleanText(a.House), cleanText(a.Corpus), cleanText(a.Structure),
	}, ", ")
	return tenderbase.UnfairParty{
		Name: cleanText(s.Name), INN: cleanText(s.INN), KPP: cleanText(s.KPP), Email: cleanText(s.Email),
		Country: cleanText(a.Country), Zip: cleanText(a.Zip), Address: firstOf(address, a.Text),
	}
}

func (p *purchase223) buy() *tenderbase.UnfairBuy {
	if p == nil {
		return nil
	}
	dr := p.DocumentRequisites
	return &tenderbase.UnfairBuy{
		PurchaseNumber: cleanText(p.Number), Object: cleanText(p.Name), PlacingWay: firstOf(p.CodeName, p.MethodName),
		Lot:          cleanText(p.LotInfo),
		ProtocolDate: firstOf(p.SummingupDate.date(), p.CancellationDate.date(), p.PurchaseDate.date()),
		Document:     (&unfairDocWire{Name: dr.Name, Number: dr.Number, Date: dr.Date}).doc(),
	}
}

func (a rnpApplication223) contract() *tenderbase.UnfairDeal {
	c := a.Contract
	if c == nil {
		return nil
	}
	deal := &tenderbase.UnfairDeal{
		RegNumber: cleanText(c.Number), Subject: firstOf(c.Name, c.SumInfo), SignDate: c.Date.date(),
		Price: parseAmount(c.Sum), PerformanceDate: cleanText(c.FulfillmentDate), CancelDate: c.CancellationDate.date(),
		CancelBasis: (&unfairDocWire{Name: c.CancelReason, Date: c.CancelJudgment}).doc(),
	}
	if c.Sum != "" {
		deal.Currency = currencyOr(firstOf(c.Currency.LetterCode, c.Currency.Code))
	}
	for _, it := range a.Items {
		deal.Items = append(deal.Items, tenderbase.UnfairItem{
			OKPD2Code: cleanText(it.OKPD2.Code), OKPD2Name: cleanText(it.OKPD2.Name),
			OKVED2Code: cleanText(it.OKVED2.Code), OKVED2Name: cleanText(it.OKVED2.Name), Name: cleanText(it.Name),
		})
	}
	return deal
}

// attachments223 returns the files of a 223-FZ document's list.
func attachments223(list []document223Wire) []tenderbase.Attachment {
	var out []tenderbase.Attachment
	for _, a := range list {
		out = append(out, tenderbase.Attachment{
			FileName: cleanText(a.FileName), Description: cleanText(a.Description),
			URL: cleanText(a.URL), DocNumber: cleanText(a.RegNumber),
		})
	}
	return out
}
