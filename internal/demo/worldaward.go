package demo

import (
	"fmt"
	"strings"
	"time"

	"github.com/tenderbase/tenderbase"
)

// The results of some of the demo's world tenders, as their publishers
// publish them: a TED or eForms tender gets a contract award notice of its
// own (form F03, worldtedaward.go; subtype 29, worldeformsaward.go), a
// notice of the same buyer and procedure published some weeks after the
// deadline; an OCDS process gets an award
// and contract release merged into the same ocid (worldocds.go). Each
// award names one winner, a firm of the buyer's country with a VAT number
// of its country's form; some drew a single tender.

// awardSeed is the seed of the results, drawn apart from the demo's main
// stream so that the records made before them stay as they were.
const awardSeed = Seed + 34

// worldSupplier is a firm that wins world tenders of one nature (works,
// supplies or services, as worldSubject names them), and its town.
type worldSupplier struct {
	Nature, Name, Town string
}

// worldSuppliers are the demo's winners by ISO 3166 numeric country code,
// a firm of each nature. They are made up, as the demo's Russian suppliers
// are.
var worldSuppliers = map[int][]worldSupplier{
	276: {{"works", "Elbtal Bau GmbH", "Dresden"}, {"supplies", "Rheinwerk Handelsgesellschaft mbH", "Köln"}, {"services", "Hanse Dienstleistungen GmbH & Co. KG", "Hamburg"}},
	40:  {{"works", "Alpenland Bau GmbH", "Linz"}, {"supplies", "Murtal Handels GmbH", "Graz"}, {"services", "Donau Facility Services GmbH", "Wien"}},
	250: {{"works", "Bâtiments du Nord SA", "Roubaix"}, {"supplies", "Rhodanienne de Fournitures SAS", "Villeurbanne"}, {"services", "Atlantique Services SARL", "Nantes"}},
	56:  {{"works", "Ardenne Construction SRL", "Arlon"}, {"supplies", "Meuse Fournitures SA", "Namur"}, {"services", "Sambre Services SRL", "Charleroi"}},
	442: {{"works", "Moselle Bâtiment S.à r.l.", "Esch-sur-Alzette"}, {"supplies", "Alzette Fournitures S.A.", "Luxembourg"}, {"services", "Lux Services Techniques S.A.", "Luxembourg"}},
	372: {{"works", "Corrib Building Ltd", "Galway"}, {"supplies", "Shannon Supplies Ltd", "Limerick"}, {"services", "Liffey Facilities Management Ltd", "Dublin"}},
	528: {{"works", "Maasdelta Bouw B.V.", "Rotterdam"}, {"supplies", "IJssel Levering B.V.", "Zwolle"}, {"services", "Veluwe Dienstverlening B.V.", "Apeldoorn"}},
	752: {{"works", "Mälardalens Bygg AB", "Västerås"}, {"supplies", "Västkust Leverans AB", "Göteborg"}, {"services", "Norrström Fastighetsservice AB", "Stockholm"}},
	616: {{"works", "Wisła Budownictwo S.A.", "Kraków"}, {"supplies", "Bałtyk Dostawy Sp. z o.o.", "Gdynia"}, {"services", "Odra Serwis Sp. z o.o.", "Wrocław"}},
}

// supplierFor returns the firm of w's country that does what w buys.
func supplierFor(w *tenderbase.WorldTender) worldSupplier {
	nature := w.ContractType
	if nature == "goods" { // OCDS's name of supplies
		nature = "supplies"
	}
	for _, sup := range worldSuppliers[w.Country] {
		if sup.Nature == nature {
			return sup
		}
	}
	return worldSuppliers[w.Country][0]
}

// vatNumber returns a VAT identification number of the form of country c:
// its prefix and as many digits as its numbers have (DE and 9 digits, ATU
// and 8, NL, 9, B and 2...).
func (s *source) vatNumber(c country) string {
	switch c.Alpha2 {
	case "AT":
		return "ATU" + s.digits(8)
	case "BE":
		return "BE0" + s.digits(9)
	case "FR":
		return "FR" + s.digits(11)
	case "IE":
		return "IE" + s.digits(7) + string(rune('A'+s.intn(23))) + "H"
	case "LU":
		return "LU" + s.digits(8)
	case "NL":
		return "NL" + s.digits(9) + "B" + pad(s.between(1, 19), 2)
	case "PL":
		return "PL" + s.digits(10)
	case "SE":
		return "SE" + s.digits(10) + "01"
	}
	return c.Alpha2 + s.digits(9)
}

// buildWorldAwards gives every other TED and eForms tender an award notice
// and every other OCDS process its award, where the award would be
// published within the demo's dates. The first of each format drew a
// single tender.
func (b *builder) buildWorldAwards() {
	s, ts := newSource(awardSeed), newSource(tedAwardSeed)
	var notices []*tenderbase.WorldTender
	teds, eforms, ocds := 0, 0, 0
	for _, w := range b.world {
		switch {
		case TEDBorn(w):
			teds++
			if teds%2 == 1 {
				if n, ok := tedAwardNotice(w, ts.worldAward(w, teds == 1), ts); ok {
					notices = append(notices, n)
				}
			}
		case EFormsBorn(w):
			eforms++
			if eforms%2 == 1 {
				if n, ok := eformsAwardNotice(w, s.worldAward(w, eforms == 1), s); ok {
					notices = append(notices, n)
				}
			}
		case OCDSBorn(w):
			ocds++
			if ocds%2 == 1 {
				mergeOCDSAward(w, s.worldAward(w, ocds == 1))
			}
		}
	}
	b.world = append(b.world, notices...)
}

