package docjobs

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/tenderbase/tenderbase/internal/docanalysis"
)

// maxQuote is the longest quote an answer shows, in characters: a clause
// of a contract fits, and one screen holds the fifteen answers. A longer
// one is cut, with "…".
const maxQuote = 300

// Result is the compact answer of one analysis: each question answered
// with its quote and where it stands, the questions the documentation
// does not answer, and the files that gave no text.
type Result struct {
	PurchaseNumber string `json:"purchase_number"`
	// Version names the documentation read (Documentation.Version).
	Version string    `json:"version"`
	MadeAt  time.Time `json:"made_at"`
	// FromStore is set when the analysis was made before, of the same
	// documentation, and served again without being counted.
	FromStore bool     `json:"from_store"`
	Answers   []Answer `json:"answers"`
	// NotStated lists the questions the documentation does not answer.
	NotStated        []string   `json:"not_stated"`
	FilesRead        int        `json:"files_read"`
	FilesWithoutText []FileNote `json:"files_without_text"`
	// Summary and Risks are the prose a language model wrote, each
	// statement with the quote of the text it rests on; Prose says which
	// model, what it cost, and, in its note, why there is none.
	Summary []Statement `json:"summary,omitempty"`
	Risks   []Statement `json:"risks,omitempty"`
	Prose   ProseNote   `json:"prose"`
	Next    []string    `json:"next"`
}

// Statement is one statement of the model's prose, the quote it rests on
// and where that stands.
type Statement struct {
	Text  string `json:"text"`
	Quote string `json:"quote"`
	At    string `json:"at"`
}

// ProseNote says who wrote the prose and at what cost, or why there is
// none.
type ProseNote struct {
	Model            string `json:"model,omitempty"`
	PromptTokens     int    `json:"prompt_tokens,omitempty"`
	CompletionTokens int    `json:"completion_tokens,omitempty"`
	CostMicroUSD     int64  `json:"cost_micro_usd,omitempty"`
	// Dropped counts the model's statements left out for want of a quote
	// that stands in the text.
	Dropped int    `json:"dropped,omitempty"`
	Note    string `json:"note,omitempty"`
}

// Answer is one question answered: the facts in words, the quote they
// come from, copied from the file's text, and where it stands.
type Answer struct {
	Question string `json:"question"`
	Answer   string `json:"answer"`
	Quote    string `json:"quote"`
	At       string `json:"at"`
}

// FileNote is a file without text and why.
type FileNote struct {
	File   string `json:"file"`
	Reason string `json:"reason"`
}

// next names what to call after an analysis.
var next = []string{
	"ru.detail with the purchase number: the notice's facts (prices, dates, lots)",
	"docs.search with purchase_number: the files themselves and their addresses",
}

// resultOf writes the compact answer of an analysis.
func resultOf(number, version string, made time.Time, a docanalysis.Analysis) Result {
	r := Result{PurchaseNumber: number, Version: version, MadeAt: made.UTC(),
		Answers: []Answer{}, NotStated: []string{}, FilesWithoutText: []FileNote{}, Next: next}
	for _, ans := range a.Answers {
		if !ans.Found {
			r.NotStated = append(r.NotStated, string(ans.Question))
			continue
		}
		r.Answers = append(r.Answers, Answer{Question: string(ans.Question), Answer: factsText(ans.Facts),
			Quote: cut(ans.Quote, maxQuote), At: where(ans.At)})
	}
	for _, f := range a.Files {
		if f.HasText {
			r.FilesRead++
			continue
		}
		r.FilesWithoutText = append(r.FilesWithoutText, FileNote{File: f.Name, Reason: f.Reason})
	}
	r.Prose.Note = a.ProseNote
	if p := a.Prose; p != nil {
		r.Summary, r.Risks = statementsOf(p.Summary), statementsOf(p.Risks)
		r.Prose.Model, r.Prose.Dropped = p.Model, p.Dropped
		r.Prose.PromptTokens, r.Prose.CompletionTokens, r.Prose.CostMicroUSD = p.Usage.PromptTokens, p.Usage.CompletionTokens, p.Usage.CostMicroUSD
	}
	return r
}

func statementsOf(ss []docanalysis.Statement) []Statement {
	out := make([]Statement, 0, len(ss))
	for _, st := range ss {
		out = append(out, Statement{Text: st.Text, Quote: cut(st.Quote, maxQuote), At: where(st.At)})
	}
	return out
}

