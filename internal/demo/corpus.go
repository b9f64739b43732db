package demo

import (
	"fmt"
	"iter"
	"strings"
	"time"

	"github.com/tenderbase/tenderbase"
)

// The synthetic corpus is for benchmarks and load tests: many realistic
// records, fast and the same for the same seed. Unlike the demo dataset it
// makes no promise of coherence beyond unique keys.

// Corpus dates are spread over ten years.
var (
	corpusFrom = time.Date(2016, 1, 1, 0, 0, 0, 0, msk)
	corpusSpan = int(lastDay.Sub(corpusFrom).Minutes())
)

// corpus holds the pools a generator draws from.
type corpus struct {
	s         *source
	words     *vocabulary
	customers []*party
	suppliers []*party
}

func newCorpus(seed int64, customers, suppliers int) *corpus {
	s := newSource(seed)
	c := &corpus{s: s, words: words()}
	for i := range customers {
		c.customers = append(c.customers, s.customer(customerKinds[i%len(customerKinds)], pick(s, regions)))
	}
	for range suppliers {
		name := c.companyName()
		p := s.legalParty(pick(s, regions), "Общество с ограниченной ответственностью «"+name+"»", "ООО «"+name+"»")
		c.suppliers = append(c.suppliers, p)
	}
	return c
}

// Tenders yields n synthetic tenders generated from seed: about 45 words of
// search text each, drawn from a few thousand word forms so that some words
// are common and most are rare, with dates over ten years, every region of
// the demo and both laws. Purchase numbers are unique for n up to a million.
func Tenders(seed int64, n int) iter.Seq[*tenderbase.Tender] {
	return func(yield func(*tenderbase.Tender) bool) {
		c := newCorpus(seed, 2000, 500)
		for i := range n {
			if !yield(c.tender(i)) {
				return
			}
		}
	}
}

// Complaints yields n synthetic complaints generated from seed, with unique
// complaint numbers, for export benchmarks.
func Complaints(seed int64, n int) iter.Seq[*tenderbase.Complaint] {
	return func(yield func(*tenderbase.Complaint) bool) {
		c := newCorpus(seed, 1000, 500)
		for i := range n {
			if !yield(c.complaint(i)) {
				return
			}
		}
	}
}

func (c *corpus) date() time.Time {
	return corpusFrom.Add(time.Duration(c.s.intn(corpusSpan)) * time.Minute)
}

func (c *corpus) tender(i int) *tenderbase.Tender {
	s := c.s
	cust := c.customers[s.intn(len(c.customers))]
	at := c.date()
	law := tenderbase.Law44
	if s.chance(0.3) {
		law = tenderbase.Law223
	}
	method := pick(s, placingMethods[law])
	t := &tenderbase.Tender{
		PurchaseNumber: corpusPurchaseNumber(cust, law, at, i),
		Law:            law, Version: 1,
		Title:         c.title(cust),
		Status:        pick(s, []string{tenderbase.TenderCompleted, tenderbase.TenderCompleted, tenderbase.TenderFailed, tenderbase.TenderActive}),
		PlacingMethod: method[0], PlacingMethodCode: method[1],
		Customer:    cust.Party,
		Region:      cust.Region.Code,
		Currency:    "RUB",
		PublishedAt: at,
	}
	t.ApplicationsDeadline = at.AddDate(0, 0, s.between(7, 20))
	lot := tenderbase.TenderLot{Number: 1, Currency: "RUB"}
	if s.chance(0.3) {
		// Notices often repeat the title as the lot's.
		lot.Title = t.Title
	}
	for range s.between(1, 2) {
		lot.Objects = append(lot.Objects, c.object())
		lot.MaxPrice = money(lot.MaxPrice + lot.Objects[len(lot.Objects)-1].Sum)
	}
	t.Lots, t.MaxPrice = []tenderbase.TenderLot{lot}, lot.MaxPrice
	return t
}

func corpusPurchaseNumber(c *party, law string, at time.Time, i int) string {
	yy := pad(at.Year()%100, 2)
	if law == tenderbase.Law223 {
		return "3" + yy + pad(i%100_000_000, 8)
	}
	return c.RegNum + yy + pad(i%1_000_000, 6)
}

var titleHeads = []string{"Поставка", "Поставка", "Выполнение работ по", "Оказание услуг по", "Приобретение", "Закупка"}

