package tenderbase

import (
	"cmp"
	"context"
	"math"
	"slices"
	"strings"
	"time"
)

// Dimension is what an aggregation groups the records of a search by.
type Dimension string

// The dimensions. A contract or protocol that does not say a dimension
// itself (a protocol names no region, a contract no placing method) takes
// it from the notice of its tender, by purchase number.
const (
	ByCustomer  Dimension = "customer"  // the customer's INN
	BySupplier  Dimension = "supplier"  // a contract's first supplier, a protocol's first winner
	ByOrganizer Dimension = "organizer" // who placed the purchase: the organizer, else the customer
	ByRegion    Dimension = "region"    // the two-digit region code
	ByOKPD2     Dimension = "okpd2"     // the OKPD2 class of the main object, at Aggregation.Level digits
	ByMethod    Dimension = "method"    // the placing method's code
	ByLaw       Dimension = "law"       // 44 or 223
	ByMonth     Dimension = "month"     // the month of the record's date, Moscow time: 2024-03
	ByQuarter   Dimension = "quarter"   // its quarter: 2024-Q1
)

// Dimensions lists the dimensions, in the order the tools name them.
var Dimensions = []Dimension{ByCustomer, BySupplier, ByOrganizer, ByRegion, ByOKPD2, ByMethod, ByLaw, ByMonth, ByQuarter}

// AggregateKinds are the kinds whose records have Facts and so aggregate.
var AggregateKinds = []Kind{KindTender, KindContract, KindProtocol}

// Aggregation asks a store for the records a search matches, in groups.
// The search's page, cursor and sort are ignored: every match counts.
type Aggregation struct {
	Search Search
	By     Dimension
	// Level is the number of digits of an OKPD2 class (1 to 9; 0 is 2,
	// the section's division: 41 «Здания и работы по возведению зданий»).
	Level int
	// Top is how many groups the answer lists (1 to MaxTop; 0 is
	// DefaultTop); the rest are counted as More.
	Top int
}

// DefaultTop and MaxTop bound the groups an aggregate lists.
const (
	DefaultTop = 10
	MaxTop     = 100
)

// Digits returns the OKPD2 level of the aggregation.
func (a Aggregation) Digits() int {
	if a.Level == 0 {
		return 2
	}
	return a.Level
}

// Size returns the number of groups the answer lists.
func (a Aggregation) Size() int {
	if a.Top == 0 {
		return DefaultTop
	}
	return a.Top
}

// Matches returns the aggregation's search without its page, cursor and
// sort, which choose nothing among the matches.
func (a Aggregation) Matches() Search {
	s := a.Search
	s.Page, s.PageSize, s.Cursor, s.Sort = 0, 0, "", ""
	return s
}

// Validate checks an aggregation: a kind with facts, a known dimension
// that the kind has, a level and a top in range, and a search that
// Search.Validate passes (its paging aside).
func (a Aggregation) Validate() error {
	s := a.Matches()
	if err := s.Validate(); err != nil {
		return err
	}
	if !aggregates(s.Kind) {
		return Errorf(EINVALID, "records of kind %s do not aggregate: tenders, contracts and protocols do", Quote(string(s.Kind)))
	}
	known := false
	for _, d := range Dimensions {
		known = known || d == a.By
	}
	if !known {
		names := make([]string, len(Dimensions))
		for i, d := range Dimensions {
			names[i] = string(d)
		}
		return Errorf(EINVALID, "unknown grouping %s (known: %s)", Quote(string(a.By)), strings.Join(names, ", "))
	}
	if a.By == BySupplier && s.Kind == KindTender {
		return Errorf(EINVALID, "a notice names no supplier: group contracts or protocols by supplier")
	}
	if a.Level < 0 || a.Level > 9 {
		return Errorf(EINVALID, "level is the digits of an OKPD2 class, from 1 to 9, got %d", a.Level)
	}
	if a.Level != 0 && a.By != ByOKPD2 {
		return Errorf(EINVALID, "level applies to the grouping by okpd2 only")
	}
	if a.Top < 0 || a.Top > MaxTop {
		return Errorf(EINVALID, "top must be from 1 to %d, got %d", MaxTop, a.Top)
	}
	return nil
}

// FactKinds names the kinds whose records have Facts: those that
// aggregate, and complaints and their check results.
func FactKinds() []string {
	out := []string{}
	for _, k := range append(slices.Clone(AggregateKinds), KindComplaint, KindComplaintResult) {
		out = append(out, string(k))
	}
	return out
}

