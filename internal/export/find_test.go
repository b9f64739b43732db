package export

import (
	"context"
	"net/url"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/sqlite"
)

// TestFindSpecForms finds a complaint by the integer forms of its purchase
// number and INNs, and its result, which names the complaint by number
// alone as EIS publishes it, by the complaint's id, carrying that id.
func TestFindSpecForms(t *testing.T) {
	ctx := context.Background()
	store, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "t.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	day := time.Date(2023, 2, 2, 15, 0, 0, 0, time.UTC)
	_, err = store.Put(ctx, []tenderbase.Record{
		&tenderbase.Complaint{ComplaintNumber: "2023077657397", ComplaintID: "19468444", VersionNumber: 1,
			PurchaseNumber: "0772324477523073048", SupplierINN: "0536521083", CustomerINN: "073400211252", DatePubl: day},
		&tenderbase.ComplaintResult{CheckResultNumber: "202398478305", ComplaintNumber: "2023077657397",
			VersionNumber: 1, PublishDate: day.Add(time.Hour)},
	})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ query, want string }{
		{"mode=fasEIS&tend_num=772324477523073048", "complaint 2023077657397 (complaintID 19468444)"},
		{"mode=fasEIS&fasSupplierInn=536521083", "complaint 2023077657397 (complaintID 19468444)"},
		{"mode=fasEIS&fasCustomerInn=73400211252", "complaint 2023077657397 (complaintID 19468444)"},
		{"mode=fasEIS&complaintID=19468444&result=1", "complaint_result 202398478305 (complaintID 19468444)"},
	}
	for _, tt := range tests {
		values, err := url.ParseQuery(tt.query)
		if err != nil {
			t.Fatal(err)
		}
		q, err := Parse(values)
		if err != nil {
			t.Fatalf("%s: %v", tt.query, err)
		}
		found, err := Find(ctx, store, q, tenderbase.PlanCorporate, 0)
		if err != nil {
			t.Fatalf("%s: %v", tt.query, err)
		}
		var got []string
		for _, r := range found.Records {
			got = append(got, describeFound(r))
		}
		if diff := cmp.Diff([]string{tt.want}, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.query, diff)
		}
	}
}

func describeFound(r tenderbase.Record) string {
	id := ""
	switch r := r.(type) {
	case *tenderbase.Complaint:
		id = r.ComplaintID
	case *tenderbase.ComplaintResult:
		id = r.ComplaintID
	}
	return string(r.Kind()) + " " + r.Key() + " (complaintID " + id + ")"
}