// title is a head, a phrase and sometimes a demo subject or the customer.
func (c *corpus) title(cust *party) string {
	s := c.s
	var b strings.Builder
	if s.chance(0.3) {
		b.WriteString(pick(s, subjects).Title)
		b.WriteByte(' ')
	} else {
		b.WriteString(pick(s, titleHeads))
		b.WriteByte(' ')
	}
	c.phrase(&b, s.between(3, 7))
	if s.chance(0.4) {
		b.WriteString(" для нужд ")
		b.WriteString(cust.ShortName)
	}
	return b.String()
}

// phrase writes n words: adjectives and nouns, now and then a connector or
// a number.
func (c *corpus) phrase(b *strings.Builder, n int) {
	s := c.s
	for i := range n {
		if i > 0 {
			b.WriteByte(' ')
		}
		switch r := s.intn(10); {
		case r < 4:
			b.WriteString(c.words.adjs[s.zipf(len(c.words.adjs))])
		case r < 8:
			b.WriteString(c.words.nouns[s.zipf(len(c.words.nouns))])
		case r < 9:
			b.WriteString(pick(s, connectors))
		default:
			fmt.Fprintf(b, "%d", s.between(1, 2000))
		}
	}
}

// object is a purchase object with an OKPD2 code: one of the demo subjects'
// or a code of the classifier's shape, so that codes range from common to
// rare.
func (c *corpus) object() tenderbase.PurchaseObject {
	s := c.s
	var b strings.Builder
	c.phrase(&b, s.between(3, 6))
	subj := pick(s, subjects)
	o := tenderbase.PurchaseObject{OKPD2Code: subj.OKPD2, OKPD2Name: subj.OKPD2Name, Name: b.String(), Unit: subj.Unit}
	if s.chance(0.5) {
		o.OKPD2Code = fmt.Sprintf("%02d.%02d.%02d.%03d", 10+s.zipf(80), 1+s.zipf(50), 10+s.intn(20), s.zipf(200))
	}
	o.Quantity = float64(s.between(subj.Quantity[0], subj.Quantity[1]))
	o.Price = money(subj.Price[0] + s.float()*(subj.Price[1]-subj.Price[0]))
	o.Sum = money(o.Quantity * o.Price)
	return o
}

// companyName makes a supplier's name from two words of the vocabulary.
func (c *corpus) companyName() string {
	n := c.words.nouns[c.s.intn(len(c.words.nouns))]
	r := []rune(n)
	return strings.ToUpper(string(r[:1])) + string(r[1:]) + pick(c.s, []string{"Снаб", "Строй", "Сервис", "Торг", "Пром", "Мед", "Тех"})
}

func (c *corpus) complaint(i int) *tenderbase.Complaint {
	s := c.s
	cust := c.customers[s.intn(len(c.customers))]
	sup := c.suppliers[s.intn(len(c.suppliers))]
	at := c.date()
	var text strings.Builder
	c.phrase(&text, s.between(8, 20))
	title := c.title(cust)
	cp := &tenderbase.Complaint{
		PurchasePlacingDate: at.AddDate(0, 0, -s.between(3, 15)),
		ComplaintNumber:     fmt.Sprintf("%d%09d", at.Year(), i),
		ComplaintID:         pad(10_000_000+i, 8),
		VersionNumber:       1,
		RegNum:              fmt.Sprintf("%d%03d%09d", at.Year(), cust.Region.Code, i),
		PurchaseObjectInfo:  title,
		PurchaseNumber:      corpusPurchaseNumber(cust, tenderbase.Law44, at, i),
		SupplierName:        sup.Name,
		SupplierINN:         sup.INN,
		Text:                fmt.Sprintf("Жалоба %s на действия заказчика %s. %s: %s.", sup.ShortName, cust.ShortName, pick(s, complaintGrounds), text.String()),
		ResultFAS:           pick(s, []string{"", resultNoViolations, resultViolations, resultPartlyValid}),
		DatePubl:            at,
		CustomerINN:         cust.INN,
	}
	cp.ComplaintIndictedTextXML, cp.ComplaintIndictedText = indicted(cust)
	cp.Link = "https://zakupki.gov.ru/epz/complaint/card/complaint-information.html?id=" + cp.ComplaintID
	return cp
}