func aggregates(k Kind) bool {
	for _, a := range AggregateKinds {
		if a == k {
			return true
		}
	}
	return false
}

// Aggregator is a store that answers aggregations from its own tables:
// the match set of the search, as it counts a search's exact total,
// joined with the facts it keeps beside every record. Both stores of the
// project are Aggregators and give the same figures to the same question.
//
// Errors: EINVALID for an aggregation that Validate refuses.
type Aggregator interface {
	Aggregate(ctx context.Context, a Aggregation) (Aggregate, error)
}

// Aggregate is the answer to an aggregation: the first groups, the count
// of the others, and the figures of all matches together.
type Aggregate struct {
	Kind  Kind      `json:"kind"`
	By    Dimension `json:"by"`
	Level int       `json:"level,omitempty"`
	// Groups are the first Top groups: the largest by count (then by sum
	// in roubles, then by key), or for month and quarter the latest.
	Groups []Group `json:"groups"`
	// More is the number of groups beyond Groups.
	More int `json:"more"`
	// Total is the figures of every match, in every group or none.
	Total Figures `json:"total"`
	// Generation is that of the data read (Page.Generation).
	Generation int64 `json:"-"`
}

// Group is the figures of the matches that share one key.
type Group struct {
	// Key is the group's value of the dimension: an INN, a region code,
	// an OKPD2 class, a method code, a law, a month. "" gathers the
	// matches that do not say it.
	Key string `json:"key"`
	// Name is what the key stands for, as most of the group's records
	// write it (the fewest letters first on a tie): a customer's name,
	// a method's name; "" when the records give none.
	Name string `json:"name,omitempty"`
	Figures
}

// Figures are counts and sums over a set of records. Money is in minor
// units (kopecks), added as integers: no float adds up a sum.
type Figures struct {
	Count int `json:"count"`
	// Sums are the amounts by currency, roubles first: a tender's
	// maximum price, a contract's price, a protocol winner's offer.
	Sums []Sum `json:"sums,omitempty"`
	// Prices are the quantiles of the amounts in roubles, nil when no
	// record has one.
	Prices *Quantiles `json:"prices,omitempty"`
	// Drop is the price drop from the initial price to the contract's
	// (or the winner's offer), over the records where both are known.
	Drop *Drop `json:"drop,omitempty"`
	// Competition is the participants and outcomes of the procedures,
	// over the records whose tender has a protocol or failed.
	Competition *Competition `json:"competition,omitempty"`
	// Complaints is the complaints lodged against the purchases of the
	// records, each purchase counted once, and what their checks decided.
	Complaints *Complaints `json:"complaints,omitempty"`
}

// Complaints counts complaints by the outcome of their checks: each
// complaint once, as the newest current check result naming it decided
// (ComplaintOutcome). A complaint is known by its number, from the
// complaint itself or from a check result that names it; a complaint the
// EIS withdrew (complaintCancel) is no longer stored and not counted.
type Complaints struct {
	Count     int `json:"count"`
	Upheld    int `json:"upheld"`        // founded: COMPLAINT_VIOLATIONS
	Partly    int `json:"partly_upheld"` // founded in part: COMPLAINT_PARTLY_VALID
	Dismissed int `json:"dismissed"`     // not founded: COMPLAINT_NO_VIOLATIONS
	Pending   int `json:"pending"`       // no stored result decides it
}

// Add counts one complaint of the outcome.
func (c *Complaints) Add(outcome string) {
	c.Count++
	switch outcome {
	case ComplaintUpheld:
		c.Upheld++
	case ComplaintPartlyUpheld:
		c.Partly++
	case ComplaintDismissed:
		c.Dismissed++
	default:
		c.Pending++
	}
}

// Outcomes of a complaint's check, as Complaints counts them.
const (
	ComplaintUpheld       = "upheld"
	ComplaintPartlyUpheld = "partly_upheld"
	ComplaintDismissed    = "dismissed"
	ComplaintPending      = "pending"
)

// ComplaintOutcome returns the outcome a check result's complaintResult
// decides, as the EIS codes it, and "" for a code that decides none of
// them (the result then leaves its complaint pending).
func ComplaintOutcome(result string) string {
	switch strings.TrimSpace(result) {
	case "COMPLAINT_VIOLATIONS":
		return ComplaintUpheld
	case "COMPLAINT_PARTLY_VALID":
		return ComplaintPartlyUpheld
	case "COMPLAINT_NO_VIOLATIONS":
		return ComplaintDismissed
	}
	return ""
}

