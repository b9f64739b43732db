package demo

import (
	"fmt"
	"strings"
	"time"

	"github.com/tenderbase/tenderbase"
)

// The demo's purchase plans: the first two 44-FZ purchases of one customer
// each (of different customers) are positions of their customers'
// plan-schedules, each beside a special purchase position of small
// purchases; the first 223-FZ purchase of one lot is an item of its
// customer's purchase plan, beside an item for small and medium businesses
// with no notice yet. The notices name the positions they were published
// from. Plans draw nothing from the seed's source, so that the rest of the
// demo stays as it was.

// smallPurchases is the special purchase position every demo plan-schedule
// holds: purchases of up to the sum 44-FZ lets go without a procedure.
const smallPurchases = "Закупки в соответствии с п. 4 ч. 1 ст. 93 Федерального закона № 44-ФЗ"

// buildPlans plans the purchases and links their notices to the positions.
func (b *builder) buildPlans() {
	customers := map[string]bool{}
	linked44, linked223 := 0, false
	for _, p := range b.purchases {
		t := p.versions[0]
		if len(t.Customers) > 0 || customers[t.Customer.INN] {
			continue
		}
		switch {
		case t.Law == tenderbase.Law44 && linked44 < 2:
			linked44++
		case t.Law == tenderbase.Law223 && !linked223 && len(t.Lots) == 1:
			linked223 = true
		default:
			continue
		}
		customers[t.Customer.INN] = true
		positions, link := planFor(t)
		b.plans = append(b.plans, positions...)
		for _, v := range p.versions {
			v.Plans = []tenderbase.PlanLink{link}
		}
	}
}

// planFor returns the positions of the plan of the customer of notice t,
// the first of them the purchase t, and the link of t to it.
func planFor(t *tenderbase.Tender) ([]*tenderbase.PlannedPurchase, tenderbase.PlanLink) {
	if t.Law == tenderbase.Law223 {
		return purchasePlanFor(t)
	}
	return tenderPlanFor(t)
}

// tenderPlanFor returns the plan-schedule positions of 44-FZ notice t: the
// purchase, numbered and coded as the EIS does (the plan's year, the
// customer's registry number; the IKZ of the year, the customer code of
// the notice, the purchase's number, its OKPD2 class and KVR 244), and the
// small purchases of the year and the two after it.
func tenderPlanFor(t *tenderbase.Tender) ([]*tenderbase.PlannedPurchase, tenderbase.PlanLink) {
	c := t.Customer
	year := t.PublishedAt.Year()
	plan := tenderbase.PlannedPurchase{
		Law:         tenderbase.Law44,
		PlanNumber:  fmt.Sprintf("%d%s001", year, c.RegNum),
		PlanVersion: 1,
		PlanYears:   []int{year, year + 1, year + 2},
		Customer:    tenderbase.Party{INN: c.INN, KPP: c.KPP, RegNum: c.RegNum, Name: c.Name, Address: c.Address},
		Region:      t.Region,
		Currency:    "RUB",
		PublishYear: year,
		Status:      tenderbase.PlannedActive,
		PublishedAt: planPublished(t, 20),
	}
	plan.URL = "https://zakupki.gov.ru/epz/orderplan/printForm/pg2020PF/view.html?printFormId=" + plan.PlanNumber[4:12]
	ikz := func(n int, class string) string {
		return fmt.Sprintf("%02d3%s%s%04d000%s244", year%100, c.INN, c.KPP, n, class)
	}
	bought := plan
	bought.PositionNumber, bought.IKZ = plan.PlanNumber+"000001", ikz(1, okpd2Class(t))
	bought.Object, bought.Objects = t.Title, plannedObjects(t)
	bought.MaxPrice = t.MaxPrice
	bought.Amounts = []tenderbase.YearAmount{{Year: year, Amount: t.MaxPrice}, {Year: year + 1}, {Year: year + 2}}
	small := plan
	small.PositionNumber, small.IKZ = plan.PlanNumber+"000002", ikz(2, "0000")
	small.Object = smallPurchases
	small.Amounts = []tenderbase.YearAmount{{Year: year, Amount: 600000}, {Year: year + 1, Amount: 600000}, {Year: year + 2, Amount: 600000}}
	small.MaxPrice = 1800000
	return []*tenderbase.PlannedPurchase{&bought, &small}, tenderbase.PlanLink{PositionNumber: bought.PositionNumber, IKZ: bought.IKZ}
}

