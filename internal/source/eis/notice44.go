package eis

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/xml"
	"strings"
	"time"

	"github.com/tenderbase/tenderbase"
)

// notices44 decodes the 44-FZ notices: the 2019+ electronic notices
// (epNotificationEF2020, EZT2020, EOK2020, EZK2020, EOK...), which share one
// structure, and the legacy full notices (fcsNotificationEF, OK, ZK, ZP,
// EP...). Documents that change or cancel a notice without restating it are
// named exactly in events44, so that they win over these prefixes.
var notices44 = map[string]documentFunc{
	"epNotification*":  decodeNotice[epNoticeWire],
	"fcsNotification*": decodeNotice[fcsNoticeWire],
}

// epNoticeWire is an epNotification* document: a notice of 2019 or later.
type epNoticeWire struct {
	VersionNumber string `xml:"versionNumber"`
	CommonInfo    struct {
		PurchaseNumber     string       `xml:"purchaseNumber"`
		PublishDTInEIS     eisTime      `xml:"publishDTInEIS"`
		Href               string       `xml:"href"`
		PurchaseObjectInfo string       `xml:"purchaseObjectInfo"`
		PlacingWay         codeNameWire `xml:"placingWay"`
		ETP                etpWire      `xml:"ETP"`
	} `xml:"commonInfo"`
	Responsible struct {
		Org     orgWire     `xml:"responsibleOrgInfo"`
		Role    string      `xml:"responsibleRole"`
		Contact contactWire `xml:"responsibleInfo"`
	} `xml:"purchaseResponsibleInfo"`
	Attachments []attachmentWire `xml:"attachmentsInfo>attachmentInfo"`
	Info        struct {
		Procedure struct {
			Start       eisTime `xml:"collectingInfo>startDT"`
			End         eisTime `xml:"collectingInfo>endDT"`
			BiddingDate eisTime `xml:"biddingDate"`
		} `xml:"procedureInfo"`
		MaxPrice     string          `xml:"contractConditionsInfo>maxPriceInfo>maxPrice"`
		Currency     string          `xml:"contractConditionsInfo>maxPriceInfo>currency>code"`
		Requirements []epRequirement `xml:"customerRequirementsInfo>customerRequirementInfo"`
		Objects      epObjectsWire   `xml:"purchaseObjectsInfo"`
		// Drugs are the drugs an EZT2020 notice buys: outside
		// purchaseObjectsInfo, directly in notificationInfo.
		Drugs []drugObjectWire `xml:"drugPurchaseObjectsInfo>drugPurchaseObjectInfo"`
	} `xml:"notificationInfo"`
	Modification struct {
		Info    string `xml:"info"`
		AddInfo string `xml:"addInfo"`
	} `xml:"modificationInfo"`
}

// epRequirement is what one customer of a notice requires; its IKZ carries
// the customer's INN and KPP, which the customer reference itself lacks.
type epRequirement struct {
	Customer         orgWire `xml:"customer"`
	MaxPrice         string  `xml:"contractConditionsInfo>maxPriceInfo>maxPrice"`
	CustomerCode     string  `xml:"contractConditionsInfo>IKZInfo>customerCode"`
	PurchaseCode     string  `xml:"contractConditionsInfo>IKZInfo>purchaseCode"`
	PurchaseCode2019 string  `xml:"contractConditionsInfo>purchaseCode"` // before IKZInfo
	PlanPosition     string  `xml:"contractConditionsInfo>tenderPlan2020Info>position2020Number"`
}

// planLink returns the position of the plan-schedule the requirement was
// published from, by its number and the purchase's IKZ, or false when the
// requirement names neither.
func (r epRequirement) planLink() (tenderbase.PlanLink, bool) {
	link := tenderbase.PlanLink{
		PositionNumber: cleanText(r.PlanPosition),
		IKZ:            firstOf(r.PurchaseCode, r.PurchaseCode2019),
	}
	return link, link != tenderbase.PlanLink{}
}

