package tenderbase

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestPartiesSearchText checks that a tender and a contract are found by
// the short name and the address of their customer, as people write
// them, beside the full name and the INN; a short name that repeats the
// full one is not indexed twice.
func TestPartiesSearchText(t *testing.T) {
	customer := Party{INN: "6616004892", Name: `ФЕДЕРАЛЬНОЕ КАЗЕННОЕ УЧРЕЖДЕНИЕ "КИРОВГРАДСКАЯ ВОСПИТАТЕЛЬНАЯ КОЛОНИЯ"`,
		ShortName: "ФКУ КИРОВГРАДСКАЯ ВК ГУФСИН РОССИИ", Address: "624140, Свердловская обл, г. Кировград"}
	supplier := Party{INN: "7707083893", Name: `ООО "РОМАШКА"`, ShortName: `ооо "Ромашка"`}
	want := func(field string) []Text {
		return []Text{{field, customer.Name}, {field, customer.ShortName}, {field, customer.INN}, {field, customer.Address}}
	}
	tender := &Tender{PurchaseNumber: "0162100008725000054", Title: "кофе", Customer: customer}
	contract := &Contract{RegNumber: "1661600489225000001", Subject: "кофе", Customer: customer, Suppliers: []Party{supplier}}
	for _, c := range []struct {
		name  string
		texts []Text
		want  []Text
	}{
		{"tender", tender.SearchText(), append([]Text{{"purchase_number", tender.PurchaseNumber}, {"title", "кофе"}}, want("customer")...)},
		{"contract", contract.SearchText(), append(append([]Text{{"reg_number", contract.RegNumber}, {"subject", "кофе"}}, want("customer")...),
			Text{"suppliers", supplier.Name}, Text{"suppliers", supplier.INN})},
	} {
		if diff := cmp.Diff(c.want, c.texts); diff != "" {
			t.Errorf("%s texts (-want +got):\n%s", c.name, diff)
		}
	}
}