// where says where a quote stands: "Проект контракта.docx, paragraph 41,
// page 3".
func where(l docanalysis.Locator) string {
	s := l.File + ", paragraph " + strconv.Itoa(l.Paragraph)
	if l.Page > 0 {
		s += ", page " + strconv.Itoa(l.Page)
	}
	return s
}

// factsText says the facts of a quote in words; "stated" when the quote
// itself is the answer (the requirements, a label).
func factsText(f docanalysis.Facts) string {
	var parts []string
	if f.NotRequired {
		parts = append(parts, "not required / not provided")
	}
	for _, p := range f.Percents {
		parts = append(parts, strconv.FormatFloat(p, 'f', -1, 64)+"%")
	}
	for _, a := range f.Amounts {
		parts = append(parts, strconv.FormatFloat(a, 'f', 2, 64)+" RUB")
	}
	for _, d := range f.Days {
		parts = append(parts, strings.TrimSpace(fmt.Sprintf("%d %s days", d.N, d.Kind)))
	}
	for _, m := range f.Months {
		parts = append(parts, strconv.Itoa(m)+" months")
	}
	for _, d := range f.Decrees {
		parts = append(parts, "decree № "+d)
	}
	parts = append(parts, f.Dates...)
	for _, c := range f.Criteria {
		parts = append(parts, fmt.Sprintf("%s %s%%", c.Name, strconv.FormatFloat(c.Weight, 'f', -1, 64)))
	}
	if f.Equivalent {
		parts = append(parts, "«или эквивалент» allowed")
	}
	if len(f.Brands) > 0 {
		parts = append(parts, "brands: "+strings.Join(f.Brands, ", "))
	}
	if len(parts) == 0 {
		return "stated"
	}
	return strings.Join(parts, "; ")
}

// cut cuts s to at most n characters, with "…".
func cut(s string, n int) string {
	rs := []rune(s)
	if len(rs) <= n {
		return s
	}
	return strings.TrimSpace(string(rs[:n-1])) + "…"
}

// Comparison lines up the answers of two to five tenders, question by
// question.
type Comparison struct {
	PurchaseNumbers []string `json:"purchase_numbers"`
	// Rows has one row a question, in the order of the questions, with a
	// cell a tender in the order of PurchaseNumbers.
	Rows []Row `json:"rows"`
	// Tenders says, per tender, the documentation read.
	Tenders []TenderNote `json:"tenders"`
	Next    []string     `json:"next"`
}

// Row is one question across the tenders compared.
type Row struct {
	Question string `json:"question"`
	Cells    []Cell `json:"cells"`
}

// Cell is one tender's answer to a question: "not stated", or the facts
// with the quote and where it stands.
type Cell struct {
	Answer string `json:"answer"`
	Quote  string `json:"quote,omitempty"`
	At     string `json:"at,omitempty"`
}

// TenderNote is what a comparison says of one tender's documentation.
type TenderNote struct {
	PurchaseNumber   string     `json:"purchase_number"`
	Version          string     `json:"version"`
	FromStore        bool       `json:"from_store"`
	FilesRead        int        `json:"files_read"`
	FilesWithoutText []FileNote `json:"files_without_text"`
}

// compareQuote is the longest quote of a comparison's cell: five tenders
// side by side share the screen.
const compareQuote = 160

// comparisonOf lines up results.
func comparisonOf(results []Result) Comparison {
	c := Comparison{Rows: []Row{}, Next: []string{"docs.analyze with purchase_number: one tender's whole answers"}}
	for _, r := range results {
		c.PurchaseNumbers = append(c.PurchaseNumbers, r.PurchaseNumber)
		c.Tenders = append(c.Tenders, TenderNote{PurchaseNumber: r.PurchaseNumber, Version: r.Version, FromStore: r.FromStore,
			FilesRead: r.FilesRead, FilesWithoutText: r.FilesWithoutText})
	}
	for _, q := range docanalysis.Questions {
		row := Row{Question: string(q)}
		for _, r := range results {
			cell := Cell{Answer: "not stated"}
			for _, a := range r.Answers {
				if a.Question == string(q) {
					cell = Cell{Answer: a.Answer, Quote: cut(a.Quote, compareQuote), At: a.At}
				}
			}
			row.Cells = append(row.Cells, cell)
		}
		c.Rows = append(c.Rows, row)
	}
	return c
}
