package efrsb

import (
	"strconv"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/source/xmlread"
)

// invitation reads a trading platform's BiddingInvitation: the trade as the
// platform announces it, with its organizer. Its IDEFRSB is the number of
// the manager's Auction message, so that its lots merge with that
// message's; without it, they are keyed by the platform's trade id.
// Persons and companies are attributes of empty elements in this family.
func invitation(m *xmlread.Node) ([]*tenderbase.Lot, error) {
	trade := m.Attr("TradeId")
	auction := m.Child("IDEFRSB").Text()
	key := auction
	if key == "" {
		if trade == "" {
			return nil, tenderbase.Errorf(tenderbase.EINVALID, "fedresurs BiddingInvitation with neither TradeId nor IDEFRSB")
		}
		key = "trade-" + trade
	}
	info := m.Child("TradeInfo")
	app := info.Child("Application")
	base := tenderbase.Lot{
		Source:       tenderbase.LotSourceFedresurs,
		NoticeNumber: auction,
		TradeNumber:  trade,
		BiddingType:  biddingType,
		BiddingForm:  tradeForm(info.Attr("AuctionType")),
		Status:       tenderbase.TenderActive,
		Debtor:       attrParty(firstChild(m.Child("Debtor"), "DebtorCompany", "DebtorPerson")),
		Manager:      attrParty(firstChild(m, "ArbitrManager", "CompanyBankrCommis")),
		Organizer:    attrParty(firstChild(m.Child("TradeOrganizer"), "TradeOrganizerCompany", "TradeOrganizerPerson")),
		CaseNumber:   m.Child("LegalCase").Attr("CaseNumber"),
		BiddingStart: parseTime(firstOf(app.Attr("TimeBegin"), info.Child("OpenForm").Attr("TimeBegin"))),
		BiddingEnd:   parseTime(firstOf(app.Attr("TimeEnd"), info.Child("OpenForm").Attr("TimeEnd"))),
		PublishedAt:  parseTime(m.Attr("EventTime")),
		Currency:     "RUB",
	}
	base.Updated = base.PublishedAt
	base.Region = regionOfINN(base.Debtor.INN)
	var lots []*tenderbase.Lot
	for _, n := range info.Child("LotList").All("Lot") {
		order, err := strconv.Atoi(n.Attr("LotNumber"))
		if err != nil || order <= 0 {
			return nil, tenderbase.Errorf(tenderbase.EINVALID, "a lot of fedresurs BiddingInvitation %s has no LotNumber", tenderbase.Quote(trade))
		}
		l := base
		l.ID, l.LotNumber = lotKey(key, order), order
		l.Description = clean(n.Child("TradeObjectHtml").Text())
		l.Title = title(l.Description)
		l.StartPrice = number(n.Child("StartPrice").Text())
		l.PriceStep = firstNonZero(number(n.Child("StepPrice").Text()), share(l.StartPrice, n.Child("StepPricePercent").Text(), "Percent"))
		l.Deposit = firstNonZero(number(n.Child("Advance").Text()), share(l.StartPrice, n.Child("AdvancePercent").Text(), "Percent"))
		l.PriceReduction = clean(n.Child("PriceReduction").Text())
		l.CategoryCode = n.Child("Classification").Child("IDClass").Text()
		lots = append(lots, &l)
	}
	if len(lots) == 0 {
		return nil, tenderbase.Errorf(tenderbase.EINVALID, "fedresurs BiddingInvitation %s has no lots (TradeInfo/LotList)", tenderbase.Quote(trade))
	}
	return lots, nil
}

// attrParty reads a company or person written as attributes.
func attrParty(n *xmlread.Node) tenderbase.Party {
	if n == nil {
		return tenderbase.Party{}
	}
	return tenderbase.Party{
		INN:       n.Attr("INN"),
		OGRN:      firstOf(n.Attr("OGRN"), n.Attr("OGRNIP")),
		Name:      firstOf(n.Attr("FullName"), personName(n.Attr("LastName"), n.Attr("FirstName"), n.Attr("MiddleName"))),
		ShortName: n.Attr("ShortName"),
	}
}

// firstNonZero returns a, or b when a is 0.
func firstNonZero(a, b float64) float64 {
	if a != 0 {
		return a
	}
	return b
}
