// Package analytics computes aggregates from the compact fact rows a store
// streams: one row per record that a search matches, never the record.
// Both stores write the same SQL (Rows) over their facts tables and feed
// its rows to one Accumulator, so that they give the same figures to the
// last kopeck.
package analytics

import (
	"cmp"
	"database/sql"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/versioning"
)

// Row is one fact row as Rows selects it.
type Row struct {
	Purchase  sql.NullString
	Key, Name sql.NullString
	Published int64 // unix seconds
	Amount    sql.NullInt64
	Currency  sql.NullString
	Base      sql.NullInt64 // the initial price the price paid is compared with
	Final     sql.NullInt64 // the price paid: a contract's, a winner's offer
	Bids      sql.NullInt64
	Outcome   sql.NullString
}

// Dest returns the scan destinations of r, in the order of Rows' columns.
func (r *Row) Dest() []any {
	return []any{&r.Purchase, &r.Key, &r.Name, &r.Published, &r.Amount, &r.Currency, &r.Base, &r.Final, &r.Bids, &r.Outcome}
}

// Rows returns the SQL that selects the fact rows of the records of kind k
// that a store's condition picks, for grouping by by. source is the FROM
// clause that names the matches' facts f (it may join records r), where
// the condition over them; neither may use a placeholder before those of
// where, since Rows adds none. The SQL is the same on SQLite and
// PostgreSQL.
//
// A tender's participants and outcome are its standing
// (tenderbase.TenderStanding), which the stores keep in its facts row
// whenever a protocol, event or withdrawal changes it; the contract price
// its drop compares with is that of the one contract of its purchase,
// when it has exactly one. A contract or protocol joins its tender's
// facts t by purchase number for the dimensions it does not say, the
// initial price and the outcome.
func Rows(k tenderbase.Kind, by tenderbase.Dimension, source, where string) string {
	key, name := columns(by)
	if k == tenderbase.KindTender {
		return `SELECT f.purchase, ` + nameOf("f", key) + `, ` + nameOf("f", name) + `, f.published, f.amount, f.currency, f.base,
			(SELECT CASE WHEN count(*) = 1 THEN max(c.amount) END FROM facts c
				WHERE c.kind = 'contract' AND c.purchase = f.purchase AND c.currency = f.currency),
			f.bids, f.outcome
			FROM ` + source + ` WHERE ` + where
	}
	keyExpr, nameExpr := "NULL", "NULL"
	if key != "" {
		keyExpr = "COALESCE(f." + key + ", t." + key + ")"
		nameExpr = "CASE WHEN f." + key + " IS NOT NULL THEN " + nameOf("f", name) + " ELSE " + nameOf("t", name) + " END"
	}
	join := ` LEFT JOIN facts t ON t.kind = 'tender' AND t.purchase = f.purchase`
	if k == tenderbase.KindProtocol {
		return `SELECT f.purchase, ` + keyExpr + `, ` + nameExpr + `, f.published, f.amount, COALESCE(t.currency, 'RUB'), t.base, f.amount, f.bids, f.outcome
			FROM ` + source + join + ` WHERE ` + where
	}
	return `SELECT f.purchase, ` + keyExpr + `, ` + nameExpr + `, f.published, f.amount, f.currency,
		CASE WHEN t.currency = f.currency THEN t.base END, f.amount, t.bids, t.outcome
		FROM ` + source + join + ` WHERE ` + where
}

// ComplaintRows returns the SQL that selects the complaints lodged
// against the purchases of the matches that Rows selects with the same
// source and where (and the same arguments): one row per complaint, its
// purchase and its outcome. A complaint is a number that a complaint or
// a check result of the purchase names; its outcome is that of the newest
// current result naming it that decides one (tenderbase.ComplaintOutcome),
// else pending. The complaints' facts are read through their index of
// (kind, purchase), the matches' purchases once each.
func ComplaintRows(source, where string) string {
	return `SELECT k.purchase, COALESCE((SELECT r.outcome FROM facts r
			WHERE r.kind = 'complaint_result' AND r.purchase = k.purchase AND r.complaint = k.complaint AND r.outcome IS NOT NULL
			ORDER BY r.published DESC, r.rid DESC LIMIT 1), '` + tenderbase.ComplaintPending + `')
		FROM (SELECT DISTINCT c.purchase, c.complaint FROM facts c
			WHERE c.kind IN ('complaint', 'complaint_result') AND c.complaint IS NOT NULL
				AND c.purchase IN (SELECT f.purchase FROM ` + source + ` WHERE ` + where + `)) k`
}

