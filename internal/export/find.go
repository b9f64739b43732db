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
	return (*Walks)(nil).Find(ctx, store, q, p, rowCap)
}

// Find finds what the package's Find finds, reading a page by the cursor
// of the page before it when a walk read that page from the data as it
// still is (search).
func (w *Walks) Find(ctx context.Context, store tenderbase.Store, q Request, p tenderbase.Plan, rowCap int) (Found, error) {
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
	var page tenderbase.Page
	if keep == 0 {
		// Only the total is wanted: the smallest page gives it.
		s.Page, s.PageSize, f.PastCap = 0, 1, true
		page, err = store.Search(ctx, s)
	} else {
		page, err = w.search(ctx, store, s)
	}
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

// search reads page s of a walk: after the cursor that the page before it
// gave, when both pages are read from one generation of the data, for the
// page after the cursor is then the page by number; by its number
// otherwise. It remembers where the page after s begins.
func (w *Walks) search(ctx context.Context, store tenderbase.Store, s tenderbase.Search) (tenderbase.Page, error) {
	key := keyOf(s)
	page, ok, err := w.byCursor(ctx, store, s, key)
	if err != nil {
		return tenderbase.Page{}, err
	}
	if !ok {
		if page, err = store.Search(ctx, s); err != nil {
			return tenderbase.Page{}, err
		}
	}
	w.learn(key, page)
	return page, nil
}

// byCursor reads page s after the cursor a walk left for it, and reports
// whether it is the page s asks for. A page read from another generation
// than the cursor's is not: the data changed in between, and the records
// after the cursor need not be those after the pages before by number.
// Nor is one whose search failed; its search by number says why.
func (w *Walks) byCursor(ctx context.Context, store tenderbase.Store, s tenderbase.Search, key walkKey) (tenderbase.Page, bool, error) {
	start, ok := w.start(key)
	if !ok {
		return tenderbase.Page{}, false, nil
	}
	after := s
	after.Page, after.Cursor = 0, start.cursor
	page, err := store.Search(ctx, after)
	if ctx.Err() != nil {
		return tenderbase.Page{}, false, fmt.Errorf("page %d by cursor: %w", s.Page, ctx.Err())
	}
	if err != nil || page.Generation != start.gen {
		return tenderbase.Page{}, false, nil
	}
	page.Page = s.Page
	return page, true, nil
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
