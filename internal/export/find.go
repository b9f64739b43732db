package export

import (
	"context"
	"fmt"
	"strconv"

	"github.com/tenderbase/tenderbase"
)

// Found is what an export request found: one page of records, the exact
// total of matches, and how the plan's row cap cut the page.
type Found struct {
	Records []tenderbase.Record
	Total   int
	Page    int
	PerPage int // the page size used: per_page, lowered to the row cap
	RowCap  int // 0: none
	// PastCap is set when the page lies wholly past the row cap, which is
	// why it holds no records.
	PastCap bool
}

// Find runs request q against store for a caller on plan p whose row cap
// is rowCap (0: none). The search runs as p may run it (Plan.Restrict): its
// kwords match only the text p sees, and a parameter that selects by a
// field p does not see is refused with an EFORBIDDEN error naming it.
// Records past the cap are never returned: a page that reaches over it is
// cut short, a page past it is empty and PastCap is set. The records of
// mode=fasEIS carry in resultFAS the outcome of the latest check result of
// the complaint, where one is stored and p sees it.
func Find(ctx context.Context, store tenderbase.Store, q Request, p tenderbase.Plan, rowCap int) (Found, error) {
	f := Found{Page: q.Page, PerPage: q.PerPage, RowCap: rowCap}
	if f.PerPage == 0 {
		f.PerPage = DefaultPerPage
	}
	if rowCap > 0 {
		f.PerPage = min(f.PerPage, rowCap)
	}
	keep := f.PerPage
	if rowCap > 0 {
		keep = max(0, min(keep, rowCap-min(q.Page, rowCap)*f.PerPage))
	}
	if q.ID != 0 {
		return f, f.byID(ctx, store, q.ID, keep)
	}
	s, err := searchOf(ctx, store, q)
	if err != nil {
		return Found{}, err
	}
	if s, err = p.Restrict(s, lookupParams()); err != nil {
		return Found{}, err
	}
	s.Page, s.PageSize = q.Page, f.PerPage
	if keep == 0 {
		// Only the total is wanted: the smallest page gives it.
		s.Page, s.PageSize, f.PastCap = 0, 1, true
	}
	page, err := store.Search(ctx, s)
	if err != nil {
		return Found{}, fmt.Errorf("export %s: %w", q.Mode, err)
	}
	f.Total = page.Total
	f.Records = page.Items[:min(keep, len(page.Items))]
	if q.Result {
		carryComplaintID(f.Records, q.ComplaintID)
	}
	if p.Hides(tenderbase.KindComplaintResult, "complaintResult") {
		// The outcome is a field of the result the plan does not see.
		return f, nil
	}
	return f, settleResults(ctx, store, f.Records)
}

// byID finds the case with id, as a page of one record or none.
func (f *Found) byID(ctx context.Context, store tenderbase.Store, id int64, keep int) error {
	r, err := store.Get(ctx, tenderbase.KindFASCase, strconv.FormatInt(id, 10))
	switch {
	case tenderbase.ErrorCode(err) == tenderbase.ENOTFOUND:
		return nil
	case err != nil:
		return fmt.Errorf("export case %d: %w", id, err)
	}
	f.Total = 1
	if f.Page == 0 && keep > 0 {
		f.Records = []tenderbase.Record{r}
	}
	f.PastCap = keep == 0
	return nil
}

// searchOf returns the search a request stands for.
func searchOf(ctx context.Context, store tenderbase.Store, q Request) (tenderbase.Search, error) {
	switch {
	case q.Mode == ModeFas && q.INN != "":
		return tenderbase.Search{Kind: tenderbase.KindFASCase, Where: lookups(tenderbase.LookupINN, q.INN)}, nil
	case q.Mode == ModeFas:
		return tenderbase.Search{Kind: tenderbase.KindFASCase, Query: q.Kwords}, nil
	case q.Result:
		return resultSearch(ctx, store, q.ComplaintID)
	}
	return tenderbase.Search{Kind: tenderbase.KindComplaint, Where: lookups(
		tenderbase.LookupCustomerINN, q.CustomerINN,
		tenderbase.LookupSupplierINN, q.SupplierINN,
		tenderbase.LookupPurchaseNumber, q.TendNum,
		tenderbase.LookupRegNumber, q.ComplaintRegNum,
		tenderbase.LookupComplaintID, q.ComplaintID,
	)}, nil
}

// resultSearch returns the search of the results of the complaint whose id
// (in any of its versions) is id: the results that carry its complaint
// number, since EIS does not promise that the id stays the same across
// versions. When no stored complaint has the id, the results that carry the
// id themselves.
func resultSearch(ctx context.Context, store tenderbase.Store, id string) (tenderbase.Search, error) {
	s := tenderbase.Search{Kind: tenderbase.KindComplaintResult, Where: lookups(tenderbase.LookupComplaintID, id)}
	page, err := store.Search(ctx, tenderbase.Search{
		Kind: tenderbase.KindComplaint, Where: lookups(tenderbase.LookupComplaintID, id), PageSize: 1,
	})
	if err != nil {
		return s, fmt.Errorf("export: complaint %s: %w", id, err)
	}
	if len(page.Items) > 0 {
		s.Where = lookups(tenderbase.LookupComplaintNumber, page.Items[0].Key())
	}
	return s, nil
}

// carryComplaintID sets the complaintID of every result of recs that lacks
// one to id, the complaint they were asked for by: a check result EIS
// publishes names its complaint by number, and the complaint has the id.
func carryComplaintID(recs []tenderbase.Record, id string) {
	for _, r := range recs {
		if res, ok := r.(*tenderbase.ComplaintResult); ok && res.ComplaintID == "" {
			res.ComplaintID = id
		}
	}
}

// settleResults sets resultFAS of every complaint of recs to the outcome of
// its latest check result (the newest publishDate) among the results that
// carry its number. A complaint without a stored result keeps its own value.
func settleResults(ctx context.Context, store tenderbase.Store, recs []tenderbase.Record) error {
	for _, r := range recs {
		c, ok := r.(*tenderbase.Complaint)
		if !ok {
			continue
		}
		page, err := store.Search(ctx, tenderbase.Search{
			Kind: tenderbase.KindComplaintResult, Where: lookups(tenderbase.LookupComplaintNumber, c.ComplaintNumber), PageSize: 1,
		})
		if err != nil {
			return fmt.Errorf("export: results of complaint %s: %w", c.ComplaintNumber, err)
		}
		if len(page.Items) > 0 {
			c.ResultFAS = page.Items[0].(*tenderbase.ComplaintResult).ComplaintResult
		}
	}
	return nil
}

// lookups returns the lookups of field and value pairs whose value is given.
func lookups(pairs ...string) []tenderbase.Lookup {
	var ls []tenderbase.Lookup
	for i := 0; i+1 < len(pairs); i += 2 {
		if pairs[i+1] != "" {
			ls = append(ls, tenderbase.Lookup{Field: pairs[i], Value: pairs[i+1]})
		}
	}
	return ls
}