// Sum is an amount in one currency over Count records.
type Sum struct {
	Currency string `json:"currency"`
	Minor    int64  `json:"minor"` // kopecks or the currency's hundredths
	Count    int    `json:"count"`
}

// Quantiles of prices in roubles, in kopecks, by the nearest rank: each
// is a price some record of the set has, so that stores and readers
// agree on it without interpolating.
type Quantiles struct {
	Count  int   `json:"count"`
	P25    int64 `json:"p25"`
	Median int64 `json:"median"`
	P75    int64 `json:"p75"`
}

// Drop is the mean price drop over Count records, in basis points of the
// initial price (1,234 is 12.34%): each record's drop is rounded to a
// basis point, so that the mean is the same however the records come.
type Drop struct {
	Count      int   `json:"count"`
	MeanBasis  int64 `json:"mean_bp"`
	Initial    int64 `json:"initial_minor"` // the initial prices added up
	Final      int64 `json:"final_minor"`   // the prices paid added up
	BasisTotal int64 `json:"-"`             // the drops added up, for the mean
}

// Competition is the participants and outcomes of procedures. Participants
// are those the protocols in force name, by INN, as a tender's standing
// counts them (TenderStanding.Participants).
type Competition struct {
	// Procedures with at least one participant known, and the
	// participants they had in all.
	Procedures   int `json:"procedures"`
	Participants int `json:"participants"`
	SingleBid    int `json:"single_bid"` // procedures with one participant
	// Ended is the procedures that ended (completed or failed); Failed
	// those of them that failed.
	Ended  int `json:"ended"`
	Failed int `json:"failed"`
}

// MeanParticipants returns the participants per procedure.
func (c Competition) MeanParticipants() float64 {
	if c.Procedures == 0 {
		return 0
	}
	return float64(c.Participants) / float64(c.Procedures)
}

// Facts are what a record contributes to an aggregation: the values of
// its dimensions and its money, as a store keeps them beside the record.
// A zero field is one the record does not say.
type Facts struct {
	// Purchase is the purchase number, which joins a contract or a
	// protocol to its tender's facts.
	Purchase      string
	CustomerINN   string
	CustomerName  string
	SupplierINN   string
	SupplierName  string
	OrganizerINN  string
	OrganizerName string
	Region        int
	OKPD2         string // the full code of the main object
	MethodCode    string
	Method        string
	Law           string
	Published     time.Time // the record's Date
	Amount        int64     // minor units; 0 when none
	Currency      string    // ISO 4217, RUB when the record says none
	// Base is the initial price a contract's price or a winner's offer is
	// compared with: a notice's maximum price when it has one lot at most,
	// since a contract of one of several lots has no initial price of its
	// own in the notice's total.
	Base int64
	// Bids is a protocol's participants, Outcome what it decided
	// (TenderCompleted, TenderFailed or ""). A tender's are its standing's
	// (its participants and state), which the stores write into its
	// facts whenever they derive it. A contract's Outcome is its status
	// as the registry gives it (Contract.Status; execution when none).
	Bids    int
	Outcome string
	// Complaint is a complaint's number, or the number of the complaint
	// a check result decides; a check result's Outcome is what it decided
	// (ComplaintOutcome). Complaints and their results have facts so that
	// an aggregate counts the complaints of its purchases in the store.
	Complaint string
}

// FactsOf returns the facts of r, and false for a kind that has none:
// those that aggregate (AggregateKinds), and complaints and their check
// results, which join the purchases of an aggregate.
func FactsOf(r Record) (Facts, bool) {
	switch r := r.(type) {
	case *Complaint:
		return Facts{Purchase: r.PurchaseNumber, CustomerINN: r.CustomerINN, Published: r.Date(), Complaint: r.ComplaintNumber}, true
	case *ComplaintResult:
		return Facts{Purchase: r.PurchaseNumber, Published: r.Date(), Complaint: cmp.Or(r.ComplaintNumber, r.ComplaintRegNumber),
			Outcome: ComplaintOutcome(r.ComplaintResult)}, true
	case *Tender:
		return tenderFacts(r), true
	case *Contract:
		return contractFacts(r), true
	case *Protocol:
		return protocolFacts(r), true
	}
	return Facts{}, false
}

