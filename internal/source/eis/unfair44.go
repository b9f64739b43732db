package eis

import (
	"encoding/xml"

	"github.com/tenderbase/tenderbase"
)

// unfairSuppliers44 decodes the entries of the 44-FZ register of unfair
// suppliers (RNP): the form used until 1 April 2022, the form since, with
// the identification codes of the purchase or without, and the exclusion
// of an entry of the new form.
var unfairSuppliers44 = map[string]documentFunc{
	"unfairSupplier":            decodeUnfairSuppliers,
	"unfairSupplier2022":        decodeUnfairSuppliers2022,
	"unfairSupplierIKZ":         decodeUnfairSuppliers2022,
	"unfairSupplier2022Exclude": decodeUnfairExclusions2022,
}

// unfairSupplierWire is an <unfairSupplier> (zfcs_unfairSupplierType,
// schemes 5 to 14.1; not used since 1 April 2022).
type unfairSupplierWire struct {
	RegistryNum           string            `xml:"registryNum"`
	PublishDate           eisTime           `xml:"publishDate"`
	ApproveDate           eisTime           `xml:"approveDate"`
	OccurrenceReasonDate  eisTime           `xml:"occurrenceReasonDate"`
	ErgRequestApproveDate eisTime           `xml:"ergRequestApproveDate"`
	State                 string            `xml:"state"`
	PublishOrg            koParty           `xml:"publishOrg"`
	CreateReason          string            `xml:"createReason"`
	ApproveReason         string            `xml:"approveReason"`
	ApproveOrder          *approveOrderWire `xml:"approveOrderReasonInfo"`
	Customer              orgWire           `xml:"customer"`
	Supplier              unfairPartyOld    `xml:"unfairSupplier"`
	Purchase              *unfairBuyWire    `xml:"purchase"`
	NotOosPurchase        bool              `xml:"notOosPurchase"`
	Contract              *unfairDeal       `xml:"contract"`
	Exclude               *unfairExclude    `xml:"exclude"`
	FinalDateInclude      eisTime           `xml:"finalDateInclude"`
	AutoExDateInfo        struct {
		CalcSign   string  `xml:"autoExDateCalcSign"`
		AutoExDate eisTime `xml:"autoExDate"`
	} `xml:"autoExDateInfo"`
}

// unfairPartyOld is the supplier of an entry of the old form.
type unfairPartyOld struct {
	FullName  string `xml:"fullName"`
	Type      string `xml:"type"`
	FirmName  string `xml:"firmName"`
	ShortName string `xml:"shortName"`
	INN       string `xml:"inn"`
	KPP       string `xml:"kpp"`
	Place     struct {
		Kladr struct {
			FullName  string `xml:"fullName"`
			SubjectRF string `xml:"subjectRF"`
			Area      string `xml:"area"`
			City      string `xml:"city"`
			Street    string `xml:"street"`
			Building  string `xml:"building"`
			Office    string `xml:"office"`
		} `xml:"kladr"`
		Country struct {
			Code string `xml:"countryCode"`
		} `xml:"country"`
		Zip   string `xml:"zip"`
		Place string `xml:"place"`
		Email string `xml:"email"`
	} `xml:"place"`
	Email    string             `xml:"email"`
	Founders []unfairFounderOld `xml:"founders"`
}

// unfairFounderOld is a person included with the supplier, old form.
type unfairFounderOld struct {
	Names string         `xml:"names"`
	INN   string         `xml:"inn"`
	Type  unfairTypeWire `xml:"type"`
}

// unfairTypeWire is an entry of the directory of the kinds of persons
// included with a supplier.
type unfairTypeWire struct {
	Code string `xml:"code"`
	Name string `xml:"name"`
}

// unfairDocWire is a document: a decision, an order, a protocol.
type unfairDocWire struct {
	Name   string  `xml:"name"`
	Number string  `xml:"number"`
	Date   eisTime `xml:"date"`
}

