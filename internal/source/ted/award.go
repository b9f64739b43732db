package ted

import (
	"cmp"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/country"
	"github.com/tenderbase/tenderbase/internal/source/xmlread"
)

// awards reads the results a form publishes: the <AWARD_CONTRACT>s of the
// R2.0.9 award forms (F03, F06, F15, F20, F21-F25), the <RESULTS> of a
// design contest (F13) and the <AWARD_OF_CONTRACT>s of the R2.0.8 forms.
// A modification notice (F20) gives its award the values before and after
// the modification.
func awards(form *xmlread.Node) []tenderbase.WorldAward {
	var out []tenderbase.WorldAward
	for _, a := range form.All("AWARD_CONTRACT") {
		out = append(out, awardContract(a))
	}
	for _, r := range form.All("RESULTS") {
		out = append(out, contestResult(r))
	}
	for _, name := range []string{"AWARD_OF_CONTRACT", "AWARD_OF_CONTRACT_DEFENCE"} {
		for _, a := range form.FindAll(name) {
			out = append(out, awardOfContract(a))
		}
	}
	if mod := form.Child("MODIFICATIONS_CONTRACT"); mod != nil {
		for i := range out {
			modified(&out[i], mod)
		}
	}
	return out
}

// awardContract maps an R2.0.9 <AWARD_CONTRACT>.
func awardContract(a *xmlread.Node) tenderbase.WorldAward {
	aw := tenderbase.WorldAward{
		LotID: a.Child("LOT_NO").Text(), ContractID: a.Child("CONTRACT_NO").Text(), Title: a.Child("TITLE").Line(),
	}
	if no := a.Child("NO_AWARDED_CONTRACT"); no != nil {
		aw.Status = reason(no)
		return aw
	}
	c := a.Child("AWARDED_CONTRACT")
	aw.Awarded = c != nil
	aw.ContractDate = isoDay(c.Child("DATE_CONCLUSION_CONTRACT").Text())
	tenders := within(c, "TENDERS")
	aw.TendersReceived = count(tenders.Child("NB_TENDERS_RECEIVED"))
	aw.TendersSME = count(tenders.Child("NB_TENDERS_RECEIVED_SME"))
	for _, k := range within(c, "CONTRACTORS").All("CONTRACTOR") {
		aw.Winners = append(aw.Winners, winner(k.Child("ADDRESS_CONTRACTOR"), k.Child("SME") != nil))
	}
	v := within(c, "VALUES")
	aw.Value, aw.Currency = priced(v.Child("VAL_TOTAL"))
	aw.Estimated, _ = priced(v.Child("VAL_ESTIMATED_TOTAL"))
	if r := v.Child("VAL_RANGE_TOTAL"); r != nil {
		aw.LowestTender, aw.HighestTender = money(r.Child("LOW")), money(r.Child("HIGH"))
		aw.Currency = cmp.Or(aw.Currency, r.Attr("CURRENCY"))
	}
	return aw
}

// within returns the child of c named wrapper, or c itself: the first
// R2.0.9 schemas (S02) put the tenders, contractors and values of an
// award straight in AWARDED_CONTRACT, the later ones in TENDERS,
// CONTRACTORS and VALUES.
func within(c *xmlread.Node, wrapper string) *xmlread.Node {
	if w := c.Child(wrapper); w != nil {
		return w
	}
	return c
}

// contestResult maps the <RESULTS> of a design contest (F13): the prize
// awarded, its winners, the number of participants and the jury's date.
func contestResult(r *xmlread.Node) tenderbase.WorldAward {
	aw := tenderbase.WorldAward{LotID: r.Child("LOT_NO").Text(), ContractID: r.Child("CONTRACT_NO").Text(), Title: r.Child("TITLE").Line()}
	if no := r.Child("NO_AWARDED_PRIZE"); no != nil {
		aw.Status = reason(no)
		return aw
	}
	p := r.Child("AWARDED_PRIZE")
	aw.Awarded = p != nil
	aw.AwardDate = isoDay(p.Child("DATE_DECISION_JURY").Text())
	aw.TendersReceived = count(cmp.Or(p.Child("NB_PARTICIPANTS"), p.Child("PARTICIPANTS", "NB_PARTICIPANTS")))
	aw.TendersSME = count(p.Child("NB_PARTICIPANTS_SME"))
	for _, k := range append(p.All("WINNER"), p.Child("WINNERS").All("WINNER")...) {
		aw.Winners = append(aw.Winners, winner(k.Child("ADDRESS_WINNER"), k.Child("SME") != nil))
	}
	aw.Value, aw.Currency = priced(p.Child("VAL_PRIZE"))
	return aw
}

