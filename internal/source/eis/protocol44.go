package eis

import (
	"encoding/xml"
	"strconv"
	"strings"

	"github.com/tenderbase/tenderbase"
)

// protocols44 decodes the 44-FZ protocols of commissions: the legacy
// fcsProtocol* documents (EF1-3, single application, invalidation, refusal
// to contract), the epProtocol* documents of the electronic procedures
// (EOK, EZK, EZP, their 2020 final protocols, closed ones) and the
// pprf615Protocol* of capital repairs. They share one structure closely
// enough for one wire struct: a protocolLot (fcs, pprf615) or a
// protocolInfo (ep) with the applications.
var protocols44 = map[string]documentFunc{
	"fcsProtocol*":      decodeProtocol44,
	"epProtocol*":       decodeProtocol44,
	"epClosedProtocol*": decodeProtocol44,
	"pprf615Protocol*":  decodeProtocol44,
}

// protocol44Wire is a 44-FZ protocol. The legacy documents give the numbers
// and dates at the top; the ep documents in commonInfo.
type protocol44Wire struct {
	ID             string  `xml:"id"`
	PurchaseNumber string  `xml:"purchaseNumber"`
	ProtocolNumber string  `xml:"protocolNumber"`
	VersionNumber  string  `xml:"versionNumber"`
	ProtocolDate   eisTime `xml:"protocolDate"`
	PublishDate    eisTime `xml:"publishDate"`
	Href           string  `xml:"href"`
	PrintForm      string  `xml:"printForm>url"`
	Common         struct {
		PurchaseNumber string  `xml:"purchaseNumber"`
		DocNumber      string  `xml:"docNumber"`
		ProcedureDT    eisTime `xml:"procedureDT"`
		SignDate       eisTime `xml:"signDate"`
		PublishDTInEIS eisTime `xml:"publishDTInEIS"`
		DocPublishDate eisTime `xml:"docPublishDate"`
		Href           string  `xml:"href"`
	} `xml:"commonInfo"`
	Publisher       publisher44Wire  `xml:"protocolPublisher"`
	PublisherInfo   publisher44Wire  `xml:"protocolPublisherInfo"`
	Attachments     []attachmentWire `xml:"attachments>attachment"`
	AttachmentsInfo []attachmentWire `xml:"attachmentsInfo>attachmentInfo"`
	Lots            []protocolLot44  `xml:"protocolLot"`
	// The protocols of several lots in one document (fcsProtocolOK2 and the
	// other legacy protocols of competitions) list them in protocolLots.
	LotList []protocolLot44 `xml:"protocolLots>protocolLot"`
	Info    *protocolLot44  `xml:"protocolInfo"`
	// The parts of the 2020 final protocols (epProtocol*2020FinalPart,
	// *SecondSectionsPart) name the participants of the applications that
	// the protocol itself lists by journal number only.
	Named []namedApplication44 `xml:"appParticipantsInfo>appParticipantInfo"`
}

// namedApplication44 names the participant of the application with the
// journal number.
type namedApplication44 struct {
	AppNumber   string            `xml:"appNumber"`
	Participant participant44Wire `xml:"participantInfo"`
}

// publisher44Wire is the organization that published a protocol, and its
// role: CU is the customer itself.
type publisher44Wire struct {
	Org  orgWire `xml:"publisherOrg"`
	Role string  `xml:"publisherRole"`
}

// protocolLot44 is the part of a protocol about one lot: its applications,
// the customer, and why the procedure failed, if it did.
type protocolLot44 struct {
	LotNumber        string           `xml:"lotNumber"`
	Customer         orgWire          `xml:"customer"`
	Abandoned        []codeNameWire   `xml:"abandonedReason"`
	Applications     []application44  `xml:"applications>application"`
	Application      []application44  `xml:"application"`
	ApplicationsInfo []application44  `xml:"applicationsInfo>applicationInfo"`
	RefusalFact      *refusalFactWire `xml:"refusalFact"`
}

// refusalFactWire is why a commission refuses to contract with a winner.
type refusalFactWire struct {
	Explanation string `xml:"explanation"`
	Foundation  string `xml:"foundation>name"`
}