func tenderFacts(t *Tender) Facts {
	f := Facts{
		Purchase: t.PurchaseNumber, CustomerINN: t.Customer.INN, CustomerName: partyName(t.Customer),
		OrganizerINN: t.Customer.INN, OrganizerName: partyName(t.Customer),
		Region: t.Region, MethodCode: t.PlacingMethodCode, Method: t.PlacingMethod, Law: t.Law,
		Published: t.Date(), Amount: minor(t.MaxPrice), Currency: CurrencyCode(t.Currency),
	}
	if t.Organizer != nil && t.Organizer.INN != "" {
		f.OrganizerINN, f.OrganizerName = t.Organizer.INN, partyName(t.Organizer.Party)
	}
	if f.MethodCode == "" {
		f.MethodCode = t.PlacingMethod
	}
	if len(t.Lots) <= 1 {
		f.Base = f.Amount
	}
	var objects []PurchaseObject
	for _, l := range t.Lots {
		objects = append(objects, l.Objects...)
	}
	f.OKPD2 = mainCode(objects)
	return f
}

func contractFacts(c *Contract) Facts {
	f := Facts{
		Purchase: c.PurchaseNumber, CustomerINN: c.Customer.INN, CustomerName: partyName(c.Customer),
		Region: c.Region, Law: c.Law, Published: c.Date(), Amount: minor(c.Price), Currency: CurrencyCode(c.Currency),
		OKPD2: mainCode(c.Objects), Outcome: cmp.Or(c.Status, ContractExecuting),
	}
	if len(c.Suppliers) > 0 {
		f.SupplierINN, f.SupplierName = c.Suppliers[0].INN, partyName(c.Suppliers[0])
	}
	return f
}

func protocolFacts(p *Protocol) Facts {
	f := Facts{
		Purchase: p.PurchaseNumber, CustomerINN: p.Customer.INN, CustomerName: partyName(p.Customer),
		Law: p.Law, Published: p.Date(), Bids: len(p.Participants),
	}
	if w := p.Winners(); len(w) > 0 {
		f.SupplierINN, f.SupplierName, f.Amount = w[0].INN, partyName(w[0].Party), minor(w[0].Price)
		f.Outcome = TenderCompleted
	}
	if p.Failed {
		f.Outcome = TenderFailed
	}
	return f
}

// partyName returns the name a party gives, its full name first.
func partyName(p Party) string {
	if p.Name != "" {
		return p.Name
	}
	return p.ShortName
}

// mainCode returns the OKPD2 code of the object with the largest sum, the
// first on a tie: a record with several codes counts in one class only,
// so that the groups add up to the total.
func mainCode(objects []PurchaseObject) string {
	code, best := "", math.Inf(-1)
	for _, o := range objects {
		if o.OKPD2Code != "" && o.Sum > best {
			code, best = strings.TrimSpace(o.OKPD2Code), o.Sum
		}
	}
	return code
}

// minor returns a price in minor units (Kopecks), 0 for none or for a
// value no int64 of kopecks holds.
func minor(amount float64) int64 {
	if !(amount > 0) || amount > math.MaxInt64/1000 {
		return 0
	}
	return Kopecks(amount)
}

// CurrencyCode returns the ISO 4217 letters of a currency as the sources
// write it: none, RUR or 643 are the rouble.
func CurrencyCode(c string) string {
	switch c = strings.ToUpper(strings.TrimSpace(c)); c {
	case "", "RUR", "643":
		return "RUB"
	}
	return c
}

// OKPD2Class returns the class of a dotted OKPD2 code at digits digits:
// 41.20.40.000 at 4 is 41.20, at 3 is 41.2; a code with fewer digits is
// itself.
func OKPD2Class(code string, digits int) string {
	n := 0
	for i := 0; i < len(code); i++ {
		if c := code[i]; c >= '0' && c <= '9' {
			n++
			if n == digits {
				return code[:i+1]
			}
		}
	}
	return code
}

// Period returns the month (2024-03) or the quarter (2024-Q1) of t in
// Moscow time, where the procurement it dates happened.
func Period(by Dimension, t time.Time) string {
	t = t.In(Moscow)
	if by == ByQuarter {
		return t.Format("2006") + "-Q" + string(rune('1'+(int(t.Month())-1)/3))
	}
	return t.Format("2006-01")
}
