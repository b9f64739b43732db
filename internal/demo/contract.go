package demo

import (
	"fmt"
	"time"

	"github.com/tenderbase/tenderbase"
)

// buildContracts concludes a contract with the winner of up to n completed
// purchases; every third contract of the first dozen gets a second version.
func (b *builder) buildContracts(n int) {
	for _, p := range b.purchases {
		if len(b.contracts) >= n {
			return
		}
		w := p.winner()
		if w == nil {
			continue
		}
		c := b.contract(p, w)
		if c.PublishedAt.After(lastDay) {
			continue
		}
		b.contracts = append(b.contracts, c)
		if len(b.contracts)%3 == 0 && len(b.contracts) <= 12 {
			b.contracts = append(b.contracts, b.supplement(c))
		}
	}
}

func (b *builder) contract(p *purchase, w *tenderbase.Participant) *tenderbase.Contract {
	s, t := b.s, p.latest()
	signed := t.BiddingDate.AddDate(0, 0, s.between(10, 20)).Add(time.Duration(s.between(0, 8)) * time.Hour)
	c := &tenderbase.Contract{
		RegNumber:      contractRegNumber(s, t, signed),
		Law:            t.Law,
		Version:        1,
		PurchaseNumber: t.PurchaseNumber,
		Number:         fmt.Sprintf("%d/%02d-%s", s.between(1, 480), signed.Year()%100, pick(s, []string{"ЭА", "К", "ЗК", "ЕП"})),
		Subject:        t.Title,
		Customer:       t.Customer,
		Suppliers:      []tenderbase.Party{w.Party},
		Region:         t.Region,
		Price:          w.Price,
		Currency:       "RUB",
		SignedAt:       signed,
		PublishedAt:    signed.AddDate(0, 0, s.between(1, 3)),
		StartsAt:       signed,
		EndsAt:         endOfTerm(signed, s.between(3, 12)),
		Objects:        contractObjects(t, w.Price),
	}
	c.Status = tenderbase.ContractExecuting
	if c.EndsAt.Before(lastDay.AddDate(0, 0, -30)) {
		c.Status = tenderbase.ContractCompleted
	}
	c.URL = "https://zakupki.gov.ru/epz/contract/contractCard/common-info.html?reestrNumber=" + c.RegNumber
	return c
}

// endOfTerm returns the last day of the term of months from signed, but no
// later than the end of the demo period, which holds no future dates.
func endOfTerm(signed time.Time, months int) time.Time {
	end := time.Date(signed.Year(), signed.Month()+time.Month(months), 1, 0, 0, 0, 0, msk).AddDate(0, 0, -1)
	if end.After(lastDay) {
		return lastDay
	}
	return end
}

// contractRegNumber returns the registry number: under 44-FZ "3", the
// customer's INN, the year and a serial (19 digits); under 223-FZ "5", the
// INN, the year and a longer serial (23 digits).
func contractRegNumber(s *source, t *tenderbase.Tender, signed time.Time) string {
	yy := pad(signed.Year()%100, 2)
	if t.Law == tenderbase.Law223 {
		return "5" + t.Customer.INN + yy + s.digits(10)
	}
	return "3" + t.Customer.INN + yy + pad(s.between(1, 999999), 6)
}

// contractObjects prices the tender's objects at the winner's discount.
func contractObjects(t *tenderbase.Tender, price float64) []tenderbase.PurchaseObject {
	f := price / t.MaxPrice
	var objs []tenderbase.PurchaseObject
	for _, l := range t.Lots {
		for _, o := range l.Objects {
			o.Price = money(o.Price * f)
			o.Sum = money(o.Price * o.Quantity)
			objs = append(objs, o)
		}
	}
	return objs
}

// supplement returns the version of c after an additional agreement cut
// the quantity by up to ten percent, as 44-FZ allows.
func (b *builder) supplement(c *tenderbase.Contract) *tenderbase.Contract {
	v := *c
	v.Version = 2
	v.PublishedAt = c.PublishedAt.AddDate(0, 1, b.s.between(0, 20))
	if v.PublishedAt.After(lastDay) {
		v.PublishedAt = lastDay
	}
	f := 0.9 + b.s.float()*0.09
	v.Price = money(c.Price * f)
	v.Objects = nil
	for _, o := range c.Objects {
		o.Quantity = float64(int(o.Quantity*f + 0.5))
		o.Sum = money(o.Price * o.Quantity)
		v.Objects = append(v.Objects, o)
	}
	if b.s.chance(0.3) {
		v.Status = tenderbase.ContractTerminated
	}
	return &v
}