// planPublished returns when the plan of notice t was published: days
// before it, and not before the demo's period.
func planPublished(t *tenderbase.Tender, days int) time.Time {
	return later(t.PublishedAt.AddDate(0, 0, -days), firstDay.Add(10*time.Hour))
}

// later returns the later of a and b.
func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// okpd2Class returns the first four digits of the OKPD2 class of the
// notice's objects, or 0000 when they are of several.
func okpd2Class(t *tenderbase.Tender) string {
	class := ""
	for _, o := range plannedObjects(t) {
		c := strings.ReplaceAll(o.OKPD2Code, ".", "")
		if len(c) < 4 || (class != "" && class != c[:4]) {
			return "0000"
		}
		class = c[:4]
	}
	return class
}

// plannedObjects returns the OKPD2 classes of the notice's objects, each
// once: a plan-schedule position names classes, not goods.
func plannedObjects(t *tenderbase.Tender) []tenderbase.PlannedObject {
	var objects []tenderbase.PlannedObject
	seen := map[string]bool{}
	for _, l := range t.Lots {
		for _, o := range l.Objects {
			if o.OKPD2Code != "" && !seen[o.OKPD2Code] {
				seen[o.OKPD2Code] = true
				objects = append(objects, tenderbase.PlannedObject{OKPD2Code: o.OKPD2Code, OKPD2Name: o.OKPD2Name, Name: o.OKPD2Name})
			}
		}
	}
	return objects
}

// purchasePlanFor returns the items of the 223-FZ purchase plan of the
// customer of notice t: the notice's one lot, placed, and a maintenance
// contract for small and medium businesses, planned two months later.
func purchasePlanFor(t *tenderbase.Tender) ([]*tenderbase.PlannedPurchase, tenderbase.PlanLink) {
	c := t.Customer
	year := t.PublishedAt.Year()
	l := t.Lots[0]
	plan := tenderbase.PlannedPurchase{
		Law:               tenderbase.Law223,
		PlanNumber:        "2" + c.INN[1:10],
		PlanVersion:       1,
		PlanYears:         []int{year},
		Customer:          tenderbase.Party{INN: c.INN, KPP: c.KPP, OGRN: c.OGRN, Name: c.Name, ShortName: c.ShortName, Address: c.Address},
		Region:            t.Region,
		PublishYear:       year,
		PlacingMethod:     t.PlacingMethod,
		PlacingMethodCode: t.PlacingMethodCode,
		Electronic:        true,
		ContractEnd:       fmt.Sprintf("%d-12-31", year),
		PublishedAt:       planPublished(t, 30),
	}
	plan.URL = "https://zakupki.gov.ru/223/plan/public/plan/info/common-info.html?planInfoId=" + plan.PlanNumber[2:]
	bought := plan
	bought.PositionNumber = tenderbase.PlanPositionNumber223(plan.PlanNumber, 1)
	bought.Object, bought.MaxPrice, bought.Currency = l.Title, l.MaxPrice, l.Currency
	bought.PublishMonth = int(t.PublishedAt.Month())
	bought.Status, bought.StatusCode, bought.NoticePublished = tenderbase.PlannedActive, "P", true
	for _, o := range l.Objects {
		bought.Objects = append(bought.Objects, tenderbase.PlannedObject{
			OKPD2Code: o.OKPD2Code, OKPD2Name: o.OKPD2Name, Name: o.Name, Quantity: o.Quantity, Unit: o.Unit,
		})
	}
	upkeep := plan
	upkeep.PositionNumber = tenderbase.PlanPositionNumber223(plan.PlanNumber, 2)
	upkeep.Object, upkeep.MaxPrice, upkeep.Currency = "Оказание услуг по техническому обслуживанию и ремонту оргтехники", 480000, "RUB"
	upkeep.PublishMonth = min(int(t.PublishedAt.Month())+2, 12)
	upkeep.Status, upkeep.StatusCode, upkeep.SMEOnly = tenderbase.PlannedActive, "N", true
	upkeep.Objects = []tenderbase.PlannedObject{{
		OKPD2Code: "95.11.10.000", OKPD2Name: "Услуги по ремонту компьютеров и периферийного компьютерного оборудования",
		Name: "Техническое обслуживание принтеров и многофункциональных устройств", Quantity: 1, Unit: "Условная единица",
	}}
	return []*tenderbase.PlannedPurchase{&bought, &upkeep}, tenderbase.PlanLink{PositionNumber: bought.PositionNumber, Lot: l.Number}
}
