package demo

import (
	"fmt"
	"slices"
	"time"

	"github.com/tenderbase/tenderbase"
)

// purchase is one tender through its versions, as the builder keeps it to
// derive contracts, documents and complaints from it.
type purchase struct {
	versions []*tenderbase.Tender
	customer *party
	subject  subject
}

func (p *purchase) latest() *tenderbase.Tender { return p.versions[len(p.versions)-1] }

// winner returns the winning participant of the latest version, if any.
func (p *purchase) winner() *tenderbase.Participant {
	for i, pt := range p.latest().Participants {
		if pt.Winner {
			return &p.latest().Participants[i]
		}
	}
	return nil
}

// dayAt spreads n items over the demo period: item i of n falls in the i-th
// slice of it, at a random working hour.
func (s *source) dayAt(i, n int) time.Time {
	span := int(lastDay.Sub(firstDay).Hours()/24) - 40
	day := firstDay.AddDate(0, 0, span*i/n+s.intn(span/n+1))
	for day.Weekday() == time.Saturday || day.Weekday() == time.Sunday || newYearHolidays(day) {
		day = day.AddDate(0, 0, 1)
	}
	return day.Add(time.Duration(s.between(9*60, 18*60)) * time.Minute)
}

// newYearHolidays reports whether day falls in the New Year holidays, when
// nothing is published.
func newYearHolidays(day time.Time) bool { return day.Month() == time.January && day.Day() <= 8 }

// purchaseNumber returns a 44-FZ number (the customer's EIS code, the year,
// a serial: 19 digits) or a 223-FZ number (11 digits starting with 3).
func (s *source) purchaseNumber(c *party, law string, at time.Time) string {
	if law == tenderbase.Law223 {
		return "3" + pad(at.Year()%100, 2) + s.digits(8)
	}
	return c.RegNum + pad(at.Year()%100, 2) + pad(s.between(1, 999999), 6)
}

// buildTenders makes n purchases; some get amendments, one is cancelled.
func (b *builder) buildTenders(n int) {
	for i := range n {
		c := b.cast.customers[b.s.intn(len(b.cast.customers))]
		p := b.newPurchase(c, b.s.dayAt(i, n))
		switch {
		case i == n/2:
			b.cancel(p)
		case i%7 == 3:
			b.amend(p, 1+i%2)
		}
		b.settle(p)
		if i%4 == 0 {
			b.attachDocs(p)
		}
		b.purchases = append(b.purchases, p)
	}
}

func (b *builder) newPurchase(c *party, at time.Time) *purchase {
	s := b.s
	subj := pick(s, subjectsFor(c.Sector))
	law := c.Law
	method := pick(s, placingMethods[law])
	t := &tenderbase.Tender{
		PurchaseNumber:    s.purchaseNumber(c, law, at),
		Law:               law,
		Version:           1,
		Title:             b.title(subj, c, at),
		Status:            tenderbase.TenderActive,
		PlacingMethod:     method[0],
		PlacingMethodCode: method[1],
		Customer:          c.Party,
		Region:            c.Region.Code,
		Currency:          "RUB",
		PublishedAt:       at,
		ApplicationsStart: at,
		Contact:           c.contact(),
	}
	t.ApplicationsDeadline = time.Date(at.Year(), at.Month(), at.Day()+s.between(8, 20), 9, 0, 0, 0, msk)
	t.BiddingDate = t.ApplicationsDeadline.AddDate(0, 0, 2)
	e := pick(s, etps)
	t.ETP = &tenderbase.ETP{Code: e.Code, Name: e.Name, URL: e.URL}
	t.Lots = b.tenderLots(subj, law)
	for _, l := range t.Lots {
		t.MaxPrice = money(t.MaxPrice + l.MaxPrice)
	}
	t.URL = noticeURL(t)
	return &purchase{versions: []*tenderbase.Tender{t}, customer: c, subject: subj}
}

// title varies a subject's title the way customers do: a year, a period, a
// customer's own name.
func (b *builder) title(subj subject, c *party, at time.Time) string {
	// Notices placed in autumn are for the next year; the demo's last year
	// is 2026, so its autumn notices are for the current one.
	year := at.Year()
	if at.Month() >= time.September && year < lastDay.Year() {
		year++
	}
	switch b.s.intn(5) {
	case 0:
		return fmt.Sprintf("%s в %d году", subj.Title, year)
	case 1:
		return fmt.Sprintf("%s для нужд %s", subj.Title, c.ShortName)
	case 2:
		return fmt.Sprintf("%s (%s квартал %d г.)", subj.Title, pick(b.s, []string{"I", "II", "I-II", "III-IV"}), year)
	}
	return subj.Title
}

// tenderLots makes one lot under 44-FZ (which allows only one) and one or two
// under 223-FZ.
func (b *builder) tenderLots(subj subject, law string) []tenderbase.TenderLot {
	n := 1
	if law == tenderbase.Law223 && b.s.chance(0.3) {
		n = 2
	}
	var lots []tenderbase.TenderLot
	for i := range n {
		objs := b.objects(subj)
		l := tenderbase.TenderLot{Number: i + 1, Title: subj.Title, Currency: "RUB", Objects: objs}
		if n > 1 {
			l.Title = fmt.Sprintf("%s (лот № %d)", subj.Title, i+1)
		}
		for _, o := range objs {
			l.MaxPrice = money(l.MaxPrice + o.Sum)
		}
		lots = append(lots, l)
	}
	return lots
}

