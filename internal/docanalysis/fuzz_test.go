package docanalysis_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/tenderbase/tenderbase/internal/docanalysis"
)

// FuzzAnalyze runs the analysis on arbitrary text, as a PDF, a DOCX and an
// EIS print form would give it, and checks that it never panics and that
// every quote it gives stands in the file it names at the line it names.
// The seeds are shapes of the set's text: print-form labels and values,
// wrapped lines, clause numbers, blanks, brackets and stray stops.
func FuzzAnalyze(f *testing.F) {
	for _, s := range []string{
		"",
		"\n\n\n",
		".",
		"Об е спе чение гарантийных\nоб яза тельств не т реб у ет ся",
		"Раз мер об е спе чения заявки\n16756.03 Р О ССИЙСКИЙ Р УБ ЛЬ",
		"10. Срок поставки товара\nТовар доставляется Заказчику единовременно до 01 июня 2026 г.",
		"1.5. Срок поставки товара: согласно Приложению 1\n.",
		"требование об уплате неустоек (штрафов, пеней). Пеня начисляется за каждый день просрочки исполнения Поставщиком",
		"Оплата в течение ______(______) рабочих дней. 3.1. Сроки поставки: в течение 7 (семи) рабочих дней",
		"не более двадцатипяти рабочих дней; 1)2)3). «» ) . Ё ё – —",
		"Дата и время окончания срока подачи заявок\n10.04.2026 09:00\nДата начала срока подачи заявок",
		"https://zakupki.gov.ru/epz 1 / 2\nПреимущества Не установлены",
		"\xff\xfe\x00 неверный UTF-8 \xc3",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		files := []docanalysis.File{
			{Name: "Печатная форма.pdf", Text: text},
			{Name: "Проект контракта.docx", Text: text},
		}
		a := docanalysis.Analyze(files)
		if len(a.Answers) != len(docanalysis.Questions) || len(a.Files) != len(files) {
			t.Fatalf("%d answers and %d files, want %d and %d", len(a.Answers), len(a.Files), len(docanalysis.Questions), len(files))
		}
		lines := strings.Split(text, "\n")
		for _, ans := range a.Answers {
			if !ans.Found {
				continue
			}
			p := ans.At.Paragraph
			if p < 1 || p > len(lines) {
				t.Fatalf("%s: paragraph %d of %d lines", ans.Question, p, len(lines))
			}
			// A quote starts in its line and may run over the next ones.
			rest := strings.Join(lines[p-1:], "\n")
			if !strings.Contains(rest, ans.Quote) && utf8.ValidString(text) {
				t.Fatalf("%s: quote %q is not in the text from line %d", ans.Question, ans.Quote, p)
			}
		}
	})
}