type unfairBuyWire struct {
	PurchaseNumber     string         `xml:"purchaseNumber"`
	PurchaseObjectInfo string         `xml:"purchaseObjectInfo"`
	PlacingWayName     string         `xml:"placingWayName"`
	ProtocolDate       eisTime        `xml:"protocolDate"`
	LotNumber          int            `xml:"lotNumber"`
	Document           *unfairDocWire `xml:"document"`
}

type unfairDeal struct {
	RegNum      string `xml:"regNum"`
	ProductInfo string `xml:"productInfo"`
	OKPD        struct {
		Code string `xml:"code"`
		Name string `xml:"name"`
	} `xml:"OKPD"`
	Currency struct {
		Code string `xml:"code"`
	} `xml:"currency"`
	Price  string `xml:"price"`
	Cancel struct {
		SignDate        eisTime        `xml:"signDate"`
		PerformanceDate eisTime        `xml:"performanceDate"`
		Base            *unfairDocWire `xml:"base"`
		CancelDate      eisTime        `xml:"cancelDate"`
	} `xml:"cancel"`
}

type unfairExclude struct {
	ExcludeDate eisTime `xml:"excludeDate"`
	Name        string  `xml:"name"`
	Date        eisTime `xml:"date"`
	Number      string  `xml:"number"`
	Type        string  `xml:"type"`
}

// decodeUnfairSuppliers decodes every <unfairSupplier> of the export.
func decodeUnfairSuppliers(d *xml.Decoder, start xml.StartElement, src source) ([]tenderbase.Record, error) {
	return decodeEach(d, start, func(start xml.StartElement, n int) (tenderbase.Record, error) {
		var w unfairSupplierWire
		if err := d.DecodeElement(&w, &start); err != nil {
			return nil, contractDecodeError(src.kind, n, err)
		}
		return w.record(src.kind, n)
	})
}

// unfairStates maps the states of the old form to where an entry stands:
// an application to exclude it leaves it included; one taken out for the
// time of a court case is excluded while it lasts.
var unfairStates = map[string]string{
	"PUBLISHED":       tenderbase.UnfairIncluded,
	"ON_EXCLUSION":    tenderbase.UnfairIncluded,
	"TEMP_EXCLUDED":   tenderbase.UnfairExcluded,
	"ARCHIVED":        tenderbase.UnfairExcluded,
	"REVIEW_CANCELED": tenderbase.UnfairRefused,
}

func (w *unfairSupplierWire) record(kind string, n int) (*tenderbase.UnfairSupplier, error) {
	reg := cleanText(w.RegistryNum)
	if reg == "" {
		return nil, tenderbase.Errorf(tenderbase.EINVALID, "%s %d of the file has no registryNum", kind, n)
	}
	state := cleanText(w.State)
	u := &tenderbase.UnfairSupplier{
		RegistryNumber: reg, Law: "44",
		State: unfairStates[state], StateCode: state,
		PublishedAt: w.PublishDate.Time, IncludedAt: w.ApproveDate.Time,
		ReasonDate: w.OccurrenceReasonDate.date(), ApplicationDate: w.ErgRequestApproveDate.date(),
		ExcludeOn: w.AutoExDateInfo.AutoExDate.date(), ExcludeOnBasis: cleanText(w.AutoExDateInfo.CalcSign),
		FinalIncludeDate: w.FinalDateInclude.date(),
		Reason:           cleanText(w.CreateReason), ReasonText: cleanText(w.ApproveReason),
		PublishOrg: tenderbase.Party{RegNum: cleanText(w.PublishOrg.RegNum), Name: cleanText(w.PublishOrg.FullName)},
		Customer:   w.Customer.party(),
		Supplier:   w.Supplier.party(),
		Founders:   w.Supplier.founders(),
		Purchase:   w.Purchase.buy(w.NotOosPurchase),
		Contract:   w.Contract.deal(),
		Exclusion:  w.Exclude.exclusion(),
	}
	if o := w.ApproveOrder; o != nil {
		u.Decision = (&unfairDocWire{Number: o.Number, Date: o.Date}).doc()
		u.ReasonText = firstOf(o.ApproveReason, u.ReasonText)
	}
	return u, nil
}