// worldAward returns the award of w's procedure, decided some weeks after
// its deadline, the contract signed a week or two later; single says it
// drew one tender.
func (s *source) worldAward(w *tenderbase.WorldTender, single bool) tenderbase.WorldAward {
	c, _ := countryOf(w.Country)
	sup := supplierFor(w)
	size := pick(s, []string{"micro", "small", "medium", "large"})
	win := tenderbase.WorldWinner{Name: sup.Name, ID: s.vatNumber(c), Country: w.Country, Town: sup.Town, Size: size, SME: size != "large"}
	awarded := localDay(w.Deadline.AddDate(0, 0, s.between(20, 40)), w.Country)
	a := tenderbase.WorldAward{
		Title: w.Title, Awarded: true, Winners: []tenderbase.WorldWinner{win},
		Value:           money(w.Value * (0.7 + 0.35*s.float())),
		Currency:        w.Currency,
		TendersReceived: 1,
		AwardDate:       awarded,
		ContractDate:    localDay(awarded.Add(12*time.Hour).AddDate(0, 0, s.between(7, 15)), w.Country),
		ContractID:      fmt.Sprintf("%d-%04d", awarded.Year(), s.between(1, 2999)),
	}
	if !single {
		a.TendersReceived = s.between(2, 7)
	}
	a.LowestTender, a.HighestTender = a.Value, a.Value
	if a.TendersReceived > 1 {
		a.HighestTender = money(a.Value * (1.05 + 0.3*s.float()))
	}
	if win.SME {
		a.TendersSME = s.between(1, a.TendersReceived)
	}
	return a
}

// localDay returns midnight of t's day in the buyer's time zone, as notices
// write dates; t is best about noon, far from the day's ends.
func localDay(t time.Time, countryCode int) time.Time {
	l := localTime(t, countryCode)
	return time.Date(l.Year(), l.Month(), l.Day(), 0, 0, 0, 0, l.Location())
}

// awardNoticeDelay is how long after the contract's signature its award
// notice is published, at most: the directives give 30 days.
const awardNoticeDelay = 30

// awardNoticeDay returns the day, in UTC, the award notice of a is
// published, some days after the contract's signature; false when it
// comes after the demo's last day.
func (s *source) awardNoticeDay(a tenderbase.WorldAward) (time.Time, bool) {
	at := a.ContractDate.AddDate(0, 0, s.between(5, awardNoticeDelay)).In(time.UTC)
	at = time.Date(at.Year(), at.Month(), at.Day(), 0, 0, 0, 0, time.UTC)
	return at, !at.After(lastDay)
}

// eformsAwardNotice returns the contract award notice of the eForms tender
// w with the award a, numbered after it; false when it would come after
// the demo's last day.
func eformsAwardNotice(w *tenderbase.WorldTender, a tenderbase.WorldAward, s *source) (*tenderbase.WorldTender, bool) {
	at, ok := s.awardNoticeDay(a)
	if !ok {
		return nil, false
	}
	number, _, _ := strings.Cut(strings.TrimPrefix(w.ID, "eforms:"), "-")
	n := *w
	n.ID = fmt.Sprintf("eforms:%08d-%d", atoi(number)+s.between(1000, 90000), at.Year())
	n.URL = tedPage(strings.TrimPrefix(n.ID, "eforms:"))
	n.NoticeType, n.PublishedAt, n.Deadline = "can-standard", at, time.Time{}
	n.Lots = append([]tenderbase.WorldLot(nil), w.Lots...)
	a.LotID, a.Status = n.Lots[0].ID, "selec-w"
	n.Awards = []tenderbase.WorldAward{a}
	n.AwardedValue, n.AwardedCurrency = a.Value, a.Currency
	n.Documents = nil
	for _, d := range w.Documents {
		if d.Description == buyerProfile {
			n.Documents = append(n.Documents, d)
		}
	}
	return &n, true
}

// tedPage returns the page on TED of the eForms notice of publication id
// 00309890-2023, as the eForms reader makes it.
func tedPage(pubID string) string {
	num, year, _ := strings.Cut(pubID, "-")
	return "https://ted.europa.eu/en/notice/-/detail/" + strings.TrimLeft(num, "0") + "-" + year
}

// mergeOCDSAward merges a into the OCDS process w as its award and contract
// release, published a few days after the contract's signature; a
// process whose release would come after the demo's last day keeps its
// tender alone.
func mergeOCDSAward(w *tenderbase.WorldTender, a tenderbase.WorldAward) {
	at := a.ContractDate.AddDate(0, 0, 3).Add(10 * time.Hour).In(time.UTC)
	if at.After(lastDay) {
		return
	}
	// The release gives the number of tenderers (tender.numberOfTenderers),
	// neither the range of the tenders nor how many came from SMEs.
	a.Status, a.LowestTender, a.HighestTender, a.TendersSME = "active", 0, 0, 0
	for i := range a.Winners {
		a.Winners[i].Size = ocdsScales[a.Winners[i].Size]
		a.Winners[i].SME = a.Winners[i].Size != "large"
	}
	w.Awards = []tenderbase.WorldAward{a}
	w.AwardedValue, w.AwardedCurrency = a.Value, a.Currency
	w.Updated, w.Stage = at, "contract"
	w.ReleaseID = strings.TrimPrefix(w.ID, "ocds:") + "-award"
	w.NoticeType = "award, contract"
}
