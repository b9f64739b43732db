package demo

import "github.com/tenderbase/tenderbase"

// courtRuling is the reason the demo's withdrawn check result gives, as a
// checkResultCancel words it.
const courtRuling = "Решение по жалобе признано недействительным решением арбитражного суда"

// withdrawal withdraws the check result r two weeks after it was published,
// as a court set the decision aside. It is derived without drawing random
// numbers, so the rest of the dataset stays as it was.
func withdrawal(r *tenderbase.ComplaintResult) *tenderbase.Withdrawal {
	return &tenderbase.Withdrawal{
		ID:          r.Key() + "-2", // the docNumber EIS gives a result's cancel
		TargetKind:  tenderbase.KindComplaintResult,
		TargetKey:   r.Key(),
		Document:    "checkResultCancel",
		PublishedAt: r.PublishDate.AddDate(0, 0, 14),
		Reason:      courtRuling,
	}
}

// standing returns the results no withdrawal names.
func (b *builder) standing() []*tenderbase.ComplaintResult {
	gone := map[string]bool{}
	for _, w := range b.withdrawals {
		gone[w.TargetKey] = true
	}
	var rs []*tenderbase.ComplaintResult
	for _, r := range b.results {
		if !gone[r.Key()] {
			rs = append(rs, r)
		}
	}
	return rs
}
