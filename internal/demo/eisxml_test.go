package demo_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/demo"
	"github.com/tenderbase/tenderbase/internal/export"
	"github.com/tenderbase/tenderbase/internal/importer"
	"github.com/tenderbase/tenderbase/internal/source/eis"
	"github.com/tenderbase/tenderbase/internal/sqlite"
)

// TestEISImportMatchesReference imports the demo's EIS XML into a real
// SQLite store through the importer, as serve --demo does, and compares it
// with the reference records of demo.ndjson: for every EIS-born kind the
// same keys, and every record field by field, except what the EIS documents
// cannot carry:
//
//   - a tender's status and participants, which the EIS publishes in
//     protocols and events, not in the notice (the tools derive the state
//     and the winners from those);
//   - the customer's OGRN, which a 44-FZ notice or protocol does not name,
//     and its registry number, which a 223-FZ document does not;
//   - a 44-FZ lot's own title: a notice of 2019 or later has one lot,
//     titled as the purchase;
//   - in a 223-FZ notice, the objects' names, prices and sums (a lot item
//     has only its class, quantity and unit), the contact's address and the
//     files' sizes;
//   - the fields a change touched, which the store works out itself;
//   - a 223-FZ contract's status, which its registry entry does not give,
//     and its objects' sums, as its positions carry unit prices only;
//   - a complaint's resultFAS, which the export derives from its latest
//     check result (TestEISResultFAS checks it there), and its applicant's
//     registration and the indicted parties in the reference's words: the
//     EIS gives the registration date only, and the importer makes the
//     indicted text from the indicted XML, which does match;
//   - the complaint id of a check result, which no element of it holds;
//   - a doc's extracted text, and its key: the importer names a notice's
//     file by purchase number and content id, the reference by content id.
func TestEISImportMatchesReference(t *testing.T) {
	ctx := context.Background()
	store := importSources(t, ctx, []string{"eis"}, eis.Format{})
	ref, err := demo.Records()
	if err != nil {
		t.Fatal(err)
	}
	tenders, docs, contracts, entries, positions := 0, 0, 0, 0, 0
	for _, r := range ref {
		switch r := r.(type) {
		case *tenderbase.Tender:
			compareTender(t, ctx, store, r)
			tenders++
		case *tenderbase.Doc:
			compareDoc(t, ctx, store, r)
			docs++
		case *tenderbase.Contract:
			compareContract(t, ctx, store, r)
			contracts++
		case *tenderbase.Complaint:
			compareComplaint(t, ctx, store, r)
		case *tenderbase.ComplaintResult:
			compareResult(t, ctx, store, r)
		case *tenderbase.Withdrawal:
			compareGet(t, ctx, store, r, nil)
		case *tenderbase.TenderEvent:
			compareGet(t, ctx, store, r, nil)
		case *tenderbase.Protocol:
			compareGet(t, ctx, store, r, protocolCarried)
		case *tenderbase.UnfairSupplier:
			compareGet(t, ctx, store, r, nil)
			entries++
		case *tenderbase.PlannedPurchase:
			compareGet(t, ctx, store, r, nil)
			positions++
		}
	}
	if tenders == 0 || docs == 0 || contracts == 0 || entries == 0 || positions == 0 {
		t.Fatalf("compared %d tender versions, %d docs, %d contracts, %d entries of the register of unfair suppliers and %d plan positions",
			tenders, docs, contracts, entries, positions)
	}
	for _, k := range tenderbase.Kinds {
		compareCount(t, ctx, store, k, ref)
	}
}

// compareCount checks that the store holds as many records of kind k as the
// reference has EIS-born keys: with every reference key found, the sets are
// equal, and a kind with no EIS form comes in through no document.
func compareCount(t *testing.T, ctx context.Context, store *sqlite.Store, k tenderbase.Kind, ref []tenderbase.Record) {
	t.Helper()
	keys := map[string]bool{}
	for _, r := range ref {
		if r.Kind() == k && demo.EISBorn(r) {
			keys[r.Key()] = true
		}
	}
	for _, r := range ref {
		if w, ok := r.(*tenderbase.Withdrawal); ok && w.TargetKind == k {
			delete(keys, w.TargetKey) // Search leaves withdrawn records out
		}
	}
	page, err := store.Search(ctx, tenderbase.Search{Kind: k})
	if err != nil {
		t.Fatal(err)
	}
	if page.Total != len(keys) {
		t.Errorf("%s: imported %d records, the reference has %d keys", k, page.Total, len(keys))
	}
}