// application44 is one application, in the shapes of every scheme: its
// journal number, its place (appRating), its offers and its participant.
type application44 struct {
	Journal      string            `xml:"journalNumber"`
	AppNumber    string            `xml:"commonInfo>appNumber"` // the journal number of the ep schemes
	Rating       string            `xml:"appRating"`
	LastOffer    string            `xml:"priceOffers>lastOffer>price"`
	FirstOffer   string            `xml:"priceOffers>firstOffer>price"`
	LastOffer2   string            `xml:"lastOffer>price"`
	LastPrice    string            `xml:"lastPriceOffer>price"`
	WinnerPrice  string            `xml:"winnerPrice"`
	FinalPrice   string            `xml:"finalPrice"`
	Price        string            `xml:"price"`
	OfferPrice   string            `xml:"offerPrice"`
	AdmittedInfo admittedInfo44    `xml:"admittedInfo"`
	Participant  participant44Wire `xml:"appParticipant"`
	// A competition's application may be joint: appParticipants lists
	// every participant of it, the first of whom the record keeps.
	Participants []participant44Wire `xml:"appParticipants>appParticipant"`
	Info         participant44Wire   `xml:"appParticipantInfo"`
	Info2        participant44Wire   `xml:"participantInfo"`
}

// admittedInfo44 is the commission's decision on an application: its place
// (ep schemes; appRating directly under it in a legacy competition), or the
// result of a legacy quotation (resultType).
type admittedInfo44 struct {
	Rating     string `xml:"appAdmittedInfo>appRating"`
	Rating2    string `xml:"appRating"`
	ResultType string `xml:"resultType"`
	// A competition scores the offers by criteria; the cost criterion CP
	// (the price of the contract) gives the participant's offer.
	CostCriteria []costCriterion44 `xml:"conditionsScoring>conditionScoring>costCriterion"`
	SingleAdmit  string            `xml:"singleAppAdmittedInfo>admitted"`
	SinglePrice  string            `xml:"singleAppAdmittedInfo>finalPrice"`
}

// costCriterion44 is a participant's offer by a cost criterion of a
// competition.
type costCriterion44 struct {
	Code  string `xml:"criterionCode"`
	Offer string `xml:"offer"`
}

// contractPriceOffer returns the offer by the criterion of the contract's
// price (CP), or "".
func (a admittedInfo44) contractPriceOffer() string {
	for _, c := range a.CostCriteria {
		if cleanText(c.Code) == "CP" {
			return c.Offer
		}
	}
	return ""
}

// participant44Wire is a participant: flat in the legacy appParticipant,
// in one block per kind of participant since.
type participant44Wire struct {
	contract44Person
	OGRN           string             `xml:"ogrn"` // lower case in the ep schemes
	NameInfo       contract44Name     `xml:"nameInfo"`
	FactAddress    string             `xml:"factAddress"`
	OrgFactAddress string             `xml:"orgFactAddress"`
	LegalEntityRF  *participant44Wire `xml:"legalEntityRFInfo"`
	PersonRF       *participant44Wire `xml:"individualPersonRFInfo"`
	LegalForeign   *participant44Wire `xml:"legalEntityForeignStateInfo"`
	PersonForeign  *participant44Wire `xml:"individualPersonForeignStateInfo"`
}

// party returns the participant, whichever block names it.
func (w *participant44Wire) party() tenderbase.Party {
	p := w.contract44Person.party()
	n := w.NameInfo
	p.Name = firstOf(p.Name, personName(n.LastName, n.FirstName, n.MiddleName))
	p.Address = firstOf(p.Address, cleanText(w.FactAddress), cleanText(w.OrgFactAddress), cleanText(w.Contact.OrgPostAddress))
	p.OGRN = firstOf(p.OGRN, cleanText(w.OGRN))
	for _, b := range []*participant44Wire{w.LegalEntityRF, w.PersonRF, w.LegalForeign, w.PersonForeign} {
		if b != nil {
			p = p.FillFrom(b.party())
		}
	}
	return p
}

// decodeProtocol44 decodes a 44-FZ protocol into one record per lot.
func decodeProtocol44(d *xml.Decoder, start xml.StartElement, src source) ([]tenderbase.Record, error) {
	var w protocol44Wire
	if err := d.DecodeElement(&w, &start); err != nil {
		return nil, err
	}
	return w.records(src.kind)
}

