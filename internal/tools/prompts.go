package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/tenderbase/tenderbase"
)

// Prompt is a prompt of the MCP interface: a message the client's own model
// reads, made of the server's data. No model runs on the server.
type Prompt struct {
	Name        string
	Title       string
	Description string
	Arguments   []PromptArgument
	// Authorize refuses, with an EFORBIDDEN error that names the plans
	// that may, a caller whose plan does not include the prompt; nil lets
	// every caller have it. prompts/list lists only the prompts the
	// caller's plan passes, and Get refuses the others before it reads
	// its arguments.
	Authorize func(ctx context.Context) error
	// Get builds the prompt's messages from its arguments. Its errors are
	// *ArgumentError for arguments that do not fit, or a *tenderbase.Error
	// (EINVALID, ENOTFOUND, EFORBIDDEN), or an internal error.
	Get func(ctx context.Context, args map[string]string) (PromptResult, error)
}

// PromptArgument is one argument of a prompt, a string.
type PromptArgument struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	Required    bool   `json:"required"`
}

// PromptResult is what a prompt gives: a description and messages.
type PromptResult struct {
	Description string          `json:"description"`
	Messages    []PromptMessage `json:"messages"`
}

// PromptMessage is one message of a prompt, from the user, of text.
type PromptMessage struct {
	Role string `json:"role"`
	Text string `json:"text"`
}

// Budgets of the documentation a prompt brings, in characters: about
// 10,000 tokens for one tender, and as much again shared by the tenders
// compared.
const (
	analyzeBudget     = 40_000
	compareBudget     = 60_000
	maxCompared       = 5
	maxDocsOfATender  = 50
	promptNumberLimit = maxNumberLength
)

// Prompts returns the prompts of the set, in a fixed order.
func (s *Set) Prompts() []*Prompt { return s.prompts }

// Allowed reports whether the caller of ctx may have the prompt.
func (p *Prompt) Allowed(ctx context.Context) bool {
	return p.Authorize == nil || p.Authorize(ctx) == nil
}

// Prompt returns the prompt called name.
func (s *Set) Prompt(name string) (*Prompt, bool) {
	i := slices.IndexFunc(s.prompts, func(p *Prompt) bool { return p.Name == name })
	if i < 0 {
		return nil, false
	}
	return s.prompts[i], true
}

func (s *Set) promptDefinitions() []*Prompt {
	return []*Prompt{
		{
			Name:  "analyze_tender",
			Title: "Analyze a tender and its documentation",
			Description: "A Russian tender's facts (customer, prices, dates, lots, state, winners) and the text of its documentation, " +
				"the parts about requirements, terms, payment and evaluation first, for your model to judge whether and how to bid. " +
				"Guru and corporate plans.",
			Arguments: []PromptArgument{{Name: "tend_num", Required: true,
				Description: "The tender's purchase number: 19 digits under 44-FZ, 11 under 223-FZ."}},
			Authorize: requireAnalysis,
			Get:       s.analyzeTender,
		},
		{
			Name:  "compare_tenders",
			Title: "Compare tenders and their documentation",
			Description: "The facts and the documentation of two to five Russian tenders side by side, for your model to compare " +
				"their terms, requirements and prices. Guru and corporate plans.",
			Arguments: []PromptArgument{{Name: "tend_nums", Required: true,
				Description: "Two to five purchase numbers, separated by commas or spaces."}},
			Authorize: requireAnalysis,
			Get:       s.compareTenders,
		},
	}
}

func (s *Set) analyzeTender(ctx context.Context, args map[string]string) (PromptResult, error) {
	if err := requireAnalysis(ctx); err != nil {
		return PromptResult{}, err
	}
	if err := checkPromptArgs(args, "tend_num"); err != nil {
		return PromptResult{}, err
	}
	number := strings.TrimSpace(args["tend_num"])
	if err := checkPromptNumber(number); err != nil {
		return PromptResult{}, err
	}
	var b strings.Builder
	b.WriteString("Analyze this Russian public tender for a supplier deciding whether to bid. Say what is bought and in what quantities, " +
		"the customer and the law, the maximum price and the security required, the deadlines, the requirements for participants " +
		"and for the goods or work, how applications are evaluated, the payment terms and penalties, and any risk or unusual condition " +
		"you find in the documentation. Quote the documentation where it decides. Where the text below is cut, say what you could not check.\n\n")
	if err := s.writeTender(ctx, &b, number, analyzeBudget); err != nil {
		return PromptResult{}, err
	}
	return PromptResult{Description: "Analysis of tender " + number,
		Messages: []PromptMessage{{Role: "user", Text: b.String()}}}, nil
}