func compareTender(t *testing.T, ctx context.Context, store *sqlite.Store, want *tenderbase.Tender) {
	t.Helper()
	versions, err := store.Versions(ctx, tenderbase.KindTender, want.PurchaseNumber)
	if err != nil {
		t.Fatalf("tender %s: %v", want.PurchaseNumber, err)
	}
	var got *tenderbase.Tender
	for _, v := range versions {
		if v := v.(*tenderbase.Tender); v.Version == want.Version {
			got = v
		}
	}
	if got == nil {
		t.Errorf("tender %s version %d: not imported", want.PurchaseNumber, want.Version)
		return
	}
	if diff := cmp.Diff(notCarried(want), notCarried(got), cmpopts.EquateEmpty(), kopeck); diff != "" {
		t.Errorf("tender %s version %d (-reference +imported):\n%s", want.PurchaseNumber, want.Version, diff)
	}
}

// notCarried returns a copy of t without what a notice of its law cannot
// carry.
func notCarried(t *tenderbase.Tender) *tenderbase.Tender {
	c := *t
	c.Status, c.Participants = "", nil
	c.Customer = partyCarried(t.Law, t.Customer)
	c.Lots = nil
	for _, l := range t.Lots {
		if t.Law == tenderbase.Law44 {
			l.Title = ""
		} else {
			l.Objects = objectsCarried223(l.Objects)
		}
		c.Lots = append(c.Lots, l)
	}
	if t.Law == tenderbase.Law223 {
		c.Contact.Address = ""
		c.Attachments = nil
		for _, a := range t.Attachments {
			a.Size = 0
			c.Attachments = append(c.Attachments, a)
		}
	}
	if t.Change != nil {
		ch := *t.Change
		ch.Fields = nil
		c.Change = &ch
	}
	return &c
}

// partyCarried returns the customer as a notice of law names it: a 44-FZ
// notice gives no OGRN, a 223-FZ notice no registry number.
func partyCarried(law string, p tenderbase.Party) tenderbase.Party {
	if law == tenderbase.Law44 {
		p.OGRN = ""
	} else {
		p.RegNum = ""
	}
	return p
}

// objectsCarried223 returns the objects as a 223-FZ lot item carries them:
// without price or sum, named by their OKPD2 class.
func objectsCarried223(objects []tenderbase.PurchaseObject) []tenderbase.PurchaseObject {
	var out []tenderbase.PurchaseObject
	for _, o := range objects {
		o.Price, o.Sum = 0, 0
		o.Name = o.OKPD2Name
		out = append(out, o)
	}
	return out
}

func compareDoc(t *testing.T, ctx context.Context, store *sqlite.Store, want *tenderbase.Doc) {
	t.Helper()
	rec, err := store.Get(ctx, tenderbase.KindDoc, want.PurchaseNumber+"-"+want.ID)
	if err != nil {
		t.Errorf("doc %s: %v", want.ID, err)
		return
	}
	got := *rec.(*tenderbase.Doc)
	w := *want
	w.ID, got.ID = "", ""
	w.Text, got.Text = "", ""
	law := tenderbase.Law44
	if len(w.PurchaseNumber) == 11 {
		law = tenderbase.Law223
		w.Size = 0
	}
	w.Customer, got.Customer = partyCarried(law, w.Customer), partyCarried(law, got.Customer)
	if diff := cmp.Diff(w, got); diff != "" {
		t.Errorf("doc %s (-reference +imported):\n%s", want.ID, diff)
	}
}