// records adapts the protocol: one record per protocolLot. A protocol of a
// single lot is keyed by its document id alone; one of several lots by the
// id and the lot's number, so that every key stays unique.
func (w *protocol44Wire) records(kind string) ([]tenderbase.Record, error) {
	base, err := w.protocol(kind)
	if err != nil {
		return nil, err
	}
	lots := append(append([]protocolLot44(nil), w.Lots...), w.LotList...)
	if w.Info != nil {
		lots = append(lots, *w.Info)
	}
	if len(lots) == 0 {
		lots = []protocolLot44{{}}
	}
	var recs []tenderbase.Record
	for i, l := range lots {
		p := *base
		p.LotNumber = lotNumberOr(l.LotNumber, 0)
		if len(lots) > 1 {
			p.LotNumber = lotNumberOr(l.LotNumber, i+1)
			p.ID = base.ID + "-" + strconv.Itoa(p.LotNumber)
		}
		l.fill(&p, kind)
		w.name(&p)
		if p.Customer == (tenderbase.Party{}) {
			p.Customer = w.customer()
		}
		recs = append(recs, &p)
	}
	return recs, nil
}

// name fills the details of p's participants from the part of the
// protocol that names them by journal number.
func (w *protocol44Wire) name(p *tenderbase.Protocol) {
	if len(w.Named) == 0 {
		return
	}
	named := make(map[string]tenderbase.Party, len(w.Named))
	for _, n := range w.Named {
		named[cleanText(n.AppNumber)] = unmasked(n.Participant.party())
	}
	for i, part := range p.Participants {
		if party, ok := named[part.JournalNumber]; ok && part.JournalNumber != "" {
			p.Participants[i].Party = part.Party.FillFrom(party)
		}
	}
}

// protocol returns what the protocol says of itself, before its lots.
func (w *protocol44Wire) protocol(kind string) (*tenderbase.Protocol, error) {
	version, err := parseVersion(w.VersionNumber, 0)
	if err != nil {
		return nil, err
	}
	p := &tenderbase.Protocol{
		ID:             cleanText(w.ID),
		PurchaseNumber: firstOf(cleanText(w.PurchaseNumber), cleanText(w.Common.PurchaseNumber)),
		Law:            tenderbase.Law44,
		Type:           kind,
		Number:         protocolNumber(firstOf(cleanText(w.ProtocolNumber), cleanText(w.Common.DocNumber))),
		Version:        version,
		ProtocolDate:   firstTime(w.ProtocolDate.Time, w.Common.ProcedureDT.Time, w.Common.SignDate.Time),
		PublishedAt:    firstTime(w.PublishDate.Time, w.Common.PublishDTInEIS.Time, w.Common.DocPublishDate.Time),
		Attachments:    attachmentsOf(append(w.Attachments, w.AttachmentsInfo...)),
		URL:            firstOf(cleanText(w.Href), cleanText(w.Common.Href), cleanText(w.PrintForm)),
	}
	return p, checkProtocol(p)
}

// protocolNumber returns the number of a protocol without the "№" the ep
// documents write before it, so that a protocol and a cancellation naming
// it give the same number.
func protocolNumber(s string) string {
	return strings.TrimSpace(strings.TrimPrefix(s, "№"))
}

// customer returns the publisher when it is the customer itself (role CU):
// an authorized body or a specialized organization is not the customer.
func (w *protocol44Wire) customer() tenderbase.Party {
	for _, pub := range []publisher44Wire{w.Publisher, w.PublisherInfo} {
		if cleanText(pub.Role) == "CU" {
			return pub.Org.party()
		}
	}
	return tenderbase.Party{}
}

// fill sets the lot's participants, customer and failure on p.
func (l *protocolLot44) fill(p *tenderbase.Protocol, kind string) {
	p.Customer = l.Customer.party()
	apps := append(append(append([]application44(nil), l.Applications...), l.Application...), l.ApplicationsInfo...)
	for _, a := range apps {
		if part, ok := a.participant(); ok {
			p.Participants = append(p.Participants, part)
		}
	}
	var reasons []string
	for _, r := range l.Abandoned {
		reasons = append(reasons, cleanText(r.Name))
	}
	if reason := firstOf(reasons...); reason != "" {
		p.Failed, p.Reason = true, reason
	}
	if isSingleApplication(kind) {
		markSingleWinner(p)
		p.Failed = true
		p.Reason = firstOf(p.Reason, "Подана единственная заявка")
	}
	if l.RefusalFact != nil {
		p.Reason = firstOf(cleanText(l.RefusalFact.Explanation), cleanText(l.RefusalFact.Foundation))
	}
}

