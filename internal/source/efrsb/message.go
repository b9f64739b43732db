package efrsb

import (
	"strconv"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/source/xmlread"
)

// tradeForms name the forms of a bankruptcy trade (TradeType) as a Russian
// reader knows them.
var tradeForms = map[string]string{
	"OpenedAuction":    "Открытый аукцион",
	"ClosedAuction":    "Закрытый аукцион",
	"OpenedConcours":   "Открытый конкурс",
	"ClosedConcours":   "Закрытый конкурс",
	"PublicOffer":      "Публичное предложение",
	"ClosePublicOffer": "Закрытое публичное предложение",
}

// biddingType is the bidding type of every lot of fedresurs.
const biddingType = "bankruptcy"

// message reads the lots of an arbitration manager's message (an auction,
// its change or its result), or the event of a cancellation or annulment.
// e is the REST envelope of the message, empty for one read from an XML
// file.
func message(m *xmlread.Node, e envelope) ([]tenderbase.Record, error) {
	info := m.Child("MessageInfo")
	kind := firstOf(info.Attr("MessageType"), e.Type)
	number := firstOf(e.Number, m.Child("Number").Text(), m.Child("Id").Text())
	var body *xmlread.Node
	if info != nil && len(info.Children) > 0 {
		body = info.Children[0]
	}
	if body == nil {
		return nil, tenderbase.Errorf(tenderbase.EINVALID, "fedresurs message %s has no MessageInfo body", tenderbase.Quote(number))
	}
	base := tenderbase.Lot{
		Source:      tenderbase.LotSourceFedresurs,
		BiddingType: biddingType,
		Debtor:      bankrupt(m.Child("Bankrupt")),
		Manager:     publisher(m.Child("Publisher")),
		CaseNumber:  clean(m.Child("CaseNumber").Text()),
		PublishedAt: parseTime(firstOf(e.DatePublish, m.Child("PublishDate").Text())),
		URL:         messageURL(firstOf(e.GUID, m.Child("MessageGUID").Text())),
	}
	base.Region = regionOfINN(base.Debtor.INN)
	switch kind {
	case "Auction", "Auction2":
		if number == "" {
			return nil, tenderbase.Errorf(tenderbase.EINVALID, "fedresurs %s message without its number: the REST envelope or <Number> gives it", kind)
		}
		base.Status = tenderbase.TenderActive
		base.TermsAt = base.PublishedAt
		return records(auctionLots(body, number, base))
	case "ChangeAuction", "ChangeAuction2":
		changed := firstOf(body.Child("IdChangedMessage").Text(), body.Child("ChangedMessageNumber").Text())
		if changed == "" {
			return nil, tenderbase.Errorf(tenderbase.EINVALID, "fedresurs %s message %s does not name the message it changes", kind, tenderbase.Quote(number))
		}
		base.Status = tenderbase.TenderActive
		base.Updated, base.TermsAt = base.PublishedAt, base.PublishedAt
		return records(auctionLots(body, changed, base))
	case "TradeResult", "TradeResult2":
		auction := body.Child("IdAuctionMessage").Text()
		if auction == "" {
			return nil, tenderbase.Errorf(tenderbase.EINVALID, "fedresurs %s message %s does not name its auction (IdAuctionMessage)", kind, tenderbase.Quote(number))
		}
		// The lot's page stays its announcement's: a result is linked from it.
		base.Updated, base.URL = base.PublishedAt, ""
		return records(resultLots(body, auction, number, base))
	case "CancelAuctionTradeResult", "Annul":
		return cancellation(body, kind, number, base)
	}
	return nil, tenderbase.Errorf(tenderbase.EINVALID, "fedresurs message %s is of type %s, not an auction, its change or its result", tenderbase.Quote(number), kind)
}