func (b *builder) objects(subj subject) []tenderbase.PurchaseObject {
	s := b.s
	k := s.between(1, len(subj.Objects))
	var objs []tenderbase.PurchaseObject
	for _, name := range subj.Objects[:k] {
		q := float64(s.between(subj.Quantity[0], subj.Quantity[1]))
		price := money(subj.Price[0] + s.float()*(subj.Price[1]-subj.Price[0]))
		objs = append(objs, tenderbase.PurchaseObject{
			OKPD2Code: subj.OKPD2, OKPD2Name: subj.OKPD2Name, Name: name,
			Quantity: q, Unit: subj.Unit, Price: price, Sum: money(q * price),
		})
	}
	return objs
}

func noticeURL(t *tenderbase.Tender) string {
	if t.Law == tenderbase.Law223 {
		return "https://zakupki.gov.ru/epz/order/notice/notice223/common-info.html?purchaseNumber=" + t.PurchaseNumber
	}
	return "https://zakupki.gov.ru/epz/order/notice/ea20/view/common-info.html?regNumber=" + t.PurchaseNumber
}

// amendReasons are why customers amend notices.
var amendReasons = []struct {
	Reason string
	Fields []string
}{
	{"Изменение срока окончания подачи заявок в связи с поступившими запросами о даче разъяснений", []string{"applications_deadline", "bidding_date"}},
	{"Внесение изменений в описание объекта закупки по результатам рассмотрения запроса участника", []string{"lots", "applications_deadline"}},
	{"Уточнение начальной (максимальной) цены контракта на основании повторного изучения рынка", []string{"max_price", "lots"}},
	{"Исполнение предписания контрольного органа в сфере закупок", []string{"lots", "applications_deadline", "bidding_date"}},
}

// amend adds k amended versions to p.
func (b *builder) amend(p *purchase, k int) {
	for range k {
		prev := p.latest()
		t := clone(prev)
		t.Version++
		r := amendReasons[b.s.intn(len(amendReasons))]
		t.PublishedAt = prev.PublishedAt.AddDate(0, 0, b.s.between(2, 5))
		t.ApplicationsDeadline = prev.ApplicationsDeadline.AddDate(0, 0, b.s.between(5, 10))
		t.BiddingDate = t.ApplicationsDeadline.AddDate(0, 0, 2)
		if slices.Contains(r.Fields, "max_price") {
			scaleLots(t, 0.9+b.s.float()*0.08)
		}
		t.Change = &tenderbase.Change{Reason: r.Reason, Fields: r.Fields, PublishedAt: t.PublishedAt}
		p.versions = append(p.versions, t)
	}
}

// cancel publishes a cancelling version of p.
func (b *builder) cancel(p *purchase) {
	t := clone(p.latest())
	t.Version++
	t.Status = tenderbase.TenderCancelled
	t.PublishedAt = t.PublishedAt.AddDate(0, 0, 3)
	t.Change = &tenderbase.Change{
		Reason:      "Отмена определения поставщика (подрядчика, исполнителя) по решению заказчика в связи с изменением потребности",
		Fields:      []string{"status"},
		PublishedAt: t.PublishedAt,
	}
	p.versions = append(p.versions, t)
}

// settle gives the latest version the outcome its dates call for: still
// active near the end of the period, otherwise a winner or a failure.
func (b *builder) settle(p *purchase) {
	t := p.latest()
	if t.Status == tenderbase.TenderCancelled || t.BiddingDate.After(lastDay.AddDate(0, 0, -7)) {
		return
	}
	if b.s.chance(0.12) {
		t.Status = tenderbase.TenderFailed
		return
	}
	t.Status = tenderbase.TenderCompleted
	pool := b.cast.suppliersFor(p.subject.Sector)
	n := min(b.s.between(1, 4), len(pool))
	start := b.s.intn(len(pool))
	for i := range n {
		s := pool[(start+i)%len(pool)]
		// The lowest offer wins, so prices rise with the rank.
		price := money(t.MaxPrice * (0.78 + 0.05*float64(i) + b.s.float()*0.04))
		t.Participants = append(t.Participants, tenderbase.Participant{Party: s.Party, Price: price, Rank: i + 1, Winner: i == 0})
	}
}

func scaleLots(t *tenderbase.Tender, f float64) {
	t.MaxPrice = 0
	for i := range t.Lots {
		l := &t.Lots[i]
		l.MaxPrice = 0
		for j := range l.Objects {
			o := &l.Objects[j]
			o.Price = money(o.Price * f)
			o.Sum = money(o.Price * o.Quantity)
			l.MaxPrice = money(l.MaxPrice + o.Sum)
		}
		t.MaxPrice = money(t.MaxPrice + l.MaxPrice)
	}
}

// clone copies a tender deeply enough that amending the copy leaves the
// earlier version as it was.
func clone(t *tenderbase.Tender) *tenderbase.Tender {
	c := *t
	c.Lots = slices.Clone(t.Lots)
	for i := range c.Lots {
		c.Lots[i].Objects = slices.Clone(t.Lots[i].Objects)
	}
	c.Attachments = slices.Clone(t.Attachments)
	c.Participants = slices.Clone(t.Participants)
	return &c
}