func (p unfairPartyOld) party() tenderbase.UnfairParty {
	k := p.Place.Kladr
	street := firstOf(k.Street, k.FullName)
	if k.SubjectRF == "" && k.Area == "" && k.City == "" {
		street = firstOf(k.FullName, k.Street)
	}
	address := joinNonEmpty([]string{
		cleanText(p.Place.Zip), cleanText(k.SubjectRF), cleanText(k.Area), cleanText(k.City), cleanText(street),
		cleanText(k.Building), cleanText(k.Office), cleanText(p.Place.Place),
	}, ", ")
	return tenderbase.UnfairParty{
		Type: cleanText(p.Type), Name: cleanText(p.FullName), FirmName: cleanText(p.FirmName), ShortName: cleanText(p.ShortName),
		INN: cleanText(p.INN), KPP: cleanText(p.KPP), Country: cleanText(p.Place.Country.Code), Zip: cleanText(p.Place.Zip),
		Address: address, Email: firstOf(p.Email, p.Place.Email),
	}
}

func (p unfairPartyOld) founders() []tenderbase.UnfairPerson {
	var out []tenderbase.UnfairPerson
	for _, f := range p.Founders {
		out = append(out, tenderbase.UnfairPerson{
			Name: cleanText(f.Names), INN: cleanText(f.INN), TypeCode: cleanText(f.Type.Code), Type: cleanText(f.Type.Name),
		})
	}
	return out
}

func (d *unfairDocWire) doc() *tenderbase.UnfairDoc {
	if d == nil {
		return nil
	}
	doc := tenderbase.UnfairDoc{Name: cleanText(d.Name), Number: cleanText(d.Number), Date: d.Date.date()}
	if doc == (tenderbase.UnfairDoc{}) {
		return nil
	}
	return &doc
}

// approveOrderWire is the decision or order an entry of the old form rests
// on, since scheme 14, with the reason it gives.
type approveOrderWire struct {
	Number        string  `xml:"number"`
	Date          eisTime `xml:"date"`
	ApproveReason string  `xml:"approveReason"`
}

func (b *unfairBuyWire) buy(notOnEIS bool) *tenderbase.UnfairBuy {
	if b == nil {
		if notOnEIS {
			return &tenderbase.UnfairBuy{NotOnEIS: true}
		}
		return nil
	}
	return &tenderbase.UnfairBuy{
		PurchaseNumber: cleanText(b.PurchaseNumber), Object: cleanText(b.PurchaseObjectInfo),
		PlacingWay: cleanText(b.PlacingWayName), ProtocolDate: b.ProtocolDate.date(), LotNumber: b.LotNumber,
		Document: b.Document.doc(), NotOnEIS: notOnEIS,
	}
}

func (c *unfairDeal) deal() *tenderbase.UnfairDeal {
	if c == nil {
		return nil
	}
	return &tenderbase.UnfairDeal{
		RegNumber: cleanText(c.RegNum), Subject: cleanText(c.ProductInfo),
		OKPDCode: cleanText(c.OKPD.Code), OKPDName: cleanText(c.OKPD.Name),
		Price: parseAmount(c.Price), Currency: currencyOr(c.Currency.Code),
		SignDate: c.Cancel.SignDate.date(), PerformanceDate: c.Cancel.PerformanceDate.date(),
		CancelDate: c.Cancel.CancelDate.date(), CancelBasis: c.Cancel.Base.doc(),
	}
}

func (x *unfairExclude) exclusion() *tenderbase.UnfairExclude {
	if x == nil {
		return nil
	}
	return &tenderbase.UnfairExclude{
		Date: x.ExcludeDate.Time, Type: cleanText(x.Type), Reason: cleanText(x.Name),
		Document: (&unfairDocWire{Number: x.Number, Date: x.Date}).doc(),
	}
}