// cancellation reads a CancelAuctionTradeResult or an Annul message: the
// event that cancels the auction or the result it names, by that
// message's number, and gives Text as the reason.
func cancellation(body *xmlread.Node, kind, number string, base tenderbase.Lot) ([]tenderbase.Record, error) {
	target := firstOf(body.Child("IdCanceledMessage").Text(), body.Child("IdAnnuledMessage").Text())
	if target == "" {
		return nil, tenderbase.Errorf(tenderbase.EINVALID, "fedresurs %s message %s does not name the message it cancels", kind, tenderbase.Quote(number))
	}
	if number == "" {
		return nil, tenderbase.Errorf(tenderbase.EINVALID, "fedresurs %s message without its number: the REST envelope or <Number> gives it", kind)
	}
	e := &tenderbase.LotEvent{
		ID: "efrsb-" + number, Source: tenderbase.LotSourceFedresurs, Type: tenderbase.LotEventCancellation,
		Document: kind, Number: number, Message: target, PublishedAt: base.PublishedAt,
		Reason: clean(body.Child("Text").Text()), URL: base.URL,
	}
	if kind == "Annul" {
		e.Type = tenderbase.LotEventAnnulment
	}
	return []tenderbase.Record{e}, nil
}

// records returns lots as records.
func records(lots []*tenderbase.Lot, err error) ([]tenderbase.Record, error) {
	if err != nil {
		return nil, err
	}
	out := make([]tenderbase.Record, len(lots))
	for i, l := range lots {
		out[i] = l
	}
	return out, nil
}

// auctionLots reads the lots of an Auction or ChangeAuction body; number
// is the Auction message they belong to.
func auctionLots(body *xmlread.Node, msg string, base tenderbase.Lot) ([]*tenderbase.Lot, error) {
	app := body.Child("Application")
	base.NoticeNumber = msg
	base.BiddingForm = tradeForm(body.Child("TradeType").Text())
	base.Platform = clean(body.Child("TradeSite").Text())
	base.BiddingStart = parseTime(firstOf(app.Child("TimeBegin").Text(), app.Child("DateTimeBegin").Text()))
	base.BiddingEnd = parseTime(firstOf(app.Child("TimeEnd").Text(), app.Child("DateTimeEnd").Text()))
	base.AuctionDate = parseTime(firstOf(body.Child("Date").Text(), body.Child("AuctionDateTime").Text()))
	base.Currency = "RUB"
	var lots []*tenderbase.Lot
	for _, n := range body.Child("LotTable").Children {
		order, err := strconv.Atoi(n.Child("Order").Text())
		if err != nil || order <= 0 {
			return nil, tenderbase.Errorf(tenderbase.EINVALID, "a lot of fedresurs message %s has no Order (its number): %q", tenderbase.Quote(msg), n.Child("Order").Text())
		}
		l := base
		l.ID, l.LotNumber = lotKey(msg, order), order
		l.Description = clean(n.Child("Description").Text())
		l.Title = title(l.Description)
		l.StartPrice = number(n.Child("StartPrice").Text())
		l.PriceStep = share(l.StartPrice, n.Child("Step").Text(), n.Child("AuctionStepUnit").Text())
		l.Deposit = share(l.StartPrice, n.Child("Advance").Text(), n.Child("AdvanceStepUnit").Text())
		l.PriceReduction = clean(n.Child("PriceReduction").Text())
		if c := n.Child("ClassifierCollection").Children; len(c) > 0 {
			l.Category, l.CategoryCode = clean(c[0].Child("Name").Text()), c[0].Child("Code").Text()
		}
		lots = append(lots, &l)
	}
	if len(lots) == 0 {
		return nil, tenderbase.Errorf(tenderbase.EINVALID, "fedresurs auction message %s has no lots (LotTable)", tenderbase.Quote(msg))
	}
	return lots, nil
}

// share returns an amount the message gives either in roubles or, with
// unit Percent, as a percentage of the start price.
func share(start float64, value, unit string) float64 {
	v := number(value)
	if unit == "Percent" {
		return float64(int64(start*v+0.5)) / 100
	}
	return v
}

// tradeForm names a TradeType in Russian, or returns it as published.
func tradeForm(t string) string {
	if name, ok := tradeForms[t]; ok {
		return name
	}
	return t
}