// awardOfContract maps an R2.0.8 <AWARD_OF_CONTRACT>: one contractor, the
// date of the award decision, the offers received and the values in
// <VALUE_COST>, whose currency is on the enclosing element.
func awardOfContract(a *xmlread.Node) tenderbase.WorldAward {
	aw := tenderbase.WorldAward{
		LotID: a.Child("LOT_NUMBER").Text(), ContractID: a.Child("CONTRACT_NUMBER").Text(), Title: a.Child("CONTRACT_TITLE").Line(),
		Awarded: true, AwardDate: dayMonthYear(a.Child("CONTRACT_AWARD_DATE")),
		TendersReceived: count(a.Child("OFFERS_RECEIVED_NUMBER")),
	}
	if op := a.Child("ECONOMIC_OPERATOR_NAME_ADDRESS"); op != nil {
		aw.Winners = []tenderbase.WorldWinner{winner(op, false)}
	}
	info := a.Child("CONTRACT_VALUE_INFORMATION")
	aw.Value, aw.Currency = cost(info.Child("COSTS_RANGE_AND_CURRENCY_WITH_VAT_RATE"))
	aw.Estimated, _ = cost(info.Child("INITIAL_ESTIMATED_TOTAL_VALUE_CONTRACT"))
	return aw
}

// modified gives an award of a modification notice (F20) the contract's
// value after the modification, and the one before.
func modified(aw *tenderbase.WorldAward, mod *xmlread.Node) {
	after, cur := priced(mod.Find("VAL_TOTAL_AFTER"))
	before, curBefore := priced(mod.Find("VAL_TOTAL_BEFORE"))
	if after == 0 && before == 0 {
		return
	}
	aw.Status = "modified"
	aw.PreviousValue = before
	if after != 0 {
		aw.Value, aw.Currency = after, cur
	}
	aw.Currency = cmp.Or(aw.Currency, curBefore)
}

// winner maps a contractor's address block, R2.0.9's ADDRESS_CONTRACTOR
// (or ADDRESS_WINNER) or R2.0.8's ECONOMIC_OPERATOR_NAME_ADDRESS, where the
// name is nested in an ORGANISATION.
func winner(addr *xmlread.Node, sme bool) tenderbase.WorldWinner {
	return tenderbase.WorldWinner{
		Name:    addr.Find("OFFICIALNAME").Line(),
		ID:      nationalID(addr.Find("NATIONALID").Text()),
		Country: country.Numeric(addr.Find("COUNTRY").Attr("VALUE")),
		Town:    addr.Find("TOWN").Line(),
		SME:     sme,
	}
}

// reason returns why a lot was not awarded, as published: the name of the
// element inside NO_AWARDED_CONTRACT (PROCUREMENT_UNSUCCESSFUL,
// PROCUREMENT_DISCONTINUED).
func reason(no *xmlread.Node) string {
	if len(no.Children) == 0 {
		return no.Name
	}
	return no.Children[0].Name
}

// priced reads an amount element with its CURRENCY attribute.
func priced(n *xmlread.Node) (float64, string) {
	return money(n), n.Attr("CURRENCY")
}

// cost reads R2.0.8's <VALUE_COST> inside n, with the currency n carries.
func cost(n *xmlread.Node) (float64, string) {
	return money(n.Child("VALUE_COST")), n.Attr("CURRENCY")
}

// money reads an amount: R2.0.8's FMTVAL attribute where given (a plain
// decimal), else the text, which R2.0.8 writes grouped with a decimal comma
// ("1 234 567,89") and R2.0.9 as a plain decimal ("200000.00").
func money(n *xmlread.Node) float64 {
	if f := n.Attr("FMTVAL"); f != "" {
		if v, err := strconv.ParseFloat(f, 64); err == nil {
			return v
		}
	}
	return amount(n.Content())
}

// amount reads a published number: spaces of any kind group digits; a
// comma is the decimal mark, and the dots beside it group digits.
func amount(s string) float64 {
	s = strings.Map(func(r rune) rune {
		switch r {
		case ' ', '\u00a0', '\u202f', '\u2009', '\t', '\n', '\r':
			return -1
		}
		return r
	}, s)
	if strings.Contains(s, ",") {
		s = strings.ReplaceAll(strings.ReplaceAll(s, ".", ""), ",", ".")
	} else if strings.Count(s, ".") > 1 {
		s = strings.ReplaceAll(s, ".", "")
	}
	v, _ := strconv.ParseFloat(s, 64)
	return v
}

func count(n *xmlread.Node) int {
	v, _ := strconv.Atoi(n.Text())
	return v
}

// isoDay reads R2.0.9's form dates, 2018-08-23.
func isoDay(s string) time.Time {
	t, _ := time.Parse(time.DateOnly, s)
	return t
}

// dayMonthYear reads R2.0.8's dates, given as <DAY>, <MONTH> and <YEAR>.
func dayMonthYear(n *xmlread.Node) time.Time {
	if n == nil {
		return time.Time{}
	}
	d, _ := strconv.Atoi(n.Child("DAY").Text())
	m, _ := strconv.Atoi(n.Child("MONTH").Text())
	y, _ := strconv.Atoi(n.Child("YEAR").Text())
	return isoDay(fmt.Sprintf("%04d-%02d-%02d", y, m, d))
}