// CustomerTenders is the SQL of the tenders of a customer in a period
// that its red flags count, as the table t of a WITH clause: inn, from
// and to are the placeholders of the INN and the bounds in unix seconds,
// each used once. Each row has the purchase, its date, whether its method
// is competitive (not from a single supplier: no EP... code, no
// «единственн» in the name; a method not stored counts as competitive),
// its participants, its initial price, the price of its one contract in
// its currency, and the notice's version.
func CustomerTenders(inn, from, to string) string {
	return `t AS (SELECT f.purchase, f.published, f.bids, f.base,
			NOT (upper(COALESCE(f.method_code, '')) LIKE 'EP%' OR COALESCE(f.method, '') LIKE '%единственн%') AS competitive,
			(SELECT CASE WHEN count(*) = 1 THEN max(c.amount) END FROM facts c
				WHERE c.kind = 'contract' AND c.purchase = f.purchase AND c.currency = f.currency) AS final,
			(SELECT v.revision FROM records r JOIN versions v ON v.id = r.version WHERE r.rid = f.rid) AS version
		FROM facts f WHERE f.kind = 'tender' AND f.customer_inn = ` + inn + ` AND f.published >= ` + from + ` AND f.published < ` + to + `)`
}

// Customer conditions over CustomerTenders' rows.
const (
	CustomerBidded    = `competitive AND bids > 0`
	CustomerSingleBid = `competitive AND bids = 1`
	CustomerPriced    = `competitive AND base > 0 AND final > 0`
	CustomerClose     = `competitive AND base > 0 AND final > 0 AND final * 100 >= base * 99`
	CustomerAmended   = `version >= 4`
)

// CustomerCounts is the SQL that counts CustomerTenders' rows: all, and
// those of CustomerBidded, SingleBid, Priced, Close and Amended, in that
// order.
func CustomerCounts(inn, from, to string) string {
	sum := func(cond string) string { return `COALESCE(sum(CASE WHEN ` + cond + ` THEN 1 ELSE 0 END), 0)` }
	return `WITH ` + CustomerTenders(inn, from, to) + ` SELECT count(*), ` + sum(CustomerBidded) + `, ` + sum(CustomerSingleBid) + `, ` +
		sum(CustomerPriced) + `, ` + sum(CustomerClose) + `, ` + sum(CustomerAmended) + ` FROM t`
}

// CustomerExamples is the SQL of the newest MaxExamples purchases of
// CustomerTenders' rows that meet cond.
func CustomerExamples(inn, from, to, cond string) string {
	return `WITH ` + CustomerTenders(inn, from, to) + ` SELECT purchase FROM t WHERE ` + cond +
		` ORDER BY published DESC, purchase DESC LIMIT ` + strconv.Itoa(tenderbase.MaxExamples)
}

// CustomerComplaints is the SQL of the complaints against a customer's
// purchases (ComplaintRows, with the complaint's date to order by): those
// of its tenders in the period, and of the complaints naming it as the
// customer published in the period.
func CustomerComplaints(inn, from, to string) string {
	return ComplaintRows("facts f", `f.kind IN ('tender', 'complaint') AND f.customer_inn = `+inn+
		` AND f.published >= `+from+` AND f.published < `+to)
}

// CustomerOutcomes adds the complaints of CustomerComplaints' rows to f,
// and the purchases of those upheld, wholly or in part, to f.Upheld: the
// MaxExamples largest numbers, each once.
func CustomerOutcomes(f *tenderbase.CustomerFigures, purchases, outcomes []string) {
	var upheld []string
	for i, o := range outcomes {
		f.Complaints.Add(o)
		if (o == tenderbase.ComplaintUpheld || o == tenderbase.ComplaintPartlyUpheld) && !slices.Contains(upheld, purchases[i]) {
			upheld = append(upheld, purchases[i])
		}
	}
	slices.Sort(upheld)
	slices.Reverse(upheld)
	f.Upheld = upheld[:min(len(upheld), tenderbase.MaxExamples)]
	if len(f.Upheld) == 0 {
		f.Upheld = nil
	}
}

// columns returns the facts columns of a dimension's key and name ("" for
// none). Every key column is text, which both stores scan alike.
func columns(by tenderbase.Dimension) (key, name string) {
	switch by {
	case tenderbase.ByCustomer:
		return "customer_inn", "customer_name"
	case tenderbase.BySupplier:
		return "supplier_inn", "supplier_name"
	case tenderbase.ByOrganizer:
		return "organizer_inn", "organizer_name"
	case tenderbase.ByRegion:
		return "region", ""
	case tenderbase.ByOKPD2:
		return "okpd2", ""
	case tenderbase.ByMethod:
		return "method_code", "method"
	case tenderbase.ByLaw:
		return "law", ""
	}
	return "", "" // month and quarter: the published column, cut in Go
}

