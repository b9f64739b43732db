package demo

import (
	"fmt"
	"strings"
	"time"

	"github.com/tenderbase/tenderbase"
)

// The demo's register of unfair suppliers: some losing bidders of the demo
// tenders are barred for evading a contract in a purchase outside the demo.
// The entries of 44-FZ are of the form used since 2022, which names no
// purchase, so nothing in them contradicts the tenders; those of 223-FZ
// leave the purchase out for the same reason.

// unfairEvery picks every unfairEvery-th losing bidder, unfairCount in all.
const (
	unfairEvery = 3
	unfairCount = 6
)

// Facts of the demo's entries.
const (
	rnpTerm       = 2 // years an entry stays in the register
	headIncluded  = "Лицо, исполняющее функции единоличного исполнительного органа"
	rnpAppeal     = "Решение о включении сведений в реестр недобросовестных поставщиков"
	rnpPrintForm  = "https://zakupki.gov.ru/epz/dishonestsupplier/view/info.html?reestrNumber="
	manualExclude = "MANUAL"
)

// unfairSuppliers returns the demo's entries. They are derived without
// drawing random numbers, so the rest of the dataset stays as it was.
func (b *builder) unfairSuppliers() []*tenderbase.UnfairSupplier {
	heads := map[string]string{}
	for _, p := range b.cast.suppliers {
		heads[p.INN] = p.Head
	}
	var out []*tenderbase.UnfairSupplier
	for i, bidder := range b.losingBidders() {
		if i%unfairEvery != 0 || len(out) == unfairCount {
			continue
		}
		n := len(out)
		included := bidder.when.AddDate(0, 0, 45)
		if included.After(lastDay) {
			included = lastDay.Add(-time.Duration(n+1) * time.Hour)
		}
		u := &tenderbase.UnfairSupplier{
			State: tenderbase.UnfairIncluded, PublishedAt: included, IncludedAt: included,
			Reason: "WINNER_DEVIATION", PublishOrg: b.ufas(bidder.region),
			Supplier: tenderbase.UnfairParty{Type: "U", Name: bidder.Name, INN: bidder.INN, KPP: bidder.KPP},
		}
		if n%3 == 2 {
			law223(u, n, included, b.cast.offices[bidder.region].Party, bidder.Address)
		} else {
			law44(u, n, included, heads[bidder.INN], bidder.ShortName)
		}
		out = append(out, u)
	}
	return out
}

// law44 makes u an entry of the 44-FZ register, of the form since 2022;
// the second is taken out by hand before its term.
func law44(u *tenderbase.UnfairSupplier, n int, included time.Time, head, short string) {
	u.Law, u.Version = tenderbase.Law44, 1
	u.RegistryNumber = fmt.Sprintf("%02d%06d", included.Year()%100, 3001+n*17)
	u.ReasonDate, u.ApplicationDate = day(included).AddDate(0, 0, -3).Format(time.DateOnly), day(included).AddDate(0, 0, -10).Format(time.DateOnly)
	u.ExcludeOn = day(included).AddDate(rnpTerm, 0, 0).Format(time.DateOnly)
	u.URL = rnpPrintForm + u.RegistryNumber
	if u.Supplier.KPP == "" {
		u.Supplier.Type = "P" // an entrepreneur: the person is the supplier
	} else if u.Supplier.ShortName = short; head != "" {
		u.Founders = []tenderbase.UnfairPerson{{Name: head, TypeCode: "1", Type: headIncluded}}
	}
	if n == 1 {
		u.State = tenderbase.UnfairExcluded
		u.Exclusion = &tenderbase.UnfairExclude{Date: included.AddDate(0, 2, 0), Type: manualExclude}
	}
}

// law223 makes u an entry of the 223-FZ register, published by office, of
// the supplier at address ("614117, г. Пермь, ...").
func law223(u *tenderbase.UnfairSupplier, n int, included time.Time, office tenderbase.Party, address string) {
	u.Law, u.Version = tenderbase.Law223, 1
	u.RegistryNumber = fmt.Sprintf("Р%02d%05d", included.Year()%100, 401+n*13)
	u.StateCode = "RG"
	u.ApplicationNumber = fmt.Sprintf("З%02d%05d", included.Year()%100, 1201+n*13)
	u.Decision = &tenderbase.UnfairDoc{Name: rnpAppeal}
	u.Supplier.Type = ""
	u.Supplier.Zip, _, _ = strings.Cut(address, ", ")
	u.Supplier.Address = address
	u.PublishOrg = tenderbase.Party{Name: office.Name, INN: office.INN, KPP: office.KPP}
	u.URL = rnpPrintForm + u.RegistryNumber
}

// bidder is a losing bidder of a demo tender, and when it lost.
type bidder struct {
	tenderbase.Party
	region int
	when   time.Time
}

// losingBidders returns the participants of completed tenders who did not
// win, each once, in the order of the tenders.
func (b *builder) losingBidders() []bidder {
	seen := map[string]bool{}
	var out []bidder
	for _, p := range b.purchases {
		t := p.latest()
		if t.Status != tenderbase.TenderCompleted {
			continue
		}
		for _, pt := range t.Participants {
			if pt.Winner || pt.INN == "" || seen[pt.INN] {
				continue
			}
			seen[pt.INN] = true
			out = append(out, bidder{Party: pt.Party, region: t.Region, when: t.BiddingDate})
		}
	}
	return out
}

// ufas returns the antimonopoly office of region code r by its name and
// its EIS registry number (11 digits, of the demo's making).
func (b *builder) ufas(r int) tenderbase.Party {
	return tenderbase.Party{RegNum: fmt.Sprintf("01%02d1000%03d", r, r), Name: b.cast.offices[r].Name}
}