// epObjectsWire holds the purchase objects in each of the shapes a notice
// may give them: directly (EZT2020), as goods other than drugs, as parent
// objects, or as drugs.
type epObjectsWire struct {
	Direct  []objectWire     `xml:"purchaseObject"`
	NotDrug []objectWire     `xml:"notDrugPurchaseObjectsInfo>purchaseObject"`
	Parent  []objectWire     `xml:"notDrugPurchaseParentObjectsInfo>purchaseObject"`
	Drugs   []drugObjectWire `xml:"drugPurchaseObjectsInfo>drugPurchaseObjectInfo"`
}

// decodeNotice decodes a full 44-FZ notice, whose wire struct is W, into a
// tender version and a doc record per attachment.
func decodeNotice[W any, P interface {
	*W
	tender() (*tenderbase.Tender, error)
	files() []noticeFile
}](d *xml.Decoder, start xml.StartElement, src source) ([]tenderbase.Record, error) {
	w := P(new(W))
	if err := d.DecodeElement(w, &start); err != nil {
		return nil, err
	}
	t, err := w.tender()
	if err != nil {
		return nil, err
	}
	return noticeRecords(t, w.files()), nil
}

func (w *epNoticeWire) files() []noticeFile { return attachmentFiles(w.Attachments) }

// tender adapts the notice to a tender version.
func (w *epNoticeWire) tender() (*tenderbase.Tender, error) {
	version, err := parseVersion(w.VersionNumber, 1)
	if err != nil {
		return nil, err
	}
	c := w.CommonInfo
	t := &tenderbase.Tender{
		PurchaseNumber:       cleanText(c.PurchaseNumber),
		Law:                  tenderbase.Law44,
		Version:              version,
		Title:                cleanText(c.PurchaseObjectInfo),
		Status:               tenderbase.TenderActive,
		PlacingMethod:        cleanText(c.PlacingWay.Name),
		PlacingMethodCode:    cleanText(c.PlacingWay.Code),
		Customer:             w.customer(),
		Customers:            w.customers(),
		MaxPrice:             w.maxPrice(),
		Currency:             currencyOr(w.Info.Currency),
		PublishedAt:          c.PublishDTInEIS.Time,
		ApplicationsStart:    w.Info.Procedure.Start.Time,
		ApplicationsDeadline: w.Info.Procedure.End.Time,
		BiddingDate:          w.Info.Procedure.BiddingDate.Time,
		ETP:                  c.ETP.etp(),
		Contact:              w.Responsible.Contact.contact(),
		URL:                  cleanText(c.Href),
	}
	t.Lots = []tenderbase.TenderLot{w.lot(t)}
	for _, r := range w.Info.Requirements {
		if link, ok := r.planLink(); ok {
			t.Plans = append(t.Plans, link)
		}
	}
	t.Organizer = responsibleOrganizer(w.Responsible.Org, w.Responsible.Role, t.Customer)
	finishTender(t, w.Modification.Info, w.Modification.AddInfo)
	return t, checkNotice(t)
}

// customer returns the customer of the first requirement, completed from
// the responsible organization when that is the same organization. Without
// requirements, the responsible organization is the customer.
func (w *epNoticeWire) customer() tenderbase.Party {
	org := w.Responsible.Org
	if len(w.Info.Requirements) == 0 {
		return org.party()
	}
	return w.Info.Requirements[0].customer(org)
}

// customers returns the customers of a joint purchase, each with its part
// of the price, or nil when the notice names one customer.
func (w *epNoticeWire) customers() []tenderbase.TenderCustomer {
	var parts []customerPart
	for _, r := range w.Info.Requirements {
		parts = append(parts, customerPart{r.customer(w.Responsible.Org), r.MaxPrice})
	}
	return jointCustomers(parts)
}