func nameOf(alias, name string) string {
	if name == "" {
		return "NULL"
	}
	return alias + "." + name
}

// Accumulator adds up fact rows into groups.
type Accumulator struct {
	a      tenderbase.Aggregation
	groups map[string]*group
	total  group
	// purchases are the groups of each purchase's rows, for its
	// complaints (AddComplaint).
	purchases map[string][]*group
}

// NewAccumulator returns an accumulator for a.
func NewAccumulator(a tenderbase.Aggregation) *Accumulator {
	return &Accumulator{a: a, groups: map[string]*group{}, purchases: map[string][]*group{}}
}

// Check checks an aggregation as a store receives it and returns its
// search, and whether any record can match it: a search with a lookup no
// store holds matches nothing, and its aggregate is empty.
func Check(a tenderbase.Aggregation) (tenderbase.Search, bool, error) {
	if err := a.Validate(); err != nil {
		return tenderbase.Search{}, false, err
	}
	q := a.Matches()
	_, findable, err := versioning.CheckSearch(q)
	return q, findable, err
}

// group is the running figures of one group.
type group struct {
	f      tenderbase.Figures
	sums   map[string]*tenderbase.Sum
	prices []int64 // the amounts in roubles, for the quantiles
	names  map[string]int
	drop   tenderbase.Drop
	comp   tenderbase.Competition
	claims tenderbase.Complaints
}

// Add counts one row.
func (acc *Accumulator) Add(r Row) {
	key := acc.key(r)
	g := acc.groups[key]
	if g == nil {
		g = &group{}
		acc.groups[key] = g
	}
	g.add(r)
	acc.total.add(r)
	if p := r.Purchase.String; p != "" && !slices.Contains(acc.purchases[p], g) {
		acc.purchases[p] = append(acc.purchases[p], g)
	}
}

// AddComplaint counts a complaint against a purchase (ComplaintRows) once
// in each group holding a row of the purchase, and once in the total.
func (acc *Accumulator) AddComplaint(purchase, outcome string) {
	gs, ok := acc.purchases[purchase]
	if !ok {
		return
	}
	for _, g := range gs {
		g.claims.Add(outcome)
	}
	acc.total.claims.Add(outcome)
}

// key returns the group of a row: the dimension's value as the answer
// writes it.
func (acc *Accumulator) key(r Row) string {
	switch acc.a.By {
	case tenderbase.ByMonth, tenderbase.ByQuarter:
		return tenderbase.Period(acc.a.By, time.Unix(r.Published, 0))
	case tenderbase.ByOKPD2:
		return tenderbase.OKPD2Class(r.Key.String, acc.a.Digits())
	}
	return r.Key.String
}

func (g *group) add(r Row) {
	g.f.Count++
	if r.Name.Valid && r.Name.String != "" {
		if g.names == nil {
			g.names = map[string]int{}
		}
		g.names[r.Name.String]++
	}
	if r.Amount.Valid && r.Amount.Int64 > 0 {
		cur := r.Currency.String
		if g.sums == nil {
			g.sums = map[string]*tenderbase.Sum{}
		}
		s := g.sums[cur]
		if s == nil {
			s = &tenderbase.Sum{Currency: cur}
			g.sums[cur] = s
		}
		s.Minor += r.Amount.Int64
		s.Count++
		if cur == "RUB" {
			g.prices = append(g.prices, r.Amount.Int64)
		}
	}
	if base, final := r.Base.Int64, r.Final.Int64; r.Base.Valid && r.Final.Valid && base > 0 && final > 0 {
		g.drop.Count++
		g.drop.Initial += base
		g.drop.Final += final
		g.drop.BasisTotal += int64(math.Round(float64(base-final) * 10000 / float64(base)))
	}
	if n := r.Bids.Int64; n > 0 {
		g.comp.Procedures++
		g.comp.Participants += int(n)
		if n == 1 {
			g.comp.SingleBid++
		}
	}
	switch r.Outcome.String {
	case tenderbase.TenderFailed:
		g.comp.Failed++
		g.comp.Ended++
	case tenderbase.TenderCompleted:
		g.comp.Ended++
	}
}

