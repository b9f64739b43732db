package tools

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/analytics"
)

// profileArgs are the arguments of analytics.profile.
type profileArgs struct {
	INN  string `json:"inn" jsonschema:"The organization's."`
	Role string `json:"role,omitempty" jsonschema:"auto by default."`
	Top  int    `json:"top,omitempty" jsonschema:"Rows a list; 10 by default."`
	From string `json:"from,omitempty" jsonschema:"YYYY-MM-DD."`
	To   string `json:"to,omitempty" jsonschema:"YYYY-MM-DD, included."`
	By   string `json:"by,omitempty" jsonschema:"Spend by; year by default."`
}

// profileResult is the output of analytics.profile: a customer's parts or
// a supplier's, each list with how many more it leaves out.
type profileResult struct {
	INN  string `json:"inn"`
	Name string `json:"name,omitempty"`
	Role string `json:"role"`
	// A customer's.
	Contracts     *aggFigures   `json:"contracts,omitempty" jsonschema:"Its contracts; drop: from the notice's price."`
	Suppliers     []aggGroup    `json:"suppliers,omitempty"`
	MoreSuppliers int           `json:"more_suppliers,omitempty"`
	Spend         []profileSpan `json:"spend,omitempty" jsonschema:"Contracts by year or quarter, latest first."`
	Notices       *aggFigures   `json:"notices,omitempty" jsonschema:"Its notices: single-bid share, failures."`
	Methods       []aggGroup    `json:"methods,omitempty"`
	MoreMethods   int           `json:"more_methods,omitempty"`
	Complaints    *int          `json:"complaints,omitempty" jsonschema:"Complaints against it."`
	// A supplier's.
	Procedures    *profileBids             `json:"procedures,omitempty" jsonschema:"Lots of its protocols."`
	Rivals        []tenderbase.Rival       `json:"rivals,omitempty" jsonschema:"Met most; won_over: won where it did not."`
	MoreRivals    int                      `json:"more_rivals,omitempty"`
	Winners       []tenderbase.Rival       `json:"winners,omitempty" jsonschema:"Won most where it did not."`
	MoreWinners   int                      `json:"more_winners,omitempty"`
	Customers     []aggGroup               `json:"customers,omitempty"`
	MoreCustomers int                      `json:"more_customers,omitempty"`
	Statuses      []tenderbase.StatusCount `json:"statuses,omitempty" jsonschema:"Its contracts by status."`
	Unfair        *int                     `json:"unfair,omitempty" jsonschema:"Entries in the unfair-supplier register."`
	Next          string                   `json:"next"`
}

// profileSpan is the contracts of one year or quarter.
type profileSpan struct {
	Period string   `json:"period"`
	Count  int      `json:"count"`
	Sums   []aggSum `json:"sums,omitempty"`
}

// profileBids is a supplier's record in the protocols.
type profileBids struct {
	Count      int     `json:"count"`
	Won        int     `json:"won"`
	Lost       int     `json:"lost" jsonschema:"Another won."`
	WinRatePct float64 `json:"win_rate_pct"`
}

func (s *Set) analyticsProfile() (*Tool, error) {
	return build(definition[profileArgs]{
		name:  "analytics.profile",
		title: "Profile of an INN",
		description: "An INN as customer (suppliers, spend, methods, single bid, drops, complaints) or supplier " +
			"(wins, losses, rivals and who won, customers, discount, contract statuses, RNP). Paid plans. " +
			`Example: {"inn": "6163041287"}.`,
		output: outputOf[profileResult](""),
		rules: map[string]func(*jsonschema.Schema){
			"role": func(p *jsonschema.Schema) { p.Enum = anyOf([]string{"auto", "customer", "supplier"}) },
			"by":   func(p *jsonschema.Schema) { p.Enum = anyOf([]string{"year", "quarter"}) },
			"top":  func(p *jsonschema.Schema) { bound(p, 1, tenderbase.MaxTop) },
		},
		run: s.profile,
	})
}

func (s *Set) profile(ctx context.Context, args profileArgs) (Output, error) {
	c := callerOf(ctx)
	if c.limits.AggregateTop == 0 {
		return Output{}, tenderbase.Errorf(tenderbase.EFORBIDDEN,
			"profiles are part of the standard, guru and corporate plans; the %s plan reads an INN's records with contragent.byInn", c.plan)
	}
	if args.Top > c.limits.AggregateTop {
		return Output{}, argErrorf("the %s plan lists at most %d rows; ask for top %d or fewer", c.plan, c.limits.AggregateTop, c.limits.AggregateTop)
	}
	st, ok := tenderbase.StoreAs[analytics.ProfileStore](s.store)
	if !ok {
		return Output{}, fmt.Errorf("the store %T computes no profiles", s.store)
	}
	p, err := profilingOf(args)
	if err != nil {
		return Output{}, err
	}
	if p.Role == "" {
		if p.Role, err = roleOf(ctx, st, p.INN); err != nil {
			return Output{}, err
		}
	}
	got, err := analytics.Profile(ctx, st, p)
	if err != nil {
		return Output{}, err
	}
	res := profileResultOf(got, args)
	out, err := output(res, restricted{})
	out.Text = res.text()
	return out, err
}