// customer returns the customer of the requirement.
func (r epRequirement) customer(responsible orgWire) tenderbase.Party {
	return requirementCustomer(r.Customer, responsible, noticeIKZParty(r.CustomerCode, firstOf(r.PurchaseCode, r.PurchaseCode2019)))
}

// maxPrice returns the notice's maximum price or, when it gives none, the
// sum of its customers' prices.
func (w *epNoticeWire) maxPrice() float64 {
	price := parseAmount(w.Info.MaxPrice)
	if price == 0 {
		prices := make([]float64, len(w.Info.Requirements))
		for i, r := range w.Info.Requirements {
			prices[i] = parseAmount(r.MaxPrice)
		}
		price = sumMoney(prices...)
	}
	return price
}

// lot returns the notice's one lot: since 2019 a notice has a single lot.
func (w *epNoticeWire) lot(t *tenderbase.Tender) tenderbase.TenderLot {
	o := w.Info.Objects
	objects := append(noticeObjects(o.Direct, o.NotDrug, o.Parent), drugObjects(append(o.Drugs, w.Info.Drugs...))...)
	return tenderbase.TenderLot{Number: 1, Title: t.Title, MaxPrice: t.MaxPrice, Currency: t.Currency, Objects: objects}
}

// fcsNoticeWire is a legacy fcsNotification* document (schemes up to 10.x).
type fcsNoticeWire struct {
	PurchaseNumber     string       `xml:"purchaseNumber"`
	DocPublishDate     eisTime      `xml:"docPublishDate"`
	Href               string       `xml:"href"`
	PurchaseObjectInfo string       `xml:"purchaseObjectInfo"`
	PlacingWay         codeNameWire `xml:"placingWay"`
	ETP                etpWire      `xml:"ETP"`
	Responsible        struct {
		Org     orgWire     `xml:"responsibleOrg"`
		Role    string      `xml:"responsibleRole"`
		Contact contactWire `xml:"responsibleInfo"`
	} `xml:"purchaseResponsible"`
	Procedure struct {
		Start   eisTime `xml:"collecting>startDate"`
		End     eisTime `xml:"collecting>endDate"`
		Bidding eisTime `xml:"bidding>date"`
	} `xml:"procedureInfo"`
	Lot          *fcsLotWire      `xml:"lot"`
	Lots         []fcsLotWire     `xml:"lots>lot"`
	Attachments  []attachmentWire `xml:"attachments>attachment"`
	Modification struct {
		Number  string `xml:"modificationNumber"`
		Info    string `xml:"info"`
		AddInfo string `xml:"addInfo"`
	} `xml:"modification"`
}

// fcsLotWire is a lot of a legacy notice.
type fcsLotWire struct {
	LotNumber     string           `xml:"lotNumber"`
	LotObjectInfo string           `xml:"lotObjectInfo"`
	MaxPrice      string           `xml:"maxPrice"`
	Currency      string           `xml:"currency>code"`
	Requirements  []fcsRequirement `xml:"customerRequirements>customerRequirement"`
	Objects       []objectWire     `xml:"purchaseObjects>purchaseObject"`
	Drugs         []drugObjectWire `xml:"drugPurchaseObjectsInfo>drugPurchaseObjectInfo"`
}

// fcsRequirement is one customer's part of a legacy lot.
type fcsRequirement struct {
	Customer     orgWire `xml:"customer"`
	MaxPrice     string  `xml:"maxPrice"`
	PurchaseCode string  `xml:"purchaseCode"`
}

// customer returns the customer of the requirement.
func (r fcsRequirement) customer(responsible orgWire) tenderbase.Party {
	return requirementCustomer(r.Customer, responsible, noticeIKZParty("", r.PurchaseCode))
}

func (w *fcsNoticeWire) files() []noticeFile { return attachmentFiles(w.Attachments) }

