package eis

import (
	"slices"

	"github.com/tenderbase/tenderbase"
)

// responsibleRoles says what each role code of the organization that placed
// a 44-FZ notice means (responsibleRole, the EIS code list
// zfcs_responsibleRoleType).
var responsibleRoles = map[string]string{
	"CU":      "Заказчик",
	"OCU":     "Заказчик в качестве организатора совместного аукциона",
	"RA":      "Уполномоченный орган",
	"ORA":     "Уполномоченный орган в качестве организатора совместного конкурса (аукциона)",
	"AI":      "Уполномоченное учреждение",
	"OAI":     "Уполномоченное учреждение в качестве организатора совместного конкурса (аукциона)",
	"OA":      "Организация, осуществляющая полномочия заказчика на осуществление закупок на основании договора (соглашения)",
	"OOA":     "Организация, осуществляющая полномочия заказчика на основании договора (соглашения), в качестве организатора совместного конкурса (аукциона)",
	"CS":      "Заказчик, осуществляющий закупки в соответствии с частью 5 статьи 15 Федерального закона № 44-ФЗ",
	"OCS":     "Заказчик по части 5 статьи 15 Федерального закона № 44-ФЗ в качестве организатора совместного конкурса (аукциона)",
	"CC":      "Заказчик, осуществляющий закупки по Федеральному закону № 44-ФЗ в связи с неразмещением положения о закупке по Федеральному закону № 223-ФЗ",
	"OCC":     "Заказчик по Федеральному закону № 44-ФЗ в связи с неразмещением положения о закупке в качестве организатора совместного конкурса (аукциона)",
	"AU":      "Заказчик, осуществляющий закупку на проведение обязательного аудита",
	"OAU":     "Заказчик, осуществляющий закупку на проведение обязательного аудита, в качестве организатора совместного конкурса (аукциона)",
	"RO":      "Региональный оператор",
	"TKO":     "Региональный оператор для обращения с ТБО",
	"CN":      "Заказчик, осуществляющий закупки в соответствии с частью 4.1 статьи 15 Федерального закона № 44-ФЗ",
	"OCN":     "Заказчик по части 4.1 статьи 15 Федерального закона № 44-ФЗ в качестве организатора совместного конкурса (аукциона)",
	"CU5CH26": "Заказчик как орган исполнительной власти по ч.5 ст.26 Закона № 44-ФЗ",
}

// ownPurchaseRoles are the roles of an organization that places its own
// purchase: it is the customer, not an organizer, unless the notice names
// another customer.
var ownPurchaseRoles = []string{"CU", "CS", "CC", "AU", "RO", "TKO", "CN", "CU5CH26"}

// placerRole is what a 223-FZ placer is, in the words of the schema: the
// 223-FZ notice gives its placer no role code.
const placerRole = "Организация, создавшая сведения извещения о закупке"

// responsibleOrganizer returns the organization that placed a 44-FZ notice
// as its organizer, or nil when it placed its own purchase: its role is a
// customer's and it is the customer.
func responsibleOrganizer(responsible orgWire, role string, customer tenderbase.Party) *tenderbase.Organizer {
	p, role := responsible.party(), cleanText(role)
	if p.INN == "" && p.Name == "" {
		return nil
	}
	if slices.Contains(ownPurchaseRoles, role) && sameParty(p, customer) {
		return nil
	}
	return &tenderbase.Organizer{Party: p, Role: role, RoleName: responsibleRoles[role]}
}

// placerOrganizer returns the placer of a 223-FZ notice as its organizer,
// or nil when the placer is the customer or is not named.
func placerOrganizer(placer, customer tenderbase.Party) *tenderbase.Organizer {
	if (placer.INN == "" && placer.Name == "") || sameParty(placer, customer) {
		return nil
	}
	return &tenderbase.Organizer{Party: placer, RoleName: placerRole}
}

// sameParty reports whether p and q name one organization: by its registry
// number, its INN and KPP (a branch has the INN of its head office and a
// KPP of its own), or its name when neither names more.
func sameParty(p, q tenderbase.Party) bool {
	switch {
	case p.RegNum != "" && q.RegNum != "":
		return p.RegNum == q.RegNum
	case p.INN != "" && q.INN != "":
		return p.INN == q.INN && (p.KPP == "" || q.KPP == "" || p.KPP == q.KPP)
	}
	return p.Name == q.Name
}

// customerPart is one customer's requirement in a notice: the customer and
// the maximum price of its part, as published.
type customerPart struct {
	customer tenderbase.Party
	maxPrice string
}

// jointCustomers returns the customers of the parts, in the order they come
// first, each with its region and the sum of its parts' prices (a customer
// of several lots has a part in each), or nil when the parts name one
// customer: a purchase that is not joint.
func jointCustomers(parts []customerPart) []tenderbase.TenderCustomer {
	var out []tenderbase.TenderCustomer
	var prices [][]float64
	for _, part := range parts {
		i := slices.IndexFunc(out, func(c tenderbase.TenderCustomer) bool { return sameParty(c.Party, part.customer) })
		if i < 0 {
			p := part.customer
			out = append(out, tenderbase.TenderCustomer{Party: p, Region: regionOf(p.KPP, p.INN)})
			prices = append(prices, nil)
			i = len(out) - 1
		}
		prices[i] = append(prices[i], parseAmount(part.maxPrice))
	}
	if len(out) < 2 {
		return nil
	}
	for i := range out {
		out[i].MaxPrice = sumMoney(prices[i]...)
	}
	return out
}