// kopeck equates amounts within a kopeck: a 223-FZ notice's price is the sum
// of its lots', which floating point may round differently.
var kopeck = cmpopts.EquateApprox(0, 0.005)

func compareContract(t *testing.T, ctx context.Context, store *sqlite.Store, want *tenderbase.Contract) {
	t.Helper()
	versions, err := store.Versions(ctx, tenderbase.KindContract, want.RegNumber)
	if err != nil {
		t.Fatalf("contract %s: %v", want.RegNumber, err)
	}
	var got tenderbase.Contract
	for _, v := range versions {
		if v := v.(*tenderbase.Contract); v.Version == want.Version {
			got = *v
		}
	}
	w := *want
	if w.Law == tenderbase.Law223 {
		w.Status = ""
		w.Customer.RegNum = ""
		w.Objects = nil
		for _, o := range want.Objects {
			o.Sum = 0
			w.Objects = append(w.Objects, o)
		}
	}
	if diff := cmp.Diff(w, got, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("contract %s version %d (-reference +imported):\n%s", want.RegNumber, want.Version, diff)
	}
}

func compareComplaint(t *testing.T, ctx context.Context, store *sqlite.Store, want *tenderbase.Complaint) {
	t.Helper()
	versions, err := store.Versions(ctx, tenderbase.KindComplaint, want.ComplaintNumber)
	if err != nil {
		t.Fatalf("complaint %s: %v", want.ComplaintNumber, err)
	}
	var got tenderbase.Complaint
	for _, v := range versions {
		if v := v.(*tenderbase.Complaint); v.VersionNumber == want.VersionNumber {
			got = *v
		}
	}
	w := *want
	w.ResultFAS, w.ApplicantRD, got.ApplicantRD = "", "", ""
	w.ComplaintIndictedText, got.ComplaintIndictedText = "", ""
	if diff := cmp.Diff(w, got); diff != "" {
		t.Errorf("complaint %s version %d (-reference +imported):\n%s", want.ComplaintNumber, want.VersionNumber, diff)
	}
}

func compareResult(t *testing.T, ctx context.Context, store *sqlite.Store, want *tenderbase.ComplaintResult) {
	t.Helper()
	// Versions, unlike Get, reads a withdrawn result too.
	versions, err := store.Versions(ctx, tenderbase.KindComplaintResult, want.Key())
	if err != nil || len(versions) == 0 {
		t.Errorf("check result %s: %d versions, %v", want.Key(), len(versions), err)
		return
	}
	got := *versions[len(versions)-1].(*tenderbase.ComplaintResult)
	w := *want
	w.ComplaintID = ""
	if diff := cmp.Diff(w, got); diff != "" {
		t.Errorf("check result %s (-reference +imported):\n%s", want.Key(), diff)
	}
}

// compareGet compares the stored record of want's key with want, both
// passed through carried when it is given.
func compareGet[R tenderbase.Record](t *testing.T, ctx context.Context, store *sqlite.Store, want R, carried func(R) R) {
	t.Helper()
	rec, err := store.Get(ctx, want.Kind(), want.Key())
	if err != nil {
		t.Errorf("%s %s: %v", want.Kind(), want.Key(), err)
		return
	}
	got := rec.(R)
	if carried != nil {
		want, got = carried(want), carried(got)
	}
	if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("%s %s (-reference +imported):\n%s", want.Kind(), want.Key(), diff)
	}
}

// protocolCarried returns a copy of p with the customer as a protocol of
// its law names it.
func protocolCarried(p *tenderbase.Protocol) *tenderbase.Protocol {
	c := *p
	c.Customer = partyCarried(c.Law, c.Customer)
	return &c
}