// tender adapts the legacy notice to a tender version. A legacy notice has
// no version number; its modification number counts the changes, so the
// version is that number plus one.
func (w *fcsNoticeWire) tender() (*tenderbase.Tender, error) {
	changes, err := parseVersion(w.Modification.Number, 0)
	if err != nil {
		return nil, err
	}
	t := &tenderbase.Tender{
		PurchaseNumber:       cleanText(w.PurchaseNumber),
		Law:                  tenderbase.Law44,
		Version:              changes + 1,
		Title:                cleanText(w.PurchaseObjectInfo),
		Status:               tenderbase.TenderActive,
		PlacingMethod:        cleanText(w.PlacingWay.Name),
		PlacingMethodCode:    cleanText(w.PlacingWay.Code),
		PublishedAt:          w.DocPublishDate.Time,
		ApplicationsStart:    w.Procedure.Start.Time,
		ApplicationsDeadline: w.Procedure.End.Time,
		BiddingDate:          w.Procedure.Bidding.Time,
		ETP:                  w.ETP.etp(),
		Contact:              w.Responsible.Contact.contact(),
		URL:                  cleanText(w.Href),
	}
	w.addLots(t)
	t.Organizer = responsibleOrganizer(w.Responsible.Org, w.Responsible.Role, t.Customer)
	finishTender(t, w.Modification.Info, w.Modification.AddInfo)
	return t, checkNotice(t)
}

// addLots sets the lots, the customer, and the maximum price (setLotPrices)
// from the single lot or the list of lots.
func (w *fcsNoticeWire) addLots(t *tenderbase.Tender) {
	lots := w.Lots
	if w.Lot != nil {
		lots = append([]fcsLotWire{*w.Lot}, lots...)
	}
	t.Customer = w.Responsible.Org.party()
	for i, l := range lots {
		lot := tenderbase.TenderLot{
			Number:   i + 1,
			Title:    firstOf(cleanText(l.LotObjectInfo), t.Title),
			MaxPrice: parseAmount(l.MaxPrice),
			Currency: currencyOr(l.Currency),
			Objects:  append(noticeObjects(l.Objects), drugObjects(l.Drugs)...),
		}
		if n, err := parseVersion(l.LotNumber, 0); err == nil && n > 0 {
			lot.Number = n
		}
		t.Lots = append(t.Lots, lot)
		if i == 0 && len(l.Requirements) > 0 {
			t.Customer = l.Requirements[0].customer(w.Responsible.Org)
		}
	}
	setLotPrices(t)
	t.Customers = w.customers(lots)
	if len(t.Lots) == 0 {
		t.Currency = currencyOr("")
	}
}

// customers returns the customers of a joint purchase, each with its part
// of the price summed over the lots, or nil when the notice names one
// customer.
func (w *fcsNoticeWire) customers(lots []fcsLotWire) []tenderbase.TenderCustomer {
	var parts []customerPart
	for _, l := range lots {
		for _, r := range l.Requirements {
			parts = append(parts, customerPart{r.customer(w.Responsible.Org), r.MaxPrice})
		}
	}
	return jointCustomers(parts)
}

// The wire types and helpers below are shared by the notices of both laws.

// codeNameWire is a reference to a directory entry: a code and its name.
type codeNameWire struct {
	Code string `xml:"code"`
	Name string `xml:"name"`
}

// etpWire is an electronic trading platform.
type etpWire struct {
	Code string `xml:"code"`
	Name string `xml:"name"`
	URL  string `xml:"url"`
}

// etp returns the platform, or nil when the notice names none.
func (e etpWire) etp() *tenderbase.ETP {
	p := tenderbase.ETP{Code: cleanText(e.Code), Name: cleanText(e.Name), URL: cleanText(e.URL)}
	if p == (tenderbase.ETP{}) {
		return nil
	}
	return &p
}

// orgWire is an organization as a 44-FZ notice names it.
type orgWire struct {
	RegNum      string `xml:"regNum"`
	FullName    string `xml:"fullName"`
	ShortName   string `xml:"shortName"`
	PostAddress string `xml:"postAddress"`
	FactAddress string `xml:"factAddress"`
	INN         string `xml:"INN"`
	KPP         string `xml:"KPP"`
}

