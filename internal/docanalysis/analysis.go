// Package docanalysis answers the questions a bidder reads a tender's
// documentation for (securities, advance, delivery, payment, criteria,
// requirements, national regime, SME, penalties, warranty, term, brands,
// deadline) from the text of its files, by deterministic rules over the
// wording of Russian procurement documents: no language model is needed.
package docanalysis

// Question is one of the fixed questions of an analysis.
type Question string

// The questions, in the order an analysis lists them.
const (
	ApplicationSecurity    Question = "application_security"
	ContractSecurity       Question = "contract_security"
	WarrantySecurity       Question = "warranty_security"
	Advance                Question = "advance"
	Delivery               Question = "delivery"
	Payment                Question = "payment"
	EvaluationCriteria     Question = "evaluation_criteria"
	Requirements           Question = "requirements"
	NationalRegime         Question = "national_regime"
	SME                    Question = "sme"
	Penalties              Question = "penalties"
	Warranty               Question = "warranty"
	ContractTerm           Question = "contract_term"
	BrandWithoutEquivalent Question = "brand_without_equivalent"
	ShortDeadline          Question = "short_deadline"
)

// Questions lists every question in order.
var Questions = []Question{
	ApplicationSecurity, ContractSecurity, WarrantySecurity, Advance,
	Delivery, Payment, EvaluationCriteria, Requirements, NationalRegime,
	SME, Penalties, Warranty, ContractTerm, BrandWithoutEquivalent,
	ShortDeadline,
}

// File is one file of the documentation with its text.
type File struct {
	Name string
	// Text is the file's text as internal/doctext gives it: one paragraph
	// a line. Empty for a file that gave none.
	Text string
	// Unread says why the file gave no text (a scan, a format not read);
	// "" for a file that was read.
	Unread string
}

// Analysis is the answer to every question for one tender.
type Analysis struct {
	Answers []Answer
	Files   []FileStatus
	// Prose is the summary and the risks a language model wrote
	// (AnalyzeWith); nil when none was written.
	Prose *Prose
	// ProseNote says why there is no prose, or what went wrong writing
	// it: no model configured, the model failed, or no statement of it
	// rested on a quote of the text. "" when the prose is whole.
	ProseNote string
	// ProseFailed is set when the model configured failed to write the
	// prose (an error, no answer in time): the analysis is whole but for
	// it, and one asked again should ask the model again.
	ProseFailed bool `json:",omitempty"`
}

// FileStatus says, per file, whether the analysis had its text.
type FileStatus struct {
	Name    string
	HasText bool
	// Reason says why a file had no text: a scan with no text layer, a
	// format not read.
	Reason string
}

// Answer is the answer to one question: the facts found, the quote they
// come from and where it stands, or nothing when the documentation does not
// state it (Found false).
type Answer struct {
	Question Question
	Found    bool
	Facts    Facts
	// Quote is the sentence or clause the facts come from, copied exactly
	// from the file's text.
	Quote string
	At    Locator
}

// Locator says where a quote stands.
type Locator struct {
	File string
	// Paragraph is the 1-based line of the file's text (doctext writes a
	// paragraph a line; in a PDF a line of the page).
	Paragraph int
	// Page is the 1-based page of an EIS print form, told by the footer
	// the EIS prints on each page; 0 where the text gives no pages.
	Page int
}

// Facts are the values a quote states.
type Facts struct {
	// NotRequired is set when the quote says the thing is not required or
	// not provided («не требуется», «не предусмотрено»).
	NotRequired bool
	Percents    []float64
	// Amounts are sums of money in roubles.
	Amounts []float64
	Days    []Days
	// Months are terms in months (a warranty's); years are counted as 12
	// months.
	Months []int
	// Decrees are the numbers of Government decrees (ПП РФ № 1875...).
	Decrees  []string
	Dates    []string
	Criteria []Criterion
	// Equivalent is set when the quote allows «или эквивалент».
	Equivalent bool
	// Brands are the trade marks named without «или эквивалент».
	Brands []string
}

// Days is a term in days.
type Days struct {
	N int
	// Kind is "working", "calendar" or "" when the text does not say.
	Kind string
}

// Criterion is an evaluation criterion and its weight in percent.
type Criterion struct {
	Name   string
	Weight float64
}