// figures returns the group's figures, sums roubles first.
func (g *group) figures() tenderbase.Figures {
	f := g.f
	for _, s := range g.sums {
		f.Sums = append(f.Sums, *s)
	}
	slices.SortFunc(f.Sums, func(a, b tenderbase.Sum) int {
		return cmp.Or(-cmp.Compare(boolInt(a.Currency == "RUB"), boolInt(b.Currency == "RUB")), strings.Compare(a.Currency, b.Currency))
	})
	if len(g.prices) > 0 {
		p := slices.Clone(g.prices)
		slices.Sort(p)
		f.Prices = &tenderbase.Quantiles{Count: len(p), P25: rank(p, 25), Median: rank(p, 50), P75: rank(p, 75)}
	}
	if g.drop.Count > 0 {
		d := g.drop
		d.MeanBasis = int64(math.Round(float64(d.BasisTotal) / float64(d.Count)))
		f.Drop = &d
	}
	if g.comp != (tenderbase.Competition{}) {
		c := g.comp
		f.Competition = &c
	}
	if g.claims.Count > 0 {
		c := g.claims
		f.Complaints = &c
	}
	return f
}

// rubles returns the group's sum in roubles.
func (g *group) rubles() int64 {
	if s := g.sums["RUB"]; s != nil {
		return s.Minor
	}
	return 0
}

// name returns the name most of the group's rows give, the shortest and
// then the first in order on a tie.
func (g *group) name() string {
	best, n := "", 0
	for name, c := range g.names {
		if c > n || c == n && (len(name) < len(best) || len(name) == len(best) && name < best) {
			best, n = name, c
		}
	}
	return best
}

// rank returns the p-th percentile of sorted values by the nearest rank:
// the value at rank ceil(p/100 * n).
func rank(sorted []int64, p int) int64 {
	i := (p*len(sorted) + 99) / 100
	return sorted[max(i, 1)-1]
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Result returns the aggregate: the first Top groups, the count of the
// others and the total.
func (acc *Accumulator) Result() tenderbase.Aggregate {
	out := tenderbase.Aggregate{Kind: acc.a.Search.Kind, By: acc.a.By, Total: acc.total.figures(), Groups: []tenderbase.Group{}}
	if acc.a.By == tenderbase.ByOKPD2 {
		out.Level = acc.a.Digits()
	}
	keys := make([]string, 0, len(acc.groups))
	for k := range acc.groups {
		keys = append(keys, k)
	}
	byTime := acc.a.By == tenderbase.ByMonth || acc.a.By == tenderbase.ByQuarter
	slices.SortFunc(keys, func(a, b string) int {
		if byTime {
			return -strings.Compare(a, b)
		}
		ga, gb := acc.groups[a], acc.groups[b]
		return cmp.Or(-cmp.Compare(ga.f.Count, gb.f.Count), -cmp.Compare(ga.rubles(), gb.rubles()), strings.Compare(a, b))
	})
	top := min(len(keys), acc.a.Size())
	for _, k := range keys[:top] {
		g := acc.groups[k]
		out.Groups = append(out.Groups, tenderbase.Group{Key: k, Name: g.name(), Figures: g.figures()})
	}
	out.More = len(keys) - top
	return out
}

// StandingValues returns what a tender's facts keep of its standing: the
// participants its protocols in force name, and its state; NULL (nil)
// for no participant.
func StandingValues(s tenderbase.TenderStanding) (*int64, *string) {
	state := s.State
	if len(s.Participants) == 0 {
		return nil, &state
	}
	n := int64(len(s.Participants))
	return &n, &state
}

// Columns are the columns of a facts row after rid and kind, in the order
// of Values.
var Columns = []string{"purchase", "customer_inn", "customer_name", "supplier_inn", "supplier_name",
	"organizer_inn", "organizer_name", "region", "okpd2", "method_code", "method", "law",
	"published", "amount", "currency", "base", "bids", "outcome", "complaint"}

// Values returns the values of a facts row in the order of Columns: NULL
// (nil) for what the record does not say, so that a contract's missing
// dimension falls back to its tender's.
func Values(f tenderbase.Facts) []any {
	region := ""
	if f.Region > 0 {
		region = strconv.Itoa(f.Region)
	}
	return []any{text(f.Purchase), text(f.CustomerINN), text(f.CustomerName), text(f.SupplierINN), text(f.SupplierName),
		text(f.OrganizerINN), text(f.OrganizerName), text(region), text(f.OKPD2), text(f.MethodCode), text(f.Method), text(f.Law),
		f.Published.Unix(), positive(f.Amount), text(f.Currency), positive(f.Base), positive(int64(f.Bids)), text(f.Outcome), text(f.Complaint)}
}

func text(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func positive(n int64) any {
	if n <= 0 {
		return nil
	}
	return n
}