// party returns the organization as a party. Some notices give only the
// short name; it then serves as the name too.
func (o orgWire) party() tenderbase.Party {
	return tenderbase.Party{
		INN:       cleanText(o.INN),
		KPP:       cleanText(o.KPP),
		RegNum:    cleanText(o.RegNum),
		Name:      firstOf(cleanText(o.FullName), cleanText(o.ShortName)),
		ShortName: cleanText(o.ShortName),
		Address:   firstOf(cleanText(o.PostAddress), cleanText(o.FactAddress)),
	}
}

// requirementCustomer returns the customer of a requirement, whose reference
// holds only its registry number and name, with the INN and KPP of the
// purchase's identification code (IKZ). When the responsible organization is
// that customer, it completes the rest.
func requirementCustomer(customer, responsible orgWire, ikz tenderbase.Party) tenderbase.Party {
	p := customer.party()
	if p.RegNum == "" && p.Name == "" {
		return responsible.party()
	}
	if ikz.INN != "" {
		p.INN, p.KPP = ikz.INN, ikz.KPP
	}
	r := responsible.party()
	if (p.RegNum != "" && p.RegNum == r.RegNum) || (p.INN != "" && p.INN == r.INN) {
		p.INN, p.KPP = firstOf(p.INN, r.INN), firstOf(p.KPP, r.KPP)
		p.Name, p.ShortName = firstOf(p.Name, r.Name), firstOf(p.ShortName, r.ShortName)
		p.Address = firstOf(p.Address, r.Address)
	}
	return p
}

// noticeIKZParty returns the INN and KPP in a customer code (20 digits: a
// kind digit, the INN, the KPP) or, failing that, in the identification code
// of the purchase (36 digits, the customer code from the third).
func noticeIKZParty(customerCode, purchaseCode string) tenderbase.Party {
	code := cleanText(customerCode)
	if pc := cleanText(purchaseCode); len(code) != 20 && len(pc) == 36 {
		code = pc[2:22]
	}
	if len(code) != 20 || !allDigits(code) {
		return tenderbase.Party{}
	}
	return tenderbase.Party{INN: code[1:11], KPP: code[11:20]}
}

// contactWire is the contact block of the responsible organization.
type contactWire struct {
	Person       personWire `xml:"contactPersonInfo"`
	LegacyPerson personWire `xml:"contactPerson"`
	Email        string     `xml:"contactEMail"`
	Phone        string     `xml:"contactPhone"`
	Fax          string     `xml:"contactFax"`
	Address      string     `xml:"orgPostAddress"`
}

// personWire is a person's name in its three parts.
type personWire struct {
	LastName   string `xml:"lastName"`
	FirstName  string `xml:"firstName"`
	MiddleName string `xml:"middleName"`
}

// name returns the name in the Russian order: last, first, middle.
func (p personWire) name() string {
	return personName(p.LastName, p.FirstName, p.MiddleName)
}

func (c contactWire) contact() tenderbase.Contact {
	return tenderbase.Contact{
		Person:  firstOf(c.Person.name(), c.LegacyPerson.name()),
		Email:   cleanText(c.Email),
		Phone:   cleanText(c.Phone),
		Fax:     cleanText(c.Fax),
		Address: cleanText(c.Address),
	}
}

// okpdWire is an OKPD2 or OKPD reference: OKPDCode and OKPDName since 2019,
// code and name before.
type okpdWire struct {
	OKPDCode string `xml:"OKPDCode"`
	OKPDName string `xml:"OKPDName"`
	Code     string `xml:"code"`
	Name     string `xml:"name"`
}

func (o okpdWire) code() string { return firstOf(cleanText(o.OKPDCode), cleanText(o.Code)) }
func (o okpdWire) name() string { return firstOf(cleanText(o.OKPDName), cleanText(o.Name)) }

