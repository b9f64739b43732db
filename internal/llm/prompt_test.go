package llm

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/tenderbase/tenderbase/internal/docanalysis"
)

// TestUserPrompt checks what is sent of a documentation larger than the
// budget: the extracted answers with the lines around their quotes, the
// main files before the others, every file's start within its share, the
// files without text named, and nothing past the budget.
func TestUserPrompt(t *testing.T) {
	long := func(prefix string, n int) string {
		var b strings.Builder
		for i := range n {
			b.WriteString(prefix)
			b.WriteString(strings.Repeat(" текст", 10))
			if i == n/2 {
				b.WriteString(" Обеспечение заявки не требуется.")
			}
			b.WriteByte('\n')
		}
		return b.String()
	}
	files := []docanalysis.File{
		{Name: "Приложение 3.docx", Text: long("приложение", 400)},
		{Name: "Скан.pdf", Unread: "no text layer (a scan)"},
		{Name: "Проект договора.docx", Text: long("договор", 400)},
	}
	a := docanalysis.Analyze(files)
	const budget = 6000
	got := userPrompt(a, files, budget)
	if n := utf8.RuneCountInString(got); n > budget {
		t.Errorf("%d characters sent, more than the budget of %d", n, budget)
	}
	contract, other := strings.Index(got, "=== Проект договора.docx ==="), strings.Index(got, "=== Приложение 3.docx ===")
	if contract < 0 || other < 0 || contract > other {
		t.Errorf("the draft contract at %d, the appendix at %d: want both, the contract first", contract, other)
	}
	for _, want := range []string{
		"- application_security (Приложение 3.docx, line 201):\nприложение текст",
		"- advance: not stated\n",
		"Files whose text could not be read: Скан.pdf (no text layer (a scan))",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("no %q in what is sent:\n%s", want, got)
		}
	}
	// Each file gets about half of what the answers leave.
	part := got[other:]
	if n := utf8.RuneCountInString(part); n < budget/4 {
		t.Errorf("the appendix got %d characters, want at least %d", n, budget/4)
	}
}