func (s *Set) compareTenders(ctx context.Context, args map[string]string) (PromptResult, error) {
	if err := requireAnalysis(ctx); err != nil {
		return PromptResult{}, err
	}
	if err := checkPromptArgs(args, "tend_nums"); err != nil {
		return PromptResult{}, err
	}
	numbers := strings.FieldsFunc(args["tend_nums"], func(r rune) bool { return r == ',' || r == ' ' || r == ';' || r == '\n' })
	numbers = slices.Compact(numbers)
	if len(numbers) < 2 || len(numbers) > maxCompared {
		return PromptResult{}, argErrorf("argument \"tend_nums\" must name 2 to %d purchase numbers, got %d", maxCompared, len(numbers))
	}
	for _, n := range numbers {
		if err := checkPromptNumber(n); err != nil {
			return PromptResult{}, err
		}
	}
	var b strings.Builder
	b.WriteString("Compare these Russian public tenders for a supplier choosing where to bid: what each buys, the customers, " +
		"maximum prices and securities, deadlines, requirements for participants and for the goods or work, evaluation, payment terms " +
		"and penalties. Give a table of the main terms, then say which tender is the better opportunity and why. " +
		"Where the text below is cut, say what you could not check.\n\n")
	for i, n := range numbers {
		fmt.Fprintf(&b, "# Tender %d of %d\n\n", i+1, len(numbers))
		if err := s.writeTender(ctx, &b, n, compareBudget/len(numbers)); err != nil {
			return PromptResult{}, err
		}
	}
	return PromptResult{Description: "Comparison of tenders " + strings.Join(numbers, ", "),
		Messages: []PromptMessage{{Role: "user", Text: b.String()}}}, nil
}

// checkPromptArgs refuses an argument the prompt does not take, and a
// missing one.
func checkPromptArgs(args map[string]string, name string) error {
	for k := range args {
		if k != name {
			return argErrorf("unknown argument %s; this prompt takes %s", tenderbase.Quote(k), name)
		}
	}
	if strings.TrimSpace(args[name]) == "" {
		return argErrorf("argument %q is required", name)
	}
	return nil
}

func checkPromptNumber(n string) error {
	if len(n) > promptNumberLimit {
		return argErrorf("a purchase number is at most %d characters; %s is %d", promptNumberLimit, tenderbase.Quote(n[:promptNumberLimit]+"…"), len(n))
	}
	return nil
}

// requireAnalysis refuses a caller whose plan does not include the
// analysis of documentation.
func requireAnalysis(ctx context.Context) error {
	c := callerOf(ctx)
	if !c.limits.DocumentAnalysis {
		return tenderbase.Errorf(tenderbase.EFORBIDDEN,
			"the analysis of documentation is part of the guru and corporate plans; the %s plan reads the tender with ru.detail and its documents with docs.search", c.plan)
	}
	return nil
}

// writeTender writes a tender's facts, as ru.detail gives them to the
// caller, and the text of its documentation within budget characters.
func (s *Set) writeTender(ctx context.Context, b *strings.Builder, number string, budget int) error {
	detail, ok := s.Lookup("ru.detail")
	if !ok {
		return fmt.Errorf("no tool ru.detail")
	}
	args, err := json.Marshal(map[string]string{"id": number})
	if err != nil {
		return err
	}
	out, err := detail.Call(ctx, args)
	if err != nil {
		return err
	}
	var facts bytes.Buffer
	if err := json.Compact(&facts, out.Value); err != nil {
		return fmt.Errorf("the facts of tender %s: %w", number, err)
	}
	fmt.Fprintf(b, "## Tender %s: the facts (JSON, as ru.detail gives them)\n\n%s\n\n", number, facts.String())
	docs, err := s.store.Search(ctx, tenderbase.Search{Kind: tenderbase.KindDoc, PageSize: maxDocsOfATender,
		Where: []tenderbase.Lookup{{Field: tenderbase.LookupPurchaseNumber, Value: number}}})
	if err != nil {
		return fmt.Errorf("documentation of tender %s: %w", number, err)
	}
	var texts []docText
	for _, r := range docs.Items {
		if d, ok := r.(*tenderbase.Doc); ok && strings.TrimSpace(d.Text) != "" {
			texts = append(texts, docText{name: d.FileName, text: d.Text})
		}
	}
	fmt.Fprintf(b, "## Tender %s: documentation\n\n", number)
	if len(texts) == 0 {
		fmt.Fprintf(b, "No text of its documentation is stored (%d files listed in the facts may not have been downloaded).\n\n", docs.Total)
		return nil
	}
	b.WriteString(excerpts(texts, budget))
	return nil
}
