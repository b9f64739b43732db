package analytics

import (
	"cmp"
	"context"
	"slices"
	"strings"

	"github.com/tenderbase/tenderbase"
)

// ProfileStore is a store that answers every part of a profile: the
// aggregates of the organization's records, its rivalry in the protocols,
// and the exact totals of searches.
type ProfileStore interface {
	tenderbase.Aggregator
	tenderbase.Rivals
	Search(ctx context.Context, s tenderbase.Search) (tenderbase.Page, error)
}

// Profile answers p from st: each part an aggregate, a rivalry or a
// search's total that the store computes, none by reading the records.
func Profile(ctx context.Context, st ProfileStore, p tenderbase.Profiling) (tenderbase.Profile, error) {
	if err := p.Validate(); err != nil {
		return tenderbase.Profile{}, err
	}
	out := tenderbase.Profile{INN: p.INN, Role: p.Role}
	if p.Role == tenderbase.RoleSupplier {
		return out, supplierProfile(ctx, st, p, &out)
	}
	return out, customerProfile(ctx, st, p, &out)
}

func customerProfile(ctx context.Context, st ProfileStore, p tenderbase.Profiling, out *tenderbase.Profile) error {
	contracts := scope(tenderbase.KindContract, tenderbase.LookupCustomerINN, p)
	suppliers, err := st.Aggregate(ctx, tenderbase.Aggregation{Search: contracts, By: tenderbase.BySupplier, Top: p.Top})
	if err != nil {
		return err
	}
	quarters, err := st.Aggregate(ctx, tenderbase.Aggregation{Search: contracts, By: tenderbase.ByQuarter, Top: tenderbase.MaxTop})
	if err != nil {
		return err
	}
	methods, err := st.Aggregate(ctx, tenderbase.Aggregation{Search: scope(tenderbase.KindTender, tenderbase.LookupCustomerINN, p),
		By: tenderbase.ByMethod, Top: p.Top})
	if err != nil {
		return err
	}
	if out.Complaints, err = total(ctx, st, scope(tenderbase.KindComplaint, tenderbase.LookupCustomerINN, p)); err != nil {
		return err
	}
	out.Suppliers, out.Methods, out.Spend = &suppliers, &methods, spend(quarters.Groups, p.Quarterly)
	for _, s := range []tenderbase.Search{contracts, scope(tenderbase.KindTender, tenderbase.LookupCustomerINN, p)} {
		if out.Name != "" {
			break
		}
		if out.Name, err = nameIn(ctx, st, p.INN, s, tenderbase.ByCustomer); err != nil {
			return err
		}
	}
	return nil
}

func supplierProfile(ctx context.Context, st ProfileStore, p tenderbase.Profiling, out *tenderbase.Profile) error {
	contracts := scope(tenderbase.KindContract, tenderbase.LookupSupplierINN, p)
	customers, err := st.Aggregate(ctx, tenderbase.Aggregation{Search: contracts, By: tenderbase.ByCustomer, Top: p.Top})
	if err != nil {
		return err
	}
	rv, err := st.Rivalry(ctx, p)
	if err != nil {
		return err
	}
	if out.Unfair, err = total(ctx, st, tenderbase.Search{Kind: tenderbase.KindUnfairSupplier,
		Where: []tenderbase.Lookup{{Field: tenderbase.LookupINN, Value: p.INN}}}); err != nil {
		return err
	}
	out.Customers, out.Rivalry, out.Name = &customers, &rv, rv.Name
	if out.Name == "" {
		out.Name, err = nameIn(ctx, st, p.INN, contracts, tenderbase.BySupplier)
	}
	return err
}

// nameIn returns the name the records of s give the INN, grouped by by,
// or "".
func nameIn(ctx context.Context, st ProfileStore, inn string, s tenderbase.Search, by tenderbase.Dimension) (string, error) {
	a, err := st.Aggregate(ctx, tenderbase.Aggregation{Search: s, By: by, Top: tenderbase.MaxTop})
	for _, g := range a.Groups {
		if g.Key == inn {
			return g.Name, err
		}
	}
	return "", err
}

// scope returns the search of the records of kind k whose lookup field
// holds the profile's INN, dated in its period.
func scope(k tenderbase.Kind, field string, p tenderbase.Profiling) tenderbase.Search {
	s := tenderbase.Search{Kind: k, Where: []tenderbase.Lookup{{Field: field, Value: p.INN}}}
	if !p.From.IsZero() || !p.To.IsZero() {
		r := tenderbase.Unbounded(tenderbase.MeasurePublished)
		if !p.From.IsZero() {
			r.Min = float64(p.From.Unix())
		}
		if !p.To.IsZero() {
			r.Max = float64(p.To.Unix() - 1)
		}
		s.Ranges = []tenderbase.Range{r}
	}
	return s
}

// total returns the exact number of the records s matches.
func total(ctx context.Context, st ProfileStore, s tenderbase.Search) (int, error) {
	s.PageSize = 1
	page, err := st.Search(ctx, s)
	return page.Total, err
}

// spend adds the quarters (latest first) up by year, or keeps them.
func spend(quarters []tenderbase.Group, quarterly bool) []tenderbase.Group {
	out := []tenderbase.Group{}
	if quarterly {
		return append(out, quarters...)
	}
	for _, q := range quarters {
		year, _, _ := strings.Cut(q.Key, "-")
		if len(out) == 0 || out[len(out)-1].Key != year {
			out = append(out, tenderbase.Group{Key: year})
		}
		y := &out[len(out)-1]
		y.Count += q.Count
		for _, s := range q.Sums {
			i := slices.IndexFunc(y.Sums, func(t tenderbase.Sum) bool { return t.Currency == s.Currency })
			if i < 0 {
				y.Sums = append(y.Sums, tenderbase.Sum{Currency: s.Currency})
				i = len(y.Sums) - 1
			}
			y.Sums[i].Minor += s.Minor
			y.Sums[i].Count += s.Count
		}
		slices.SortFunc(y.Sums, func(a, b tenderbase.Sum) int {
			return cmp.Or(-cmp.Compare(boolInt(a.Currency == "RUB"), boolInt(b.Currency == "RUB")), strings.Compare(a.Currency, b.Currency))
		})
	}
	return out
}
