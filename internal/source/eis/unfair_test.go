package eis

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/golden"
)

// TestUnfairGoldens checks that every entry of the register of unfair
// suppliers among the fixtures yields exactly the records of its golden
// file.
func TestUnfairGoldens(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "unfair", "*.xml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures in testdata/unfair: %v", err)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			recs, errs := decodeFixture(t, file)
			golden.Check(t, strings.TrimSuffix(file, ".xml")+".golden", goldenText(t, recs, errs))
		})
	}
}

// unfairSummary is what a user checking a supplier relies on in an entry.
type unfairSummary struct {
	Number, State, SupplierName, SupplierINN, Reason, ReasonText string
	Included                                                     time.Time
	ExcludeOn, Purchase, Contract, CustomerINN, PublishOrg       string
	Founders                                                     []string
	Excluded                                                     string
}

func summarizeUnfair(u *tenderbase.UnfairSupplier) unfairSummary {
	s := unfairSummary{
		Number: u.RegistryNumber, State: u.State, SupplierName: u.Supplier.Name, SupplierINN: u.Supplier.INN,
		Reason: u.Reason, ReasonText: u.ReasonText, Included: u.IncludedAt, ExcludeOn: u.ExcludeOn,
		CustomerINN: u.Customer.INN, PublishOrg: u.PublishOrg.Name,
	}
	if u.Purchase != nil {
		s.Purchase = u.Purchase.PurchaseNumber + strings.Join(u.Purchase.Codes, ",")
	}
	if u.Contract != nil {
		s.Contract = u.Contract.RegNumber
	}
	for _, f := range u.Founders {
		s.Founders = append(s.Founders, f.Name+" "+f.INN)
	}
	if u.Exclusion != nil {
		s.Excluded = u.Exclusion.Date.Format(time.DateOnly) + " " + u.Exclusion.Type
	}
	return s
}