// TestEISResultFAS checks that the export gives every imported complaint the
// resultFAS of the reference: the outcome of its latest check result that
// was not withdrawn.
func TestEISResultFAS(t *testing.T) {
	ctx := context.Background()
	store := importSources(t, ctx, []string{"eis"}, eis.Format{})
	ref, err := demo.Records()
	if err != nil {
		t.Fatal(err)
	}
	latest := map[string]*tenderbase.Complaint{}
	for _, r := range ref {
		if c, ok := r.(*tenderbase.Complaint); ok {
			latest[c.ComplaintNumber] = c // versions come in order
		}
	}
	for _, want := range latest {
		found, err := export.Find(ctx, store, export.Request{Mode: export.ModeFasEIS, ComplaintID: want.ComplaintID}, tenderbase.PlanCorporate, 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(found.Records) != 1 {
			t.Errorf("complaint %s: the export finds %d records", want.ComplaintNumber, len(found.Records))
			continue
		}
		if got := found.Records[0].(*tenderbase.Complaint).ResultFAS; got != want.ResultFAS {
			t.Errorf("complaint %s: resultFAS %q, reference %q", want.ComplaintNumber, got, want.ResultFAS)
		}
	}
}

// TestNoticesCarryOrganizers: a demo tender given an organizer and, under
// 44-FZ, the customers of a joint purchase comes back from its notice with
// them, so that the demo can carry them when its data does.
func TestNoticesCarryOrganizers(t *testing.T) {
	ctx := context.Background()
	organizer := tenderbase.Organizer{Party: tenderbase.Party{INN: "1655412356", KPP: "165501001", RegNum: "08112000001",
		Name: `ГОСУДАРСТВЕННОЕ КАЗЕННОЕ УЧРЕЖДЕНИЕ "ЦЕНТР ЗАКУПОК РЕСПУБЛИКИ ТАТАРСТАН"`}}
	var recs []tenderbase.Record
	want := map[string]*tenderbase.Tender{}
	for _, r := range demo.Generate() {
		t, ok := r.(*tenderbase.Tender)
		if !ok || t.Version != 1 || want[t.Law] != nil {
			continue
		}
		c := *t
		if c.Law == tenderbase.Law44 {
			c.Organizer = &tenderbase.Organizer{Party: organizer.Party, Role: "ORA",
				RoleName: "Уполномоченный орган в качестве организатора совместного конкурса (аукциона)"}
			other := tenderbase.Party{INN: "1655038127", KPP: "165501001", RegNum: "03113001377", Name: "МБОУ «Гимназия № 2»"}
			c.Customers = []tenderbase.TenderCustomer{
				{Party: tenderbase.Party{INN: c.Customer.INN, KPP: c.Customer.KPP, RegNum: c.Customer.RegNum, Name: c.Customer.Name}, Region: c.Region, MaxPrice: 1000.5},
				{Party: other, Region: 16, MaxPrice: c.MaxPrice - 1000.5},
			}
		} else {
			// A 223-FZ organization has no EIS registry number.
			placer := organizer.Party
			placer.RegNum, placer.OGRN = "", "1021602830370"
			c.Organizer = &tenderbase.Organizer{Party: placer, RoleName: "Организация, создавшая сведения извещения о закупке"}
		}
		want[c.Law] = &c
		recs = append(recs, &c)
	}
	files, err := demo.WriteEIS(recs)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, f := range files {
		if err := os.WriteFile(filepath.Join(dir, f.Name), f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	store, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "demo.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	if sum, err := importer.Import(ctx, store, []string{dir}, importer.Options{Decoders: []importer.Decoder{eis.Format{}}}); err != nil || sum.Rejected != 0 {
		t.Fatalf("import: %+v, %v", sum, err)
	}
	for law, w := range want {
		rec, err := store.Get(ctx, tenderbase.KindTender, w.PurchaseNumber)
		if err != nil {
			t.Fatal(err)
		}
		got := rec.(*tenderbase.Tender)
		if diff := cmp.Diff(w.Organizer, got.Organizer); diff != "" {
			t.Errorf("%s-FZ organizer (-want +got):\n%s", law, diff)
		}
		if diff := cmp.Diff(w.Customers, got.Customers, kopeck); diff != "" {
			t.Errorf("%s-FZ customers (-want +got):\n%s", law, diff)
		}
	}
	if len(want) != 2 {
		t.Errorf("tenders of %d laws in the demo; want both", len(want))
	}
}