// objectWire is a purchase object, classified by one of OKPD2, OKPD (the
// classifier before 2017) or a KTRU position, which holds its OKPD2 class.
type objectWire struct {
	OKPD2    okpdWire `xml:"OKPD2"`
	OKPD     okpdWire `xml:"OKPD"`
	KTRU     ktruWire `xml:"KTRU"`
	Name     string   `xml:"name"`
	Unit     string   `xml:"OKEI>nationalCode"`
	UnitName string   `xml:"OKEI>name"`
	Price    string   `xml:"price"`
	Quantity string   `xml:"quantity>value"`
	Sum      string   `xml:"sum"`
}

func (o objectWire) object() tenderbase.PurchaseObject {
	okpd2 := o.OKPD2
	if okpd2.code() == "" {
		okpd2 = o.KTRU.OKPD2
	}
	return tenderbase.PurchaseObject{
		OKPD2Code: okpd2.code(),
		OKPD2Name: okpd2.name(),
		OKPDCode:  o.OKPD.code(),
		OKPDName:  o.OKPD.name(),
		KTRUCode:  o.KTRU.code(),
		Name:      firstOf(cleanText(o.Name), okpd2.name(), o.OKPD.name(), o.KTRU.name()),
		Quantity:  parseAmount(o.Quantity),
		Unit:      firstOf(cleanText(o.Unit), cleanText(o.UnitName)),
		Price:     parseAmount(o.Price),
		Sum:       parseAmount(o.Sum),
	}
}

// ktruWire is a position of the KTRU catalogue: its code, its name and the
// OKPD2 class it belongs to.
type ktruWire struct {
	okpdWire
	OKPD2 okpdWire `xml:"OKPD2"`
}

// noticeObjects returns the purchase objects of every list given.
func noticeObjects(lists ...[]objectWire) []tenderbase.PurchaseObject {
	var objects []tenderbase.PurchaseObject
	for _, list := range lists {
		for _, o := range list {
			objects = append(objects, o.object())
		}
	}
	return objects
}

// drugObjectWire is a drug bought: its OKPD2 and its international
// nonproprietary name (MNN) are in the drug's reference or text-form
// description.
type drugObjectWire struct {
	Reference []drugInfoWire `xml:"objectInfoUsingReferenceInfo>drugsInfo>drugInfo"`
	TextForm  []drugInfoWire `xml:"objectInfoUsingTextForm>drugsInfo>drugInfo"`
	Name      string         `xml:"name"`
	Quantity  string         `xml:"drugQuantityCustomersInfo>total"`
	Price     string         `xml:"pricePerUnit"`
	Sum       string         `xml:"positionPrice"`
}

// drugInfoWire describes one drug of a drug purchase object.
type drugInfoWire struct {
	MNN        string   `xml:"MNNInfo>MNNName"`
	OKPD2      okpdWire `xml:"OKPD2"`
	Unit       string   `xml:"manualUserOKEI>name"`
	DosageUnit string   `xml:"dosageInfo>dosageUserOKEI>name"`
}

func drugObjects(drugs []drugObjectWire) []tenderbase.PurchaseObject {
	var objects []tenderbase.PurchaseObject
	for _, d := range drugs {
		info := append(d.Reference, d.TextForm...)
		var first drugInfoWire
		if len(info) > 0 {
			first = info[0]
		}
		objects = append(objects, tenderbase.PurchaseObject{
			OKPD2Code: first.OKPD2.code(),
			OKPD2Name: first.OKPD2.name(),
			MNN:       cleanText(first.MNN),
			Name:      firstOf(cleanText(d.Name), cleanText(first.MNN), first.OKPD2.name()),
			Quantity:  parseAmount(d.Quantity),
			Unit:      firstOf(cleanText(first.Unit), cleanText(first.DosageUnit)),
			Price:     parseAmount(d.Price),
			Sum:       parseAmount(d.Sum),
		})
	}
	return objects
}

