package export

import (
	"context"
	"fmt"

	"github.com/tenderbase/tenderbase"
)

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
	var complaints []*tenderbase.Complaint
	var numbers []string
	for _, r := range recs {
		if c, ok := r.(*tenderbase.Complaint); ok {
			complaints, numbers = append(complaints, c), append(numbers, c.ComplaintNumber)
		}
	}
	if len(complaints) == 0 {
		return nil
	}
	latest, err := latestResults(ctx, store, numbers)
	if err != nil {
		return err
	}
	for _, c := range complaints {
		if res, ok := latest[c.ComplaintNumber]; ok {
			c.ResultFAS = res.ComplaintResult
		}
	}
	return nil
}

// relatedReader is a store that reads the records that a lookup finds for
// many values at once (as the SQLite and PostgreSQL stores do), by value,
// newest first as Search orders them, leaving out a value that finds none.
type relatedReader interface {
	Related(ctx context.Context, k tenderbase.Kind, field string, values []string) (map[string][]tenderbase.Record, error)
}

// latestResults returns the latest check result of each complaint number
// that has one: from the store in one read when it can, else by a search
// for each.
func latestResults(ctx context.Context, store tenderbase.Store, numbers []string) (map[string]*tenderbase.ComplaintResult, error) {
	latest := map[string]*tenderbase.ComplaintResult{}
	if rr, ok := store.(relatedReader); ok {
		related, err := rr.Related(ctx, tenderbase.KindComplaintResult, tenderbase.LookupComplaintNumber, numbers)
		if err != nil {
			return nil, fmt.Errorf("export: results of complaints: %w", err)
		}
		for number, results := range related {
			if res, ok := results[0].(*tenderbase.ComplaintResult); ok {
				latest[number] = res
			}
		}
		return latest, nil
	}
	for _, number := range numbers {
		page, err := store.Search(ctx, tenderbase.Search{
			Kind: tenderbase.KindComplaintResult, Where: lookups(tenderbase.LookupComplaintNumber, number), PageSize: 1,
		})
		if err != nil {
			return nil, fmt.Errorf("export: results of complaint %s: %w", number, err)
		}
		if len(page.Items) > 0 {
			latest[number] = page.Items[0].(*tenderbase.ComplaintResult)
		}
	}
	return latest, nil
}