// participant adapts an application. An application that names no one
// and offers nothing (the first parts of an auction are anonymous) is
// left out: a journal number alone says only that an application came.
// The journal number is kept, so that a protocol naming an application by
// it alone can be told who applied by another that names both.
func (a application44) participant() (tenderbase.Participant, bool) {
	party := a.Participant.party()
	if len(a.Participants) > 0 {
		party = party.FillFrom(a.Participants[0].party())
	}
	party = party.FillFrom(a.Info.party()).FillFrom(a.Info2.party())
	part := tenderbase.Participant{
		// A masked participant is still an application: its placeholder
		// counts as naming someone below, and is dropped from the record.
		Party: unmasked(party),
		Price: parseAmount(firstOf(a.LastOffer, a.LastOffer2, a.LastPrice, a.WinnerPrice,
			a.FinalPrice, a.AdmittedInfo.SinglePrice, a.Price, a.OfferPrice, a.AdmittedInfo.contractPriceOffer(), a.FirstOffer)),
		Rank:          lotNumberOr(firstOf(a.Rating, a.AdmittedInfo.Rating, a.AdmittedInfo.Rating2), quotationPlaces[cleanText(a.AdmittedInfo.ResultType)]),
		JournalNumber: firstOf(cleanText(a.Journal), cleanText(a.AppNumber)),
	}
	if cleanText(a.AdmittedInfo.SingleAdmit) == "true" {
		// The one application admitted gets the contract.
		part.Rank = 1
	}
	part.Winner = part.Rank == 1
	if party == (tenderbase.Party{}) && part.Price == 0 && part.Rank == 0 {
		return part, false
	}
	return part, true
}

// quotationPlaces are the places the results of a legacy quotation
// (admittedInfo/resultType of fcsProtocolZK*) give, as the scheme words
// them: WIN_OFFER the winner, ADMITTED_OFFER the one application
// considered (admitted, it gets the contract), SECOND_OFFER the best offer
// after the winner's. LIKE_WIN_OFFER (the winner's price, offered later)
// and PASS_OFFER (the others) have no place.
var quotationPlaces = map[string]int{"WIN_OFFER": 1, "ADMITTED_OFFER": 1, "SECOND_OFFER": 2}

// unmasked returns the party without the INN, KPP and OGRN of zeros the
// EIS publishes for a participant it masks: a placeholder names nobody. The
// name it gives ("Участник 1") stays, as the label of the application.
func unmasked(p tenderbase.Party) tenderbase.Party {
	if tenderbase.IsPlaceholderINN(p.INN) {
		p.INN = ""
	}
	if tenderbase.IsPlaceholderINN(p.KPP) {
		p.KPP = ""
	}
	if tenderbase.IsPlaceholderINN(p.OGRN) {
		p.OGRN = ""
	}
	return p
}

// isSingleApplication reports whether a kind of protocol is that of a
// procedure with a single application or a single participant, which the
// law counts as failed while the one participant still gets the contract.
func isSingleApplication(kind string) bool {
	return strings.Contains(kind, "SingleApp") || strings.Contains(kind, "SinglePart")
}

// markSingleWinner makes the only participant of a single-application
// protocol its winner.
func markSingleWinner(p *tenderbase.Protocol) {
	if len(p.Participants) == 1 {
		p.Participants[0].Winner = true
		p.Participants[0].Rank = 1
	}
}

// lotNumberOr parses a lot number or a place; def when it is absent or not
// a positive number.
func lotNumberOr(s string, def int) int {
	if n, err := parseVersion(s, 0); err == nil && n > 0 {
		return n
	}
	return def
}

// attachmentsOf returns the files of a document.
func attachmentsOf(list []attachmentWire) []tenderbase.Attachment {
	var out []tenderbase.Attachment
	for _, f := range attachmentFiles(list) {
		out = append(out, f.attachment)
	}
	return out
}

// checkProtocol rejects a protocol without a document id or a purchase.
func checkProtocol(p *tenderbase.Protocol) error {
	switch {
	case p.ID == "":
		return tenderbase.Errorf(tenderbase.EINVALID, "protocol has no document id")
	case p.PurchaseNumber == "":
		return tenderbase.Errorf(tenderbase.EINVALID, "protocol %s has no purchase number", p.ID)
	}
	return nil
}