// profilingOf reads the arguments; a role of auto is left "".
func profilingOf(args profileArgs) (tenderbase.Profiling, error) {
	p := tenderbase.Profiling{INN: strings.TrimSpace(args.INN), Top: args.Top, Quarterly: args.By == "quarter"}
	switch args.Role {
	case "", "auto":
	default:
		p.Role = tenderbase.Role(args.Role)
	}
	if args.By != "" && args.By != "year" && args.By != "quarter" {
		return p, argErrorf("argument \"by\" must be year or quarter, got %s", tenderbase.Quote(args.By))
	}
	for _, d := range []struct {
		name, value string
		at          *time.Time
		days        int
	}{{"from", args.From, &p.From, 0}, {"to", args.To, &p.To, 1}} {
		if d.value == "" {
			continue
		}
		t, err := time.ParseInLocation(time.DateOnly, d.value, moscow)
		if err != nil {
			return p, argErrorf("argument %q is a date YYYY-MM-DD, got %s", d.name, tenderbase.Quote(d.value))
		}
		*d.at = t.AddDate(0, 0, d.days)
	}
	role := p.Role
	if role == "" {
		role = tenderbase.RoleCustomer // validated as either
	}
	q := p
	q.Role = role
	return p, q.Validate()
}

// roleOf returns the role of more of the INN's records: the contracts and
// notices it placed as customer against the contracts and protocols that
// name it as supplier or participant; customer on a tie.
func roleOf(ctx context.Context, st analytics.ProfileStore, inn string) (tenderbase.Role, error) {
	count := func(k tenderbase.Kind, field string) (int, error) {
		page, err := st.Search(ctx, tenderbase.Search{Kind: k, Where: []tenderbase.Lookup{{Field: field, Value: inn}}, PageSize: 1})
		return page.Total, err
	}
	var n [4]int
	for i, q := range []struct {
		k     tenderbase.Kind
		field string
	}{{tenderbase.KindContract, tenderbase.LookupCustomerINN}, {tenderbase.KindTender, tenderbase.LookupCustomerINN},
		{tenderbase.KindContract, tenderbase.LookupSupplierINN}, {tenderbase.KindProtocol, tenderbase.LookupSupplierINN}} {
		var err error
		if n[i], err = count(q.k, q.field); err != nil {
			return "", err
		}
	}
	if n[2]+n[3] > n[0]+n[1] {
		return tenderbase.RoleSupplier, nil
	}
	return tenderbase.RoleCustomer, nil
}

func profileResultOf(p tenderbase.Profile, args profileArgs) profileResult {
	res := profileResult{INN: p.INN, Name: p.Name, Role: string(p.Role)}
	groups := func(a *tenderbase.Aggregate, filter string) []aggGroup {
		out := []aggGroup{}
		for _, g := range a.Groups {
			var f map[string]any
			if g.Key != "" {
				f = map[string]any{filter: g.Key}
			}
			out = append(out, aggGroup{Key: g.Key, Name: g.Name, Filter: f, Figures: figuresOf(g.Figures)})
		}
		return out
	}
	if p.Role == tenderbase.RoleCustomer {
		contracts, notices := figuresOf(p.Suppliers.Total), figuresOf(p.Methods.Total)
		res.Contracts, res.Notices, res.Complaints = &contracts, &notices, &p.Complaints
		res.Suppliers, res.MoreSuppliers = groups(p.Suppliers, "supplier_inn"), p.Suppliers.More
		res.Methods, res.MoreMethods = groups(p.Methods, "placing_method"), p.Methods.More
		for _, g := range p.Spend {
			f := figuresOf(g.Figures)
			res.Spend = append(res.Spend, profileSpan{Period: g.Key, Count: f.Count, Sums: f.Sums})
		}
		res.Next = fmt.Sprintf(`contracts.search {"customer_inn": %q} with a supplier's filter lists their contracts, ru.search with a method's its notices; `+
			`analytics.aggregate {"resource": "contracts", "search": {"customer_inn": %q}, "by": "okpd2"} groups them otherwise; `+
			`analytics.profile with a supplier's inn profiles it.`, p.INN, p.INN)
		return res
	}
	rv := p.Rivalry
	contracts := figuresOf(p.Customers.Total)
	res.Contracts, res.Unfair = &contracts, &p.Unfair
	res.Procedures = &profileBids{Count: rv.Procedures, Won: rv.Won, Lost: rv.Lost, WinRatePct: percent(rv.Won, rv.Procedures)}
	res.Rivals, res.MoreRivals, res.Winners, res.MoreWinners = rv.Rivals, rv.MoreRivals, rv.Winners, rv.MoreWinners
	res.Customers, res.MoreCustomers = groups(p.Customers, "customer_inn"), p.Customers.More
	res.Statuses = rv.Statuses
	res.Next = fmt.Sprintf(`contracts.search {"supplier_inn": %q} with a customer's filter lists their contracts; `+
		`ru.search {"participant_inn": %q} lists the notices it bid on; analytics.profile with a rival's inn profiles the rival; `+
		`rnp.search {"inn": %q} reads its register entries.`, p.INN, p.INN, p.INN)
	return res
}
