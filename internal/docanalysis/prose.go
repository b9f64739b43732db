package docanalysis

import (
	"context"
	"errors"
	"fmt"
)

// Prose is the part of an analysis a language model writes: a summary of
// the documentation and the risks it sees for a bidder, each statement
// resting on a quote of the documentation's text.
type Prose struct {
	Summary []Statement
	Risks   []Statement
	// Model is the model that wrote it, as its endpoint names it.
	Model string
	Usage Usage
	// Dropped counts the model's statements left out: one with no quote,
	// a quote too short to prove anything, or a quote that does not stand
	// in the text.
	Dropped int
}

// Statement is one statement of the prose and the quote it rests on,
// copied from the documentation's text, and where the quote stands.
type Statement struct {
	Text  string
	Quote string
	At    Locator
}

// Usage is what writing the prose cost: the tokens of every request made
// for one analysis, summed, and their price.
type Usage struct {
	PromptTokens     int
	CompletionTokens int
	// CostMicroUSD is the price of the tokens in millionths of a US
	// dollar, at the prices configured; 0 when none are.
	CostMicroUSD int64
}

// ProseWriter writes the prose of an analysis from its extracted answers
// and the files' text. An error says why no prose was written; the Prose
// returned with it still carries the Usage of the requests that were
// answered, since they were paid for. A writer need not check the quotes:
// AnalyzeWith does.
type ProseWriter interface {
	WriteProse(ctx context.Context, a Analysis, files []File) (Prose, error)
}

// NoModelNote is the ProseNote of an analysis made with no model
// configured.
const NoModelNote = "the summary and the judgement of risks need a language model, and none is configured; " +
	"the answers above are extracted by rule"

// AnalyzeWith answers every question from the files, as Analyze does, and
// has w write the prose. With w nil, the analysis has the extraction and
// NoModelNote. When w fails, the analysis keeps the extraction, and its
// ProseNote says what failed (and Prose, with no statements, what the
// failed requests cost). Every statement whose quote does not stand in the
// files' text is dropped and counted. The error is ctx's, when the caller
// gave up; the analysis returned with it still has the extraction.
func AnalyzeWith(ctx context.Context, files []File, w ProseWriter) (Analysis, error) {
	a := Analyze(files)
	if w == nil {
		a.ProseNote = NoModelNote
		return a, nil
	}
	p, err := w.WriteProse(ctx, a, files)
	if err != nil {
		a.ProseNote = "the summary and the judgement of risks were not written: " + err.Error()
		a.ProseFailed = true
		if p.Usage != (Usage{}) {
			a.Prose = &Prose{Model: p.Model, Usage: p.Usage}
		}
		if ctxErr := ctx.Err(); ctxErr != nil && errors.Is(err, ctxErr) {
			return a, fmt.Errorf("write the prose: %w", err)
		}
		return a, nil
	}
	p = Verify(p, files)
	a.Prose = &p
	if len(p.Summary)+len(p.Risks) == 0 {
		a.ProseNote = fmt.Sprintf("the model gave no statement whose quote stands in the documentation (%d dropped)", p.Dropped)
	}
	return a, nil
}

// Verify keeps the statements of p whose quote stands in the text of the
// files, and sets where each stands; the others are dropped and counted in
// Dropped.
func Verify(p Prose, files []File) Prose {
	idx := newQuoteIndex(files)
	keep := func(in []Statement) []Statement {
		var out []Statement
		for _, s := range in {
			at, ok := idx.locate(s.Quote)
			if !ok || s.Text == "" {
				p.Dropped++
				continue
			}
			s.At = at
			out = append(out, s)
		}
		return out
	}
	p.Summary = keep(p.Summary)
	p.Risks = keep(p.Risks)
	return p
}