// attachmentWire is a file published with a 44-FZ document: a notice, a
// protocol, a report of a contract's execution. Only the files of
// contracts have a registry number of their own (docRegNumber).
type attachmentWire struct {
	ContentID   string  `xml:"publishedContentId"`
	FileName    string  `xml:"fileName"`
	FileSize    string  `xml:"fileSize"`
	Description string  `xml:"docDescription"`
	Date        eisTime `xml:"docDate"`
	DocRegNum   string  `xml:"docRegNumber"`
	URL         string  `xml:"url"`
}

// noticeFile is a file of a notice of either law: the attachment, the id the
// source gives it, and its own date.
type noticeFile struct {
	attachment tenderbase.Attachment
	id         string
	date       time.Time
}

func attachmentFiles(list []attachmentWire) []noticeFile {
	files := make([]noticeFile, 0, len(list))
	for _, a := range list {
		files = append(files, noticeFile{
			attachment: tenderbase.Attachment{
				FileName:    cleanText(a.FileName),
				Description: cleanText(a.Description),
				URL:         cleanText(a.URL),
				DocNumber:   cleanText(a.DocRegNum),
				Size:        parseSize(a.FileSize),
			},
			id:   cleanText(a.ContentID),
			date: a.Date.Time,
		})
	}
	return files
}

// noticeRecords returns the tender with its attachments, then a doc record
// per attachment.
func noticeRecords(t *tenderbase.Tender, files []noticeFile) []tenderbase.Record {
	recs := []tenderbase.Record{t}
	for _, f := range files {
		t.Attachments = append(t.Attachments, f.attachment)
		recs = append(recs, noticeDoc(t, f))
	}
	return recs
}

// noticeDoc returns the doc record of a file of tender t. Its id is the
// purchase number and the source's id of the file, or a hash of its address
// (of its name when it has none), so that every version of the notice
// publishing the same file names the same doc. Its date is the file's own,
// when given, for the same reason.
func noticeDoc(t *tenderbase.Tender, f noticeFile) *tenderbase.Doc {
	a := f.attachment
	id := f.id
	if id == "" {
		sum := sha256.Sum256([]byte(firstOf(a.URL, a.FileName+"\n"+a.Description)))
		id = strings.ToUpper(hex.EncodeToString(sum[:16]))
	}
	return &tenderbase.Doc{
		ID:             t.PurchaseNumber + "-" + id,
		PurchaseNumber: t.PurchaseNumber,
		TenderTitle:    t.Title,
		Customer:       t.Customer,
		Region:         t.Region,
		FileName:       a.FileName,
		Description:    a.Description,
		URL:            a.URL,
		Size:           a.Size,
		PublishedAt:    firstTime(f.date, t.PublishedAt),
	}
}

// finishTender sets what follows from the rest of the tender: a title from
// the first object when the notice gives none, the region, and the change a
// version after the first makes. Which fields changed is left to the store's
// comparison of versions.
func finishTender(t *tenderbase.Tender, info, addInfo string) {
	if t.Title == "" {
		for _, l := range t.Lots {
			for _, o := range l.Objects {
				t.Title = firstOf(t.Title, o.Name)
			}
		}
		for i := range t.Lots {
			t.Lots[i].Title = firstOf(t.Lots[i].Title, t.Title)
		}
	}
	t.Region = regionOf(t.Customer.KPP, t.Customer.INN)
	if t.Version > 1 {
		t.Change = &tenderbase.Change{Reason: firstOf(cleanText(info), cleanText(addInfo)), PublishedAt: t.PublishedAt}
	}
}

// checkNotice rejects a notice that names no purchase.
func checkNotice(t *tenderbase.Tender) error {
	if t.PurchaseNumber == "" {
		return tenderbase.Errorf(tenderbase.EINVALID, "notice has no purchase number")
	}
	return nil
}
