package docanalysis_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/tenderbase/tenderbase/internal/docanalysis"
)

// TestFactsOfRealQuotes reads the facts of quotes of the set (testdata,
// read by hand from the EIS files), in doctext's spacing where the quote
// comes from a print form.
func TestFactsOfRealQuotes(t *testing.T) {
	tests := []struct {
		quote string
		want  docanalysis.Facts
	}{
		{"Об е спе чение заяв ок не т реб у ет ся", docanalysis.Facts{NotRequired: true}},
		{"42814.52 Р О ССИЙСКИЙ Р УБ ЛЬ", docanalysis.Facts{Amounts: []float64{42814.52}}},
		{"5.00%", docanalysis.Facts{Percents: []float64{5}}},
		{"278 424.86", docanalysis.Facts{Amounts: []float64{278424.86}}},
		{"Обеспечение исполнения Контракта устанавливается в размере 10% начальной (максимальной) цены Контракта и составляет 32 132 рубля 51 копейка",
			docanalysis.Facts{Percents: []float64{10}, Amounts: []float64{32132.51}}},
		{"Оплата поставленного Товара производится Заказчиком в течение 7 (семи) рабочих дней с даты подписания Заказчиком структурированного документа о приёмке",
			docanalysis.Facts{Days: []docanalysis.Days{{N: 7, Kind: "working"}}}},
		{"о мерах по предоставлению национального режима от 23.12.2024 № 1875",
			docanalysis.Facts{Decrees: []string{"1875"}, Dates: []string{"23.12.2024"}}},
		{"остановлением Правительства Российской Федерации №1875 от 23.12.2024",
			docanalysis.Facts{Decrees: []string{"1875"}, Dates: []string{"23.12.2024"}}},
		{"Гарантийный срок на Товар составляет 12 месяцев со дня подписания Заказчиком документа о приемке",
			docanalysis.Facts{Months: []int{12}}},
		{"Гарантийный срок (срок хранения и срок эксплуатации суммарно) - не менее 5 лет.", docanalysis.Facts{Months: []int{60}}},
		{"действует по 31 декабря 2026 года (включительно)", docanalysis.Facts{}},
		{"Средство для мытья пола и стен Мистер Пропер или эквивалент 1л", docanalysis.Facts{Equivalent: true}},
		{"Значимость: 60 % (коэффициент значимости критерия 0.6)",
			docanalysis.Facts{Percents: []float64{60}, Criteria: []docanalysis.Criterion{{Weight: 60}}}},
	}
	for _, tt := range tests {
		got := docanalysis.FactsOf(tt.quote)
		if diff := cmp.Diff(tt.want, got, cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("%q (-want +got):\n%s", tt.quote, diff)
		}
	}
}

// TestAnalyzeQuotesAndLocates checks that an answer quotes the sentence as
// it stands, says where, wraps a print form's narrow column, and that a
// question the text does not answer is not stated, and a file without
// text is said to have none.
func TestAnalyzeQuotesAndLocates(t *testing.T) {
	printForm := "Об е спе чение гарантийных\nоб яза тельств\nОб е спе чение гарантийных\nоб яза тельств не т реб у ет ся\n" +
		"0 8 . 0 4 . 2 0 2 6 , 2 1 : 5 3 П е ч а т н а я ф о р м а\nh t t p s : / / z a k u p k i . g o v . r u / e p z / o r d e r 5 / 1 9\n" +
		"Раз мер об е спе чения заявки 16756.03 Р О ССИЙСКИЙ Р УБ ЛЬ"
	contract := "3.1. Сроки поставки товаров: С момента заключения контракта в течение 30 рабочих дней.\n" +
		"Авансирование не производится. Оплата поставленного Товара производится Заказчиком в течение 7 (семи) рабочих дней с даты подписания Заказчиком структурированного документа о приёмке."
	a := docanalysis.Analyze([]docanalysis.File{
		{Name: "Печатная форма.pdf", Text: printForm},
		{Name: "Проект контракта.docx", Text: contract},
		{Name: "Фото шильдиков экскаватора.pdf", Unread: "no text layer (a scan)"},
	})
	got := map[docanalysis.Question]docanalysis.Answer{}
	for _, ans := range a.Answers {
		got[ans.Question] = ans
	}
	want := map[docanalysis.Question]docanalysis.Answer{
		docanalysis.WarrantySecurity: {Found: true, Quote: "Об е спе чение гарантийных\nоб яза тельств не т реб у ет ся",
			At: docanalysis.Locator{File: "Печатная форма.pdf", Paragraph: 3, Page: 1}},
		docanalysis.ApplicationSecurity: {Found: true, Quote: "Раз мер об е спе чения заявки 16756.03 Р О ССИЙСКИЙ Р УБ ЛЬ",
			At: docanalysis.Locator{File: "Печатная форма.pdf", Paragraph: 7, Page: 2}},
		docanalysis.Delivery: {Found: true, Quote: "3.1. Сроки поставки товаров: С момента заключения контракта в течение 30 рабочих дней.",
			At: docanalysis.Locator{File: "Проект контракта.docx", Paragraph: 1}},
		docanalysis.Advance: {Found: true, Quote: "Авансирование не производится.",
			At: docanalysis.Locator{File: "Проект контракта.docx", Paragraph: 2}},
		docanalysis.Payment: {Found: true, Quote: "Оплата поставленного Товара производится Заказчиком в течение 7 (семи) рабочих дней с даты подписания Заказчиком структурированного документа о приёмке.",
			At: docanalysis.Locator{File: "Проект контракта.docx", Paragraph: 2}},
		docanalysis.Penalties: {},
	}
	for q, w := range want {
		g := got[q]
		g.Facts, g.Question = docanalysis.Facts{}, ""
		if diff := cmp.Diff(w, g); diff != "" {
			t.Errorf("%s (-want +got):\n%s", q, diff)
		}
	}
	wantFiles := []docanalysis.FileStatus{
		{Name: "Печатная форма.pdf", HasText: true},
		{Name: "Проект контракта.docx", HasText: true},
		{Name: "Фото шильдиков экскаватора.pdf", Reason: "no text layer (a scan)"},
	}
	if diff := cmp.Diff(wantFiles, a.Files); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
}
