package tools

import (
	"context"
	"strings"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/docjobs"
)

// analyzeArgs are the arguments of docs.analyze.
type analyzeArgs struct {
	PurchaseNumber  string   `json:"purchase_number,omitempty" jsonschema:"One tender."`
	PurchaseNumbers []string `json:"purchase_numbers,omitempty" jsonschema:"Or 2-5 tenders, side by side."`
}

// analyzeOutput is one tender's analysis, or a comparison.
type analyzeOutput struct {
	Analysis   *docjobs.Result     `json:"analysis,omitempty"`
	Comparison *docjobs.Comparison `json:"comparison,omitempty"`
}

// SetAnalyses gives docs.analyze the service that makes and keeps the
// analyses: cmd builds it with its analyser.
func (s *Set) SetAnalyses(a *docjobs.Service) { s.analyses = a }

func (s *Set) docsAnalyze() (*Tool, error) {
	return build(definition[analyzeArgs]{
		name:  "docs.analyze",
		title: "Analyze a tender's documentation",
		description: "A tender's whole documentation answered: securities, advance, delivery, payment, criteria, requirements, " +
			"national regime, SME, penalties, warranty, term; each with quote and file; files without text. Guru, corporate. " +
			`Example: {"purchase_number": "0190200000326003928"}.`,
		output: outputOf[analyzeOutput](""),
		run: func(ctx context.Context, args analyzeArgs) (Output, error) {
			if err := requireAnalysis(ctx); err != nil {
				return Output{}, err
			}
			if s.analyses == nil {
				return Output{}, tenderbase.Errorf(tenderbase.EUNAVAILABLE, "this server makes no analyses of documentation")
			}
			key, _ := tenderbase.KeyFromContext(ctx)
			one := strings.TrimSpace(args.PurchaseNumber)
			switch {
			case one != "" && len(args.PurchaseNumbers) > 0:
				return Output{}, argErrorf("give purchase_number or purchase_numbers, not both")
			case one != "":
				r, err := s.analyses.Analyze(ctx, key, one)
				if err != nil {
					return Output{}, err
				}
				return output(analyzeOutput{Analysis: &r}, restricted{})
			case len(args.PurchaseNumbers) > 0:
				c, err := s.analyses.Compare(ctx, key, args.PurchaseNumbers)
				if err != nil {
					return Output{}, err
				}
				return output(analyzeOutput{Comparison: &c}, restricted{})
			}
			return Output{}, argErrorf("purchase_number, or purchase_numbers to compare, is required")
		},
	})
}