func TestUnfairSupplierFields(t *testing.T) {
	msk := tenderbase.Moscow
	tests := []struct {
		file string
		want unfairSummary
	}{
		{"unfairSupplier_10_2_24120-15.xml", unfairSummary{
			Number: "РНП.24120-15", State: tenderbase.UnfairIncluded,
			SupplierName: `Общество с ограниченной ответственностью "Пилот Групп"`, SupplierINN: "0326497652",
			Reason: "WINNER_DEVIATION", ReasonText: "Решение комиссии Бурятского УФАС России по делу № 04-50/1-2015",
			Included: time.Date(2015, 1, 13, 0, 0, 0, 0, time.UTC), ExcludeOn: "2017-01-13",
			Purchase: "0102200001612002153", CustomerINN: "0323085259",
			PublishOrg: "Управление Федеральной антимонопольной службы по Республике Бурятия",
			Founders:   []string{"Цыренов Баир Владимирович 032600112233"},
		}},
		{"unfairSupplier_14_1_21002583.xml", unfairSummary{
			Number: "21002583", State: tenderbase.UnfairExcluded,
			SupplierName: `ОБЩЕСТВО С ОГРАНИЧЕННОЙ ОТВЕТСТВЕННОСТЬЮ "МЕДТЕХСНАБ"`, SupplierINN: "7728456123",
			Reason: "CANCEL_CONTRACT", ReasonText: "Односторонний отказ заказчика от исполнения контракта в связи с существенным нарушением условий контракта",
			Included: time.Date(2021, 6, 9, 12, 40, 18, 631e6, msk), ExcludeOn: "2023-06-09",
			Purchase: "0373100056020000128", Contract: "1771402876020000198", CustomerINN: "7714028760",
			PublishOrg: "ФЕДЕРАЛЬНАЯ АНТИМОНОПОЛЬНАЯ СЛУЖБА",
			Founders:   []string{"Соколов Андрей Викторович 772800345678", "Соколова Елена Ивановна 772800987654"},
			Excluded:   "2022-03-15 EXCLUSION",
		}},
		{"unfairSupplier2022_14_1_23003469.xml", unfairSummary{
			Number: "23003469", State: tenderbase.UnfairIncluded,
			SupplierName: `ОБЩЕСТВО С ОГРАНИЧЕННОЙ ОТВЕТСТВЕННОСТЬЮ "СТРОЙМОНТАЖ"`, SupplierINN: "7404840216",
			Reason: "WINNER_DEVIATION", Included: time.Date(2023, 4, 11, 16, 2, 45, 908e6, msk), ExcludeOn: "2025-04-11",
			PublishOrg: "УПРАВЛЕНИЕ ФЕДЕРАЛЬНОЙ АНТИМОНОПОЛЬНОЙ СЛУЖБЫ ПО ЧЕЛЯБИНСКОЙ ОБЛАСТИ",
			Founders:   []string{"Петров Пётр Петрович 740400012345"},
		}},
		{"unfairSupplierIKZ_14_1_24001177.xml", unfairSummary{
			Number: "24001177", State: tenderbase.UnfairIncluded,
			SupplierName: "Кузнецов Игорь Сергеевич", SupplierINN: "540512345678",
			Reason: "CANCEL_CONTRACT", Included: time.Date(2024, 2, 20, 9, 3, 11, 0, msk), ExcludeOn: "2026-02-20",
			Purchase:   "232540612345654060100100120014332244",
			PublishOrg: "УПРАВЛЕНИЕ ФЕДЕРАЛЬНОЙ АНТИМОНОПОЛЬНОЙ СЛУЖБЫ ПО НОВОСИБИРСКОЙ ОБЛАСТИ",
		}},
		{"dishonestSupplier_2300417.xml", unfairSummary{
			Number: "Р2300417", State: tenderbase.UnfairIncluded,
			SupplierName: `ОБЩЕСТВО С ОГРАНИЧЕННОЙ ОТВЕТСТВЕННОСТЬЮ "УРАЛЭНЕРГОСТРОЙ"`, SupplierINN: "6671098765",
			Reason: "CANCEL_CONTRACT", ReasonText: "Расторжение договора по решению суда в связи с существенным нарушением поставщиком условий договора",
			Included: time.Date(2023, 9, 18, 14, 25, 40, 0, msk),
			Purchase: "32312045678", Contract: "32312045678-01",
			PublishOrg: "УПРАВЛЕНИЕ ФЕДЕРАЛЬНОЙ АНТИМОНОПОЛЬНОЙ СЛУЖБЫ ПО СВЕРДЛОВСКОЙ ОБЛАСТИ",
		}},
		{"dishonestSupplier_2100093.xml", unfairSummary{
			Number: "Р2100093", State: tenderbase.UnfairExcluded,
			SupplierName: `ОБЩЕСТВО С ОГРАНИЧЕННОЙ ОТВЕТСТВЕННОСТЬЮ "УРАЛЭНЕРГОСТРОЙ"`, SupplierINN: "6671098765",
			Reason: "WINNER_DEVIATION", ReasonText: "Уклонение победителя от заключения договора",
			Included: time.Date(2021, 3, 2, 11, 0, 0, 0, msk), Purchase: "32109876543",
			PublishOrg: "УПРАВЛЕНИЕ ФЕДЕРАЛЬНОЙ АНТИМОНОПОЛЬНОЙ СЛУЖБЫ ПО СВЕРДЛОВСКОЙ ОБЛАСТИ",
			Excluded:   "2023-03-02 ",
		}},
		{"unfairSupplier2022Exclude_14_1_23003469.xml", unfairSummary{
			Number: "23003469", Excluded: "2025-04-11 AUTO",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			recs, errs := decodeFixture(t, filepath.Join("testdata", "unfair", tt.file))
			if len(recs) != 1 || len(errs) != 0 {
				t.Fatalf("%d records, rejections %v; want one", len(recs), errs)
			}
			u, ok := recs[0].(*tenderbase.UnfairSupplier)
			if !ok {
				t.Fatalf("a %T, not an entry", recs[0])
			}
			if diff := cmp.Diff(tt.want, summarizeUnfair(u)); diff != "" {
				t.Errorf("entry (-want +got):\n%s", diff)
			}
		})
	}
}

// TestUnfairWayDocumentsRejected checks that the documents on the way to an
// entry of the 223-FZ register, and the other register of the same form,
// are rejected saying what they are, not read as entries.
func TestUnfairWayDocumentsRejected(t *testing.T) {
	for root, want := range map[string]string{
		`<ns2:dishonestApplication xmlns:ns2="http://zakupki.gov.ru/223fz/dishonestSupplier/1"/>`:                                "a customer's application",
		`<ns2:dishonestSupplierReject xmlns:ns2="http://zakupki.gov.ru/223fz/dishonestSupplier/1"/>`:                             "refusal to include",
		`<export xmlns="http://zakupki.gov.ru/oos/export/1"><pprf615UnfairContractor2022/></export>`:                             "another register",
		`<ns2:dishonestSupplier xmlns:ns2="http://zakupki.gov.ru/223fz/dishonestSupplier/1"><ns2:body/></ns2:dishonestSupplier>`: "holds no item",
	} {
		recs, errs := decodeAll(t, "doc.xml", root)
		if len(recs) != 0 || len(errs) != 1 || !strings.Contains(errs[0].Error(), want) {
			t.Errorf("%s: %d records, rejections %v; want one saying %q", root, len(recs), errs, want)
		}
	}
}
