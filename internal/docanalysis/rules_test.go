package docanalysis_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/tenderbase/tenderbase/internal/docanalysis"
)

// TestRulesOnRealWording runs the analysis on lines of the set's files
// (testdata, quoted as doctext gives them) and checks the answer of one
// question: the quote it finds, or none where the wording is no answer (a
// measure not set, an example of an instruction, a blank to fill in, a
// heading).
func TestRulesOnRealWording(t *testing.T) {
	tests := []struct {
		name  string
		q     docanalysis.Question
		file  string
		lines []string
		// quote is how the quote starts, or all of it when exact; "" when
		// the question is not stated.
		quote string
		exact bool
		facts docanalysis.Facts
	}{
		{
			name: "a 223-FZ measure set, after one not set",
			q:    docanalysis.NationalRegime, file: "Аукционная_документация.doc",
			lines: []string{
				"17.1 Запрет закупок товаров (в том числе поставляемых при выполнении закупаемых работ, оказании закупаемых услуг), происходящих из иностранных государств, работ, услуг, соответственно выполняемых, оказываемых иностранными лицами: Не установлен",
				"17.2 Ограничение закупок товаров (в том числе поставляемых при выполнении закупаемых работ, оказании закупаемых услуг), происходящих из иностранных государств, работ, услуг, соответственно выполняемых, оказываемых иностранными лицами: Установлено предусмотренное подпунктом \"в\" пункта 1 части 2 статьи 3.1-4 Федерального закона от 18.07.2011 N 223-ФЗ \"О закупках товаров, работ, услуг отдельными видами юридических лиц\" ограничение в отношении товаров иностранного происхождения (в том числе поставляемых при выполнении закупаемых работ, оказании закупаемых услуг).",
			},
			quote: "17.2 Ограничение закупок товаров",
		},
		{
			name: "a 223-FZ preference said to be set",
			q:    docanalysis.NationalRegime, file: "Извещение.doc",
			lines: []string{"Предусмотренное подпунктом \"в\" пункта 1 части 2 статьи 3.1-4 Закона № 223-ФЗ преимущество в отношении товаров российского происхождения (в том числе поставляемых при выполнении закупаемых работ, оказании закупаемых услуг), работ, услуг, соответственно выполняемых, оказываемых российскими лицами - установлено."},
			quote: "Предусмотренное подпунктом",
		},
		{
			name: "a decree named for the case a measure is set",
			q:    docanalysis.NationalRegime, file: "Том 1 Часть 2 Порядок проведения.docx",
			lines: []string{"В отношении ППРФ № 1875 проверка осуществляется (при установлении требований) на этапе рассмотрении вторых частей Заявок (Выборке)"},
		},
		{
			name: "the example of an application's instructions",
			q:    docanalysis.Warranty, file: "Инструкция.docx",
			lines: []string{"На гарантийный срок (гарантию поставщика и/или производителя) товара участник даёт согласие, а также вправе указать срок в соответствии с указанным в описании объекта закупки или указать без слов «не менее», (например, «гарантийный срок составляет 12 месяцев»)."},
		},
		{
			name: "the maker's warranty term",
			q:    docanalysis.Warranty, file: "Приложение_2_ТЗ_хозка_котировки.docx",
			lines: []string{
				"6. Требования к гарантийному сроку товара и (или) объему предоставления гарантий качества товара:",
				"6.1. Гарантия качества товара - в соответствии с гарантийным сроком, установленным производителем.",
			},
			quote: "6.1. Гарантия качества товара - в соответствии с гарантийным сроком, установленным производителем.", exact: true,
		},
		{
			name: "a residual shelf life with its share",
			q:    docanalysis.Warranty, file: "Извещение.doc",
			lines: []string{"Остаточный срок годности: На момент поставки остаточный срок годности Товара должен быть не менее 80% (восьмидесяти процентов)."},
			quote: "Остаточный срок годности: На момент поставки остаточный срок годности Товара должен быть не менее 80% (восьмидесяти процентов).", exact: true,
			facts: docanalysis.Facts{Percents: []float64{80}},
		},
		{
			name: "a 44-FZ description setting no warranty requirement",
			q:    docanalysis.Warranty, file: "Приложение 1 Описание.docx",
			lines: []string{"Требования к гарантии качества товара, работы, услуги, а также требования к гарантийному сроку и (или) объему предоставления гарантий их качества, к гарантийному обслуживанию товара, к расходам на эксплуатацию товара, к обязательности осуществления монтажа и наладки товара, к обучению лиц, осуществляющих использование и обслуживание товара: не установлено"},
			quote: "Требования к гарантии качества товара",
			facts: docanalysis.Facts{NotRequired: true},
		},
		{
			name: "a delivery heading and its term on the next line",
			q:    docanalysis.Delivery, file: "Извещение.doc",
			lines: []string{"10. Срок поставки товара", "Товар доставляется Заказчику единовременно до 01 июня 2026 г.", "11. Форма, сроки, порядок оплаты"},
			quote: "Товар доставляется Заказчику единовременно до 01 июня 2026 г.", exact: true,
		},
		{
			name: "a place of delivery is no term",
			q:    docanalysis.Delivery, file: "Проект договора.doc",
			lines: []string{
				"3.1. Поставка Товара осуществляется Поставщиком этапами, в соответствии с графиком поставки (Приложение №1 к Контракту).",
				"3.5. Поставка Товара осуществляется Поставщиком по адресу (адресам), указанным в заявке в соответствии с условиями настоящего Договора.",
			},
		},
		{
			name: "a PDF's full stop on a line of its own",
			q:    docanalysis.Delivery, file: "Техническое_задание.pdf",
			lines: []string{"1.5. Срок поставки товара: согласно Приложению 1", ".", "1.6. Приложения к Техническому заданию:"},
			quote: "1.5. Срок поставки товара: согласно Приложению 1\n.", exact: true,
		},
		{
			name: "a payment term in words",
			q:    docanalysis.Payment, file: "проект ГК.doc",
			lines: []string{"2.6. Заказчик оплачивает Товар, поставленный Поставщиком в соответствии с Контрактом, путем перечисления цены Контракта на банковский счет Поставщика, реквизиты которого указаны в статье 13 Контракта, за счет внебюджетных средств (Средства бюджетных учреждений) на 2026 год., не более семи рабочих дней с даты подписания заказчиком документа о приемке, предусмотренного частью 7 статьи 94 Федерального закона от 5 апреля 2013 года № 44-ФЗ «О контрактной системе в сфере закупок товаров, работ, услуг для обеспечения государственных и муниципальных нужд»."},
			quote: "2.6. Заказчик оплачивает Товар",
			facts: docanalysis.Facts{Days: []docanalysis.Days{{N: 7, Kind: "working"}}},
		},
		{
			name: "a sentence that ends after a bracket",
			q:    docanalysis.Penalties, file: "Проект договора.docx",
			lines: []string{"7.3.1. В случае просрочки исполнения Поставщиком обязательств, предусмотренных Договором, Заказчик направляет Поставщику требование об уплате неустоек (штрафов, пеней). Пеня начисляется за каждый день просрочки исполнения Поставщиком обязательства, предусмотренного Договором."},
			quote: "Пеня начисляется за каждый день просрочки исполнения Поставщиком обязательства, предусмотренного Договором.", exact: true,
		},
		{
			name: "a contract that comes into effect and lasts",
			q:    docanalysis.ContractTerm, file: "Аукционная_документация.doc",
			lines: []string{"Настоящий договор вступает в действие с момента его подписания Сторонами и действует до 31.12.2026 г. включительно, а в части расчетов и гарантийных обязательств (если таковые установлены) - до полного их исполнения Сторонами."},
			quote: "Настоящий договор вступает в действие",
			facts: docanalysis.Facts{Dates: []string{"31.12.2026"}},
		},
		{
			name: "a contract term left blank",
			q:    docanalysis.ContractTerm, file: "Проект договора.docx",
			lines: []string{"10.1. Настоящий Договор вступает в силу с момента его подписания сторонами и действует до «__» ________ 20__ г."},
		},
		{
			name: "the print form's preferences not set",
			q:    docanalysis.SME, file: "Печатная форма.pdf",
			lines: []string{"Преимущества и требования к", "участникам", "Преимущества Не установлены", "Требования к участникам 1 Единые требования к участникам закупок в"},
			quote: "Преимущества Не установлены", exact: true,
		},
		{
			name: "a heading of the requirements is no answer",
			q:    docanalysis.Requirements, file: "Документация.doc",
			lines: []string{"4. Требования к участникам закупок, условия допуска, приоритет товаров российского происхождения, работ, услуг, выполняемых, оказываемых российскими лицами"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := docanalysis.Analyze([]docanalysis.File{{Name: tt.file, Text: strings.Join(tt.lines, "\n")}})
			var got docanalysis.Answer
			for _, ans := range a.Answers {
				if ans.Question == tt.q {
					got = ans
				}
			}
			if tt.quote == "" {
				if got.Found {
					t.Fatalf("%s: not stated, got %q", tt.q, got.Quote)
				}
				return
			}
			if !got.Found || !strings.HasPrefix(got.Quote, tt.quote) {
				t.Fatalf("%s: got %q (found %v), want a quote starting %q", tt.q, got.Quote, got.Found, tt.quote)
			}
			if tt.exact && got.Quote != tt.quote {
				t.Errorf("%s: got %q, want %q", tt.q, got.Quote, tt.quote)
			}
			if !tt.facts.Empty() {
				if diff := cmp.Diff(tt.facts, got.Facts, cmpopts.EquateEmpty()); diff != "" {
					t.Errorf("%s facts (-want +got):\n%s", tt.q, diff)
				}
			}
		})
	}
}
