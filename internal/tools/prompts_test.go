package tools

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/tenderbase/tenderbase"
)

// withDocs and alsoWithDocs are demo tenders whose documentation has text.
const (
	withDocs     = "0662149146023646546"
	alsoWithDocs = "0232627444823187206"
)

func TestAnalyzeTender(t *testing.T) {
	p, ok := demoSet.Prompt("analyze_tender")
	if !ok {
		t.Fatal("no prompt analyze_tender")
	}
	for _, plan := range []tenderbase.Plan{tenderbase.PlanGuru, tenderbase.PlanCorporate} {
		res, err := p.Get(asPlan(plan), map[string]string{"tend_num": withDocs})
		if err != nil {
			t.Fatalf("%s: %v", plan, err)
		}
		if len(res.Messages) != 1 || res.Messages[0].Role != "user" {
			t.Fatalf("%s: messages %+v", plan, res.Messages)
		}
		text := res.Messages[0].Text
		for _, want := range []string{
			"## Tender " + withDocs + ": the facts", `"purchase_number":"` + withDocs + `"`,
			"## Tender " + withDocs + ": documentation", "characters shown)",
		} {
			if !strings.Contains(text, want) {
				t.Errorf("%s: the prompt lacks %q:\n%s", plan, want, text)
			}
		}
	}
	for _, c := range []struct {
		plan tenderbase.Plan
		args map[string]string
		code string // of a *tenderbase.Error, or "argument"
	}{
		{tenderbase.PlanFree, map[string]string{"tend_num": withDocs}, tenderbase.EFORBIDDEN},
		{tenderbase.PlanStandard, map[string]string{"tend_num": withDocs}, tenderbase.EFORBIDDEN},
		{tenderbase.PlanGuru, map[string]string{"tend_num": "0000000000000000000"}, tenderbase.ENOTFOUND},
		{tenderbase.PlanGuru, map[string]string{}, "argument"},
		{tenderbase.PlanGuru, map[string]string{"tend_num": withDocs, "id": "1"}, "argument"},
		{tenderbase.PlanGuru, map[string]string{"tend_num": strings.Repeat("1", 100)}, "argument"},
	} {
		_, err := p.Get(asPlan(c.plan), c.args)
		if got := promptErrorCode(err); got != c.code {
			t.Errorf("%s %v: %v (%s), want %s", c.plan, c.args, err, got, c.code)
		}
	}
}

func TestCompareTenders(t *testing.T) {
	p, _ := demoSet.Prompt("compare_tenders")
	res, err := p.Get(asPlan(tenderbase.PlanGuru), map[string]string{"tend_nums": withDocs + ", " + alsoWithDocs})
	if err != nil {
		t.Fatal(err)
	}
	text := res.Messages[0].Text
	if strings.Index(text, "# Tender 1 of 2") > strings.Index(text, "# Tender 2 of 2") ||
		!strings.Contains(text, "## Tender "+alsoWithDocs+": documentation") {
		t.Errorf("the comparison lacks a tender:\n%s", text)
	}
	for _, numbers := range []string{withDocs, strings.Repeat(withDocs+" ", 6)} {
		if _, err := p.Get(asPlan(tenderbase.PlanGuru), map[string]string{"tend_nums": numbers}); promptErrorCode(err) != "argument" {
			t.Errorf("%q: %v, want an argument error", numbers, err)
		}
	}
}

// TestPromptsByPlan checks, for each plan, that a prompt is allowed to the
// plans that include the analysis of documentation and to no other, and
// that Get refuses the others as forbidden before it reads its arguments.
func TestPromptsByPlan(t *testing.T) {
	for _, plan := range tenderbase.PlanNames {
		want := plan == tenderbase.PlanGuru || plan == tenderbase.PlanCorporate
		for _, p := range demoSet.Prompts() {
			if got := p.Allowed(asPlan(plan)); got != want {
				t.Errorf("%s: %s allowed %v, want %v", plan, p.Name, got, want)
			}
			_, err := p.Get(asPlan(plan), map[string]string{"unknown": "1"})
			if code := promptErrorCode(err); want && code != "argument" || !want && code != tenderbase.EFORBIDDEN {
				t.Errorf("%s: %s with a wrong argument: %v (%s)", plan, p.Name, err, code)
			}
		}
	}
}

func promptErrorCode(err error) string {
	var argErr *ArgumentError
	switch {
	case err == nil:
		return ""
	case errors.As(err, &argErr):
		return "argument"
	}
	return tenderbase.ErrorCode(err)
}

func TestExcerpts(t *testing.T) {
	filler := func(n int) string {
		return strings.Repeat("Прочие положения настоящего документа. ", n)
	}
	requirements := "Требования к участникам закупки и требования к характеристикам товара: срок поставки 10 дней, оплата в течение 7 дней, обеспечение заявки 1%."
	doc := strings.Join([]string{filler(10), requirements, filler(10), filler(10)}, "\n\n")
	got := excerpts([]docText{{name: "doc.docx", text: doc}}, utf8.RuneCountInString(requirements)+utf8.RuneCountInString(filler(10)))

	// The part that names the most is kept first, then the earliest part
	// that fits; what is left out is marked where it was.
	want := fmt.Sprintf("### doc.docx (%d of %d characters shown)\n\n%s\n\n%s\n\n[…]\n\n",
		utf8.RuneCountInString(requirements)+utf8.RuneCountInString(strings.TrimSpace(filler(10))), utf8.RuneCountInString(doc),
		strings.TrimSpace(filler(10)), requirements)
	if got != want {
		t.Errorf("excerpts:\n%s\nwant:\n%s", got, want)
	}

	long := strings.Repeat("слово ", 1000) // 6,000 characters, no blank line
	parts := paragraphs(long)
	if len(parts) < 3 {
		t.Fatalf("a text of 6,000 characters without blank lines is %d parts", len(parts))
	}
	for _, p := range parts {
		if n := utf8.RuneCountInString(p); n > maxPart {
			t.Errorf("a part of %d characters", n)
		}
	}
	if got := excerpts([]docText{{name: "big.pdf", text: long}}, 4); !strings.HasPrefix(got, "### big.pdf (0 of 6000 characters shown)\n\n[…]") {
		t.Errorf("a file none of which fits: %q", got[:min(len(got), 80)])
	}
}
