package eis

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tenderbase/tenderbase"
)

// realPurchasePlan is the one real 223-FZ purchase plan of the shared data:
// plan 2180316803 of АО "МОСКАПСТРОЙ", version 63, TFF 9.3, with 209 items,
// 18 of them counted in several plans, and 20 restated as for small and
// medium businesses.
const realPurchasePlan = "eis223/Homyakin__ZakupkiParser/purchasePlan_test.xml"

// readRealPurchasePlan returns the real plan's text, skipping the test
// when the shared data is not here.
func readRealPurchasePlan(t *testing.T) string {
	t.Helper()
	skipWithoutRealData(t)
	b, err := os.ReadFile(filepath.Join(realData, realPurchasePlan))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// planned returns the planned purchases among recs by position number.
func planned(t *testing.T, recs []tenderbase.Record) map[string]*tenderbase.PlannedPurchase {
	t.Helper()
	byNumber := map[string]*tenderbase.PlannedPurchase{}
	for _, r := range recs {
		p, ok := r.(*tenderbase.PlannedPurchase)
		if !ok {
			t.Fatalf("a %T among the positions", r)
		}
		if byNumber[p.PositionNumber] != nil {
			t.Errorf("position %s twice", p.PositionNumber)
		}
		byNumber[p.PositionNumber] = p
	}
	return byNumber
}

func TestRealPurchasePlan(t *testing.T) {
	recs, errs := decodeAll(t, "purchasePlan_test.xml", readRealPurchasePlan(t))
	if len(errs) != 0 {
		t.Fatalf("rejections: %v", errs)
	}
	byNumber := planned(t, recs)
	// 209 items less the 18 of earlier plans; the 16 of this plan's own
	// among the 20 for small and medium businesses are marked, not repeated.
	var sme int
	for _, p := range byNumber {
		if p.SMEOnly {
			sme++
		}
	}
	if len(byNumber) != 191 || sme != 16 {
		t.Errorf("%d positions, %d for small and medium businesses; want 191 and 16", len(byNumber), sme)
	}
	published := time.Date(2019, 12, 30, 21, 23, 10, 0, msk)
	customer := tenderbase.Party{
		INN: "7710043065", KPP: "770401001", OGRN: "1027700060486",
		Name: `АКЦИОНЕРНОЕ ОБЩЕСТВО "МОСКАПСТРОЙ"`, ShortName: `АО "МОСКАПСТРОЙ"`,
		Address: "119270, ГОРОД МОСКВА, УЛИЦА ЛУЖНИКИ, дом ДОМ 24, корпус СТРОЕНИЕ 17, офис (квартира) ЭТ/ПОМ/КОМ 2/1/31",
	}
	want := []*tenderbase.PlannedPurchase{{
		// A long-term item, changed in this version.
		PositionNumber: "2180316803-169", Law: "223", PlanNumber: "2180316803", PlanVersion: 63, PlanYears: []int{2019},
		Object: "Подключение объекта капитального строительства «Торговый центр К-5», расположенного по адресу: г. Москва, Мичуринский проспект, квартал 5-6, корп. 5, к системе теплоснабжения.",
		Objects: []tenderbase.PlannedObject{{
			OKPD2Code: "35.30.12.140", OKPD2Name: "Услуги по подключению (технологическому присоединению) к централизованной системе горячего водоснабжения",
			OKVED2Code: "35", OKVED2Name: "Обеспечение электрической энергией, газом и паром; кондиционирование воздуха",
			Name:     "Услуги по подключению (технологическому присоединению) к централизованной системе горячего водоснабжения",
			Quantity: 1, Unit: "Условная единица",
		}},
		Customer: customer, Region: 77, MaxPrice: 13534403.95, Currency: "RUB",
		Amounts:     []tenderbase.YearAmount{{Year: 2019, Amount: 2030160.59}, {Year: 2020, Amount: 6767201.98}, {Year: 2021, Amount: 4737041.38}},
		PublishYear: 2019, PublishMonth: 12,
		PlacingMethod: "Закупка у единственного поставщика (подрядчика, исполнителя) (до 01.07.18)", PlacingMethodCode: "3363",
		ContractEnd: "2021-06-01", Status: tenderbase.PlannedActive, StatusCode: "P",
		Change: &tenderbase.Change{
			Reason:      "Изменение планируемых сроков приобретения товаров, работ, услуг, способа размещения заказа, срока исполнения контракта",
			PublishedAt: published,
		},
		PublishedAt: published,
		URL:         "https://lk.zakupki.gov.ru/223/plan/private/plan/info/common-info.html?planInfoId=3829153",
	}}
	for _, w := range want {
		if diff := cmp.Diff(w, byNumber[w.PositionNumber]); diff != "" {
			t.Errorf("position %s (-want +got):\n%s", w.PositionNumber, diff)
		}
	}
	// An item planned by day, not by month.
	if p := byNumber["2180316803-43"]; p == nil || p.PublishYear != 2019 || p.PublishMonth != 1 || len(p.Objects) == 0 {
		t.Errorf("position 43: %+v; want it planned for January 2019", p)
	}
	// An item restated for small and medium businesses.
	if p := byNumber["2180316803-1"]; p == nil || !p.SMEOnly || p.MaxPrice != 290000 || p.Objects[0].Unit != "Штука" {
		t.Errorf("position 1: %+v; want it for small and medium businesses", p)
	}
}

// TestPurchasePlanItemStates reads the real plan with one item's status
// and placement changed, and an item found only among those for small and
// medium businesses.
func TestPurchasePlanItemStates(t *testing.T) {
	doc := readRealPurchasePlan(t)
	first := strings.Index(doc, "<ns2:status>P</ns2:status>")
	doc = doc[:first] + "<ns2:status>A</ns2:status><ns2:isPurchasePlaced>true</ns2:isPurchasePlaced><ns2:cancellationReason>REJECT</ns2:cancellationReason>" +
		doc[first+len("<ns2:status>P</ns2:status>"):]
	// Item 2 of the list for small and medium businesses becomes one of its own.
	smb := strings.Index(doc, "<ns2:purchasePlanItemsSMB>")
	doc = doc[:smb] + strings.Replace(doc[smb:], "<ns2:guid>e2e5b913-c269-44c3-a709-e33ed45b796e</ns2:guid>\n                        <ns2:ordinalNumber>2</ns2:ordinalNumber>",
		"<ns2:guid>e2e5b913-0000-44c3-a709-e33ed45b796e</ns2:guid>\n                        <ns2:ordinalNumber>400</ns2:ordinalNumber>", 1)
	recs, errs := decodeAll(t, "purchasePlan_test.xml", doc)
	if len(errs) != 0 {
		t.Fatalf("rejections: %v", errs)
	}
	byNumber := planned(t, recs)
	if p := byNumber["2180316803-1"]; p.Status != tenderbase.PlannedCancelled || p.StatusCode != "A" || !p.NoticePublished ||
		p.Change == nil || p.Change.Reason != "Отказ от проведения закупки" {
		t.Errorf("annulled item: status %s (%s), published %v, change %+v", p.Status, p.StatusCode, p.NoticePublished, p.Change)
	}
	if p := byNumber["2180316803-400"]; len(byNumber) != 192 || p == nil || !p.SMEOnly || byNumber["2180316803-2"].SMEOnly {
		t.Errorf("%d positions, the one of the list for small and medium businesses only: %+v", len(byNumber), p)
	}
}

// TestPurchasePlanForeignCurrency reads the real plan with its first item
// priced in euros, as the schema lets an item be, with the roubles the
// plan converts it to: the position keeps both, and it is searched by
// price in roubles.
func TestPurchasePlanForeignCurrency(t *testing.T) {
	doc := readRealPurchasePlan(t)
	rub := "<ns2:maximumContractPrice>290000.00</ns2:maximumContractPrice>\n                        <ns2:currency>\n                            <code>RUB</code>\n                            <digitalCode>643</digitalCode>\n                            <name>Российский рубль</name>\n                        </ns2:currency>"
	if !strings.Contains(doc, rub) {
		t.Fatal("the real plan's first item is not priced as this test expects")
	}
	doc = strings.Replace(doc, rub, "<ns2:maximumContractPrice>2900.00</ns2:maximumContractPrice>\n<ns2:currency><code>EUR</code><digitalCode>978</digitalCode><name>Евро</name></ns2:currency>"+
		"<ns2:exchangeRate>100.0000</ns2:exchangeRate><ns2:exchangeRateDate>2018-12-20</ns2:exchangeRateDate><ns2:maximumContractPriceRub>290000.00</ns2:maximumContractPriceRub>", 1)
	recs, errs := decodeAll(t, "purchasePlan_test.xml", doc)
	if len(errs) != 0 {
		t.Fatalf("rejections: %v", errs)
	}
	byNumber := planned(t, recs)
	p := byNumber["2180316803-1"]
	if p.MaxPrice != 2900 || p.Currency != "EUR" || p.MaxPriceRUB != 290000 || p.Measures().Price != 290000 {
		t.Errorf("item in euros: %v %s, %v in roubles, measured %v", p.MaxPrice, p.Currency, p.MaxPriceRUB, p.Measures().Price)
	}
	if p := byNumber["2180316803-2"]; p.MaxPriceRUB != 0 || p.Measures().Price != 289620.32 {
		t.Errorf("item in roubles: %v in roubles, measured %v", p.MaxPriceRUB, p.Measures().Price)
	}
}
