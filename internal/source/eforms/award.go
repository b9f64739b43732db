package eforms

import (
	"strconv"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/country"
	"github.com/tenderbase/tenderbase/internal/source/xmlread"
)

// A result notice (efac:NoticeResult) names everything once and refers to
// it by id: a lot result (efac:LotResult) refers to its lot, to the tenders
// received (efac:LotTender) and to the contracts concluded on it
// (efac:SettledContract); a contract refers to the tenders it was
// concluded with; a tender to its tendering party (efac:TenderingParty),
// whose tenderers are organizations of efac:Organizations.

// results holds the parts of a notice's results by their ids.
type results struct {
	tenders   map[string]*xmlread.Node // efac:LotTender
	contracts map[string]*xmlread.Node // efac:SettledContract
	parties   map[string]*xmlread.Node // efac:TenderingParty
	orgs      map[string]*xmlread.Node // efac:Company of each efac:Organization
	lang      string
}

// smeSizes are the sizes of the economic-operator-size list that are small
// or medium enterprises.
var smeSizes = map[string]bool{"micro": true, "small": true, "medium": true, "sme": true}

// readAwards takes the total awarded and an award for each contract of each
// lot result, or one for a lot result without contracts.
func readAwards(w *tenderbase.WorldTender, ext *xmlread.Node, lang string) {
	res := ext.Child("NoticeResult")
	if res == nil {
		return
	}
	if v := res.Child("TotalAmount"); v != nil {
		w.AwardedValue, w.AwardedCurrency = amount(v.Text()), v.Attr("currencyID")
	}
	r := &results{
		tenders: byID(res.All("LotTender")), contracts: byID(res.All("SettledContract")),
		parties: byID(res.All("TenderingParty")), orgs: map[string]*xmlread.Node{}, lang: lang,
	}
	for _, o := range ext.Child("Organizations").All("Organization") {
		c := o.Child("Company")
		r.orgs[c.Child("PartyIdentification", "ID").Text()] = c
	}
	for _, lr := range res.All("LotResult") {
		w.Awards = append(w.Awards, r.lotAwards(lr)...)
	}
}

// lotAwards returns the awards of a lot result: one for each contract it
// names, each won by the tenders of the lot that contract was concluded
// with; or one without a contract, won by the lot's tenders if a winner
// was chosen.
func (r *results) lotAwards(lr *xmlread.Node) []tenderbase.WorldAward {
	base := lotResult(lr)
	tenders := refs(lr.All("LotTender"))
	var out []tenderbase.WorldAward
	for _, ref := range refs(lr.All("SettledContract")) {
		c := r.contracts[ref]
		if c == nil {
			continue
		}
		a := base
		a.ContractID = c.Child("ContractReference", "ID").Text()
		a.Title = oneLine(inLanguage(c.All("Title"), r.lang))
		a.AwardDate, a.ContractDate = date(c.Child("AwardDate").Text(), ""), date(c.Child("IssueDate").Text(), "")
		r.win(&a, r.lotTenders(refs(c.All("LotTender")), tenders, a.LotID))
		out = append(out, a)
	}
	if len(out) > 0 {
		return out
	}
	if base.Awarded {
		r.win(&base, tenders)
	}
	return []tenderbase.WorldAward{base}
}

// lotResult returns what a lot result says of itself: its lot, whether a
// winner was chosen (winner-selection-status selec-w) or why not, the range
// of the tenders and how many were received.
func lotResult(lr *xmlread.Node) tenderbase.WorldAward {
	code := lr.Child("TenderResultCode").Text()
	low, high := lr.Child("LowerTenderAmount"), lr.Child("HigherTenderAmount")
	a := tenderbase.WorldAward{
		LotID: lr.Child("TenderLot", "ID").Text(), Awarded: code == "selec-w",
		Status:       cmpOr(lr.Child("DecisionReason", "DecisionReasonCode").Text(), code),
		LowestTender: amount(low.Text()), HighestTender: amount(high.Text()),
		Currency: cmpOr(low.Attr("currencyID"), high.Attr("currencyID")),
	}
	for _, s := range lr.All("ReceivedSubmissionsStatistics") {
		n, err := strconv.Atoi(s.Child("StatisticsNumeric").Text())
		if err != nil {
			continue
		}
		switch s.Child("StatisticsCode").Text() {
		case "tenders":
			a.TendersReceived = n
		case "t-sme":
			a.TendersSME = n
		}
	}
	return a
}

// lotTenders returns the tenders of a contract that belong to the lot: those
// the lot result names, or, when it names none, those submitted for the lot.
func (r *results) lotTenders(contract, lotResult []string, lot string) []string {
	var out []string
	for _, id := range contract {
		if len(lotResult) > 0 && contains(lotResult, id) ||
			len(lotResult) == 0 && r.tenders[id].Child("TenderLot", "ID").Text() == lot {
			out = append(out, id)
		}
	}
	return out
}

// win gives a the tenderers of the tenders ids as its winners and the sum of
// their amounts, in the currency of the first, as its value.
func (r *results) win(a *tenderbase.WorldAward, ids []string) {
	seen := map[string]bool{}
	valued := false
	for _, id := range ids {
		t := r.tenders[id]
		if t == nil {
			continue
		}
		if v := t.Child("LegalMonetaryTotal", "PayableAmount"); v != nil && (!valued || v.Attr("currencyID") == a.Currency) {
			a.Value += amount(v.Text())
			a.Currency, valued = v.Attr("currencyID"), true
		}
		party := r.parties[t.Child("TenderingParty", "ID").Text()]
		for _, tenderer := range party.All("Tenderer") {
			org := tenderer.Child("ID").Text()
			if seen[org] {
				continue
			}
			seen[org] = true
			if win := r.winner(org, party.Child("Name").Text()); win.Name != "" {
				a.Winners = append(a.Winners, win)
			}
		}
	}
}

// winner returns the organization org as a winner; a tenderer without a
// name of its own is named by its tendering party's name.
func (r *results) winner(org, partyName string) tenderbase.WorldWinner {
	c := r.orgs[org]
	addr := c.Child("PostalAddress")
	id := c.Child("PartyLegalEntity", "CompanyID")
	size := c.Child("CompanySizeCode").Text()
	return tenderbase.WorldWinner{
		Name: cmpOr(partyNames(c, r.lang), partyName), ID: id.Text(), IDScheme: id.Attr("schemeID"),
		Country: country.Numeric(addr.Child("Country", "IdentificationCode").Text()), Town: addr.Child("CityName").Text(),
		Size: size, SME: smeSizes[size],
	}
}

// byID returns the elements by the text of their cbc:ID.
func byID(els []*xmlread.Node) map[string]*xmlread.Node {
	m := make(map[string]*xmlread.Node, len(els))
	for _, el := range els {
		m[el.Child("ID").Text()] = el
	}
	return m
}

// refs returns the ids the references els hold, in their order.
func refs(els []*xmlread.Node) []string {
	out := make([]string, 0, len(els))
	for _, el := range els {
		if id := el.Child("ID").Text(); id != "" {
			out = append(out, id)
		}
	}
	return out
}