// resultLots reads the lots of a TradeResult body: how each lot of the
// auction message ended.
func resultLots(body *xmlread.Node, auction, msg string, base tenderbase.Lot) ([]*tenderbase.Lot, error) {
	base.NoticeNumber = auction
	var lots []*tenderbase.Lot
	for _, n := range body.Child("LotTable").Children {
		order, err := strconv.Atoi(n.Child("Order").Text())
		if err != nil || order <= 0 {
			return nil, tenderbase.Errorf(tenderbase.EINVALID, "a lot of fedresurs result %s has no Order (its number)", tenderbase.Quote(msg))
		}
		l := base
		l.ID, l.LotNumber = lotKey(auction, order), order
		l.Description = clean(n.Child("Description").Text())
		l.Title = title(l.Description)
		l.SourceStatus = n.Child("LotStatus").Text()
		l.Result = lotResult(n, l.SourceStatus)
		l.Result.PublishedAt, l.Result.Document, l.Result.Message = base.PublishedAt, "TradeResult", msg
		switch l.Result.Outcome {
		case tenderbase.LotSold:
			l.Status = tenderbase.TenderCompleted
		case tenderbase.LotFailed:
			l.Status = tenderbase.TenderFailed
		}
		lots = append(lots, &l)
	}
	if len(lots) == 0 {
		return nil, tenderbase.Errorf(tenderbase.EINVALID, "fedresurs result message %s has no lots (LotTable)", tenderbase.Quote(msg))
	}
	return lots, nil
}

// lotResult reads the result of one lot: its winner (or its only
// participant, who buys it) and the price offered, or why it failed.
func lotResult(n *xmlread.Node, status string) *tenderbase.LotResult {
	r := &tenderbase.LotResult{Reason: clean(n.Child("Basis").Text())}
	winner := n.Child("Winner")
	if winner == nil {
		winner = n.Child("Buyer")
	}
	if p := firstChild(winner, "ParticipantCompany", "ParticipantPerson"); p != nil {
		r.Winner = participant(p)
		r.Price = number(p.Child("PriceOffer").Text())
	}
	switch {
	case status == "TradeSuccessed" || status == "TradeFailedSoldToTheOnlyParticipant" || r.Winner.Name != "":
		r.Outcome = tenderbase.LotSold
	default:
		r.Outcome = tenderbase.LotFailed
	}
	return r
}

// firstChild returns the first child of n with one of names, or nil.
func firstChild(n *xmlread.Node, names ...string) *xmlread.Node {
	for _, name := range names {
		if c := n.Child(name); c != nil {
			return c
		}
	}
	return nil
}

// participant reads a participant of a trade, a company or a person; the
// elements are named in either case (INN, Inn).
func participant(p *xmlread.Node) tenderbase.Party {
	return tenderbase.Party{
		INN:     firstOf(p.Child("INN").Text(), p.Child("Inn").Text()),
		OGRN:    firstOf(p.Child("OGRN").Text(), p.Child("Ogrn").Text(), p.Child("OGRNIP").Text()),
		Name:    firstOf(p.Child("Name").Text(), p.Child("FullName").Text(), personName(p.Child("LastName").Text(), p.Child("FirstName").Text(), p.Child("MiddleName").Text())),
		Address: clean(p.Child("Address").Text()),
	}
}

// bankrupt reads the debtor of a message: a company (Bankrupt.Company.v2)
// or a person (Bankrupt.Person.v2), told apart by their elements.
func bankrupt(b *xmlread.Node) tenderbase.Party {
	if b == nil {
		return tenderbase.Party{}
	}
	fio := b.Child("Fio")
	return tenderbase.Party{
		INN:     b.Child("Inn").Text(),
		OGRN:    firstOf(b.Child("Ogrn").Text(), b.Child("Ogrnip").Text()),
		Name:    firstOf(b.Child("Name").Text(), personName(fio.Child("LastName").Text(), fio.Child("FirstName").Text(), fio.Child("MiddleName").Text())),
		Address: clean(b.Child("Address").Text()),
	}
}

// publisher reads who published a message: an arbitration manager, or an
// organization (the deposit insurance agency, a multifunctional centre).
func publisher(p *xmlread.Node) tenderbase.Party {
	if p == nil {
		return tenderbase.Party{}
	}
	fio := p.Child("Fio")
	party := tenderbase.Party{
		INN:     p.Child("Inn").Text(),
		OGRN:    p.Child("Ogrn").Text(),
		Name:    firstOf(p.Child("Name").Text(), personName(fio.Child("LastName").Text(), fio.Child("FirstName").Text(), fio.Child("MiddleName").Text())),
		Address: clean(p.Child("CorrespondenceAddress").Text()),
	}
	party.Contact.Email = clean(p.Child("Email").Text())
	return party
}
