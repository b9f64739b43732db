package docanalysis_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tenderbase/tenderbase/internal/docanalysis"
)

// proseFiles are two files in the shapes doctext gives: a print form's
// PDF, a line of the page a paragraph, with the footer that ends each page;
// and a draft contract, a paragraph a line.
var proseFiles = []docanalysis.File{
	{Name: "Печатная форма.pdf", Text: "Извещение о проведении закупки\n" +
		"Обеспечение заявки не требуется.\n" +
		"https://zakupki.gov.ru/223/purchase/public/print-form/show.html?pfid=1 1 / 2\n" +
		"Дата и время окончания подачи заявок (по\n" +
		"местному времени):\n" +
		"16.04.2026 09:00\n" +
		"https://zakupki.gov.ru/223/purchase/public/print-form/show.html?pfid=1 2 / 2"},
	{Name: "Проект договора.docx", Text: "1. Предмет договора\n\n" +
		"Оплата производится  в течение 7 (семи) рабочих дней с даты подписания документа о приемке."},
	{Name: "Скан.pdf", Unread: "no text layer (a scan)"},
}

// writer is a ProseWriter that gives what it is told to.
type writer struct {
	prose docanalysis.Prose
	err   error
}

func (w writer) WriteProse(ctx context.Context, a docanalysis.Analysis, files []docanalysis.File) (docanalysis.Prose, error) {
	return w.prose, w.err
}

func TestAnalyzeWithChecksQuotes(t *testing.T) {
	p := docanalysis.Prose{
		Summary: []docanalysis.Statement{
			{Text: "Обеспечения заявки нет.", Quote: "Обеспечение заявки не требуется."},
			// White space differs from the text's: one space for the line
			// breaks and the double space.
			{Text: "Оплата за 7 рабочих дней.", Quote: "Оплата производится в течение 7 (семи) рабочих дней"},
			{Text: "Без цитаты.", Quote: ""},
		},
		Risks: []docanalysis.Statement{
			{Text: "Заявки до 16.04.2026.", Quote: "Дата и время окончания подачи заявок (по местному времени): 16.04.2026 09:00"},
			{Text: "Слишком короткая цитата.", Quote: "заявки"},
			{Text: "Цитата не из текста.", Quote: "Аванс составляет 30% цены договора"},
			{Text: "", Quote: "Извещение о проведении закупки"},
		},
		Model: "m", Usage: docanalysis.Usage{PromptTokens: 10, CompletionTokens: 5, CostMicroUSD: 3}, Dropped: 1,
	}
	a, err := docanalysis.AnalyzeWith(context.Background(), proseFiles, writer{prose: p})
	if err != nil {
		t.Fatal(err)
	}
	want := &docanalysis.Prose{
		Summary: []docanalysis.Statement{
			{Text: "Обеспечения заявки нет.", Quote: "Обеспечение заявки не требуется.", At: docanalysis.Locator{File: "Печатная форма.pdf", Paragraph: 2, Page: 1}},
			{Text: "Оплата за 7 рабочих дней.", Quote: "Оплата производится в течение 7 (семи) рабочих дней", At: docanalysis.Locator{File: "Проект договора.docx", Paragraph: 3}},
		},
		Risks: []docanalysis.Statement{
			{Text: "Заявки до 16.04.2026.", Quote: "Дата и время окончания подачи заявок (по местному времени): 16.04.2026 09:00", At: docanalysis.Locator{File: "Печатная форма.pdf", Paragraph: 4, Page: 2}},
		},
		Model: "m", Usage: p.Usage, Dropped: 1 + 4,
	}
	if diff := cmp.Diff(want, a.Prose); diff != "" {
		t.Errorf("prose (-want +got):\n%s", diff)
	}
	if a.ProseNote != "" {
		t.Errorf("note %q", a.ProseNote)
	}
	if diff := cmp.Diff(docanalysis.Analyze(proseFiles), docanalysis.Analysis{Answers: a.Answers, Files: a.Files}); diff != "" {
		t.Errorf("the extraction changed (-want +got):\n%s", diff)
	}
}

func TestAnalyzeWithoutModel(t *testing.T) {
	a, err := docanalysis.AnalyzeWith(context.Background(), proseFiles, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := docanalysis.Analyze(proseFiles)
	want.ProseNote = docanalysis.NoModelNote
	if diff := cmp.Diff(want, a); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestAnalyzeWithFailingModel(t *testing.T) {
	usage := docanalysis.Usage{PromptTokens: 100, CompletionTokens: 20, CostMicroUSD: 27}
	for _, tt := range []struct {
		name string
		w    writer
		ctx  func() context.Context
		want *docanalysis.Prose
		err  bool
	}{
		{name: "fails", w: writer{err: errors.New("the endpoint answered 503")}},
		{name: "fails after paid answers", w: writer{prose: docanalysis.Prose{Model: "m", Usage: usage}, err: errors.New("not JSON")},
			want: &docanalysis.Prose{Model: "m", Usage: usage}},
		{name: "caller gave up", w: writer{err: context.Canceled}, err: true, ctx: func() context.Context {
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			return ctx
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			if tt.ctx != nil {
				ctx = tt.ctx()
			}
			a, err := docanalysis.AnalyzeWith(ctx, proseFiles, tt.w)
			if (err != nil) != tt.err {
				t.Errorf("error %v, want one: %v", err, tt.err)
			}
			if diff := cmp.Diff(docanalysis.Analyze(proseFiles).Answers, a.Answers); diff != "" {
				t.Errorf("the extraction was lost (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.want, a.Prose); diff != "" {
				t.Errorf("prose (-want +got):\n%s", diff)
			}
			if !strings.HasSuffix(a.ProseNote, tt.w.err.Error()) || !strings.HasPrefix(a.ProseNote, "the summary and the judgement of risks were not written: ") {
				t.Errorf("note %q does not say what failed", a.ProseNote)
			}
		})
	}
}

func TestAnalyzeWithNoStatementLeft(t *testing.T) {
	p := docanalysis.Prose{Risks: []docanalysis.Statement{{Text: "Выдумка.", Quote: "этого в документации нет ни слова"}}}
	a, err := docanalysis.AnalyzeWith(context.Background(), proseFiles, writer{prose: p})
	if err != nil {
		t.Fatal(err)
	}
	if a.Prose == nil || a.Prose.Dropped != 1 || len(a.Prose.Risks) != 0 {
		t.Errorf("prose %+v, want the one statement dropped", a.Prose)
	}
	if !strings.Contains(a.ProseNote, "no statement whose quote stands in the documentation (1 dropped)") {
		t.Errorf("note %q", a.ProseNote)
	}
}
