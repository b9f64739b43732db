package benchcorpus

import (
	"fmt"
	"iter"
	"math"
	"math/rand/v2"
	"time"

	"github.com/tenderbase/tenderbase"
)

// Tenders are published over six years.
var (
	corpusFrom = time.Date(2020, 1, 1, 0, 0, 0, 0, tenderbase.Moscow)
	corpusSpan = int(corpusFrom.AddDate(6, 0, 0).Sub(corpusFrom) / time.Minute)
)

// Tenders yields the n tenders of the corpus of seed: the same ones in the
// same order for the same seed, the first m of them the same for any n of
// m or more. Purchase numbers are unique for n up to 100 million.
func Tenders(seed uint64, n int) iter.Seq[*tenderbase.Tender] {
	return func(yield func(*tenderbase.Tender) bool) {
		g := newGenerator(seed)
		for i := range n {
			if !yield(g.tender(i)) {
				return
			}
		}
	}
}

// generator makes the tenders of one seed. It is safe for concurrent use:
// each tender has a random stream of its own.
type generator struct {
	seed  uint64
	vocab *vocabulary
}

func newGenerator(seed uint64) *generator {
	return &generator{seed: seed, vocab: newVocabulary(seed)}
}

// rand returns the random stream of the i-th tender.
func (g *generator) rand(i int) *rand.Rand {
	return rand.New(rand.NewPCG(g.seed, mix(uint64(i))))
}

// mix scrambles a record's index (SplitMix64's finalizer), so that the
// streams of neighbouring records start far apart.
func mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// tender returns the i-th tender.
func (g *generator) tender(i int) *tenderbase.Tender {
	r := g.rand(i)
	c := newCustomer(r)
	law := c.law
	if r.IntN(10) == 0 {
		// Some customers of either kind place under the other law.
		law = map[string]string{tenderbase.Law44: tenderbase.Law223, tenderbase.Law223: tenderbase.Law44}[law]
	}
	m := pick(r, methods[law])
	at := corpusFrom.Add(time.Duration(r.IntN(corpusSpan)) * time.Minute)
	t := &tenderbase.Tender{
		PurchaseNumber:    purchaseNumber(law, c, at, i),
		Law:               law,
		Version:           1,
		Title:             g.title(r, c),
		Status:            pick(r, statuses),
		PlacingMethod:     m.name,
		PlacingMethodCode: m.code,
		Customer:          c.Party,
		Region:            c.region,
		Currency:          "RUB",
		PublishedAt:       at,
		ApplicationsStart: at,
	}
	deadline := at.AddDate(0, 0, 7+r.IntN(24))
	t.ApplicationsDeadline = time.Date(deadline.Year(), deadline.Month(), deadline.Day(), 9, 0, 0, 0, tenderbase.Moscow)
	if m.code[:2] != "EP" {
		e := etps[r.IntN(len(etps))]
		t.ETP = &tenderbase.ETP{Code: e.code, Name: e.name, URL: e.url}
		t.BiddingDate = t.ApplicationsDeadline.AddDate(0, 0, 2).Add(time.Hour)
	}
	t.Lots = []tenderbase.TenderLot{g.lot(r)}
	t.MaxPrice = t.Lots[0].MaxPrice
	t.URL = "https://zakupki.gov.ru/epz/order/notice/view/common-info.html?regNumber=" + t.PurchaseNumber
	return t
}

// title is a head, three to ten words and, as often as not, whom for.
func (g *generator) title(r *rand.Rand, c customer) string {
	s := pick(r, heads) + " " + g.vocab.phrase(r, 3+r.IntN(8))
	if r.Float64() < forCustomerShare {
		s += " для нужд " + c.ShortName
	}
	return s
}

// lot is one to three objects, each named by two to four words.
func (g *generator) lot(r *rand.Rand) tenderbase.TenderLot {
	l := tenderbase.TenderLot{Number: 1, Currency: "RUB"}
	for range 1 + r.IntN(3) {
		class := okpd2Classes[r.IntN(len(okpd2Classes))]
		o := tenderbase.PurchaseObject{
			OKPD2Code: class.code, OKPD2Name: class.name,
			Name:     g.vocab.phrase(r, 2+r.IntN(3)),
			Quantity: float64(1 + r.IntN(500)),
			Unit:     units[r.IntN(len(units))],
			Price:    money(logUniform(r, 100, 1_000_000)),
		}
		o.Sum = money(o.Price * o.Quantity)
		l.Objects = append(l.Objects, o)
		l.MaxPrice = money(l.MaxPrice + o.Sum)
	}
	return l
}

// logUniform returns a number between lo and hi whose logarithm is
// uniform: prices span orders of magnitude.
func logUniform(r *rand.Rand, lo, hi float64) float64 {
	return lo * math.Exp(r.Float64()*math.Log(hi/lo))
}

// money rounds to kopecks.
func money(x float64) float64 { return math.Round(x*100) / 100 }

// purchaseNumber returns a number shaped as the EIS gives them: 19 digits
// under 44-FZ, 11 under 223-FZ, unique by the tender's index.
func purchaseNumber(law string, c customer, at time.Time, i int) string {
	yy := at.Year() % 100
	if law == tenderbase.Law223 {
		return fmt.Sprintf("3%02d%08d", yy, i%100_000_000)
	}
	return fmt.Sprintf("0%02d%06d%02d%08d", c.region%100, c.code%1_000_000, yy, i%100_000_000)
}

// customer is a customer of a type, a place and a number, whose INN and
// registry number follow from them.
type customer struct {
	tenderbase.Party
	region int
	law    string
	code   int
}

func newCustomer(r *rand.Rand) customer {
	ti := pickIndex(r, customerTypes)
	ct, p := customerTypes[ti].v, pick(r, places)
	num := 1 + r.IntN(customerNumbers)
	code := int(mix(uint64(ti)<<32|uint64(p.region)<<16|uint64(num)) % 100_000_000)
	c := customer{region: p.region, law: ct.law, code: code}
	c.Name = fmt.Sprintf(ct.name, num) + " " + p.name
	c.ShortName = fmt.Sprintf(ct.short, num)
	c.INN = inn(p.region, code)
	c.KPP = c.INN[:4] + "01001"
	c.RegNum = fmt.Sprintf("%02d%09d", p.region%100, code)
	return c
}

// inn returns a 10-digit INN of a legal entity in a region with its
// control digit.
func inn(region, code int) string {
	s := fmt.Sprintf("%02d%07d", region%100, code%10_000_000)
	weights := [9]int{2, 4, 10, 3, 5, 9, 4, 6, 8}
	sum := 0
	for i, w := range weights {
		sum += int(s[i]-'0') * w
	}
	return s + string(rune('0'+sum%11%10))
}
