package demo

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"regexp"
	"testing"
	"time"

	"github.com/tenderbase/tenderbase"
)

func records(t *testing.T) []tenderbase.Record {
	t.Helper()
	recs, err := Records()
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// byKind groups records by kind.
func byKind(recs []tenderbase.Record) map[tenderbase.Kind][]tenderbase.Record {
	m := map[tenderbase.Kind][]tenderbase.Record{}
	for _, r := range recs {
		m[r.Kind()] = append(m[r.Kind()], r)
	}
	return m
}

func all[R tenderbase.Record](recs []tenderbase.Record) []R {
	var out []R
	for _, r := range recs {
		if v, ok := r.(R); ok {
			out = append(out, v)
		}
	}
	return out
}

func TestCommittedFileIsCurrent(t *testing.T) {
	var buf bytes.Buffer
	if err := Write(&buf, Generate()); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), Data()) {
		t.Fatal("demo.ndjson differs from the generator's output; run go generate ./internal/demo")
	}
}

func TestKindsPresent(t *testing.T) {
	want := map[tenderbase.Kind][2]int{
		tenderbase.KindTender: {110, 140}, tenderbase.KindDoc: {50, 80}, tenderbase.KindContract: {45, 60},
		tenderbase.KindWorldTender: {45, 60}, tenderbase.KindOrg: {35, 50}, tenderbase.KindLot: {25, 40},
		tenderbase.KindComplaint: {25, 40}, tenderbase.KindComplaintResult: {18, 25}, tenderbase.KindFASCase: {18, 25},
		tenderbase.KindProtocol: {80, 110}, tenderbase.KindTenderEvent: {1, 5},
		tenderbase.KindWithdrawal: {1, 3}, tenderbase.KindContractExecution: {30, 45},
		tenderbase.KindUnfairSupplier: {5, 8}, tenderbase.KindLotEvent: {1, 3}, tenderbase.KindPlannedPurchase: {4, 10},
	}
	got := byKind(records(t))
	for _, k := range tenderbase.Kinds {
		if n := len(got[k]); n < want[k][0] || n > want[k][1] {
			t.Errorf("%s: %d records, want %d to %d", k, n, want[k][0], want[k][1])
		}
	}
}

// Every protocol and event belongs to a tender whose latest version agrees
// with it: a final protocol names the tender's participants, a failed one
// none; a cancellation event belongs to a cancelled tender.
func TestOutcomesMatchTheirTenders(t *testing.T) {
	latest := map[string]*tenderbase.Tender{}
	for _, r := range byKind(records(t))[tenderbase.KindTender] {
		tn := r.(*tenderbase.Tender)
		if cur := latest[tn.PurchaseNumber]; cur == nil || tn.Version > cur.Version {
			latest[tn.PurchaseNumber] = tn
		}
	}
	for _, r := range byKind(records(t))[tenderbase.KindProtocol] {
		p := r.(*tenderbase.Protocol)
		tn := latest[p.PurchaseNumber]
		switch {
		case tn == nil:
			t.Errorf("protocol %s: no tender %s", p.ID, p.PurchaseNumber)
		case p.Failed != (tn.Status == tenderbase.TenderFailed) || len(p.Participants) != len(tn.Participants):
			t.Errorf("protocol %s disagrees with tender %s (%s)", p.ID, tn.PurchaseNumber, tn.Status)
		case !p.PublishedAt.After(tn.PublishedAt):
			t.Errorf("protocol %s published before its notice", p.ID)
		}
	}
	for _, r := range byKind(records(t))[tenderbase.KindTenderEvent] {
		e := r.(*tenderbase.TenderEvent)
		if tn := latest[e.PurchaseNumber]; tn == nil || tn.Status != tenderbase.TenderCancelled {
			t.Errorf("event %s: tender %s is not cancelled", e.ID, e.PurchaseNumber)
		}
	}
}

func TestKeysUnique(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range records(t) {
		id := fmt.Sprintf("%s/%s/%d", r.Kind(), r.Key(), r.Revision())
		if seen[id] {
			t.Errorf("duplicate %s", id)
		}
		seen[id] = true
	}
}

func TestTenderVersions(t *testing.T) {
	versions := map[string][]*tenderbase.Tender{}
	for _, tn := range all[*tenderbase.Tender](records(t)) {
		versions[tn.PurchaseNumber] = append(versions[tn.PurchaseNumber], tn)
	}
	amended, cancelled := 0, 0
	for pn, vs := range versions {
		for i, v := range vs {
			if v.Version != i+1 {
				t.Errorf("%s: version %d at position %d", pn, v.Version, i)
			}
			if (v.Change != nil) != (i > 0) {
				t.Errorf("%s v%d: change %v", pn, v.Version, v.Change)
			}
		}
		if len(vs) > 1 {
			amended++
		}
		if vs[len(vs)-1].Status == tenderbase.TenderCancelled {
			cancelled++
		}
		if n := len(pn); !(vs[0].Law == "44" && n == 19 || vs[0].Law == "223" && n == 11) {
			t.Errorf("%s: %d digits under %s-FZ", pn, n, vs[0].Law)
		}
	}
	if amended < 10 || cancelled != 1 {
		t.Errorf("%d amended and %d cancelled tenders, want at least 10 and 1", amended, cancelled)
	}
}

func TestContractsFollowTenders(t *testing.T) {
	recs := records(t)
	winners := map[string]string{}
	for _, tn := range all[*tenderbase.Tender](recs) {
		winners[tn.PurchaseNumber] = ""
		for _, p := range tn.Participants {
			if p.Winner {
				winners[tn.PurchaseNumber] = p.INN
			}
		}
	}
	for _, c := range all[*tenderbase.Contract](recs) {
		w, ok := winners[c.PurchaseNumber]
		switch {
		case !ok:
			t.Errorf("contract %s: no tender %s", c.RegNumber, c.PurchaseNumber)
		case len(c.Suppliers) != 1 || c.Suppliers[0].INN != w:
			t.Errorf("contract %s: suppliers %v, winner %s", c.RegNumber, c.Suppliers, w)
		}
	}
	for _, d := range all[*tenderbase.Doc](recs) {
		if _, ok := winners[d.PurchaseNumber]; !ok {
			t.Errorf("doc %s: no tender %s", d.ID, d.PurchaseNumber)
		}
	}
}

func TestResultsLinkToComplaints(t *testing.T) {
	recs := records(t)
	complaints := all[*tenderbase.Complaint](recs)
	withdrawn := map[string]bool{}
	for _, w := range all[*tenderbase.Withdrawal](recs) {
		withdrawn[w.TargetKey] = w.TargetKind == tenderbase.KindComplaintResult
	}
	latest := map[string]*tenderbase.ComplaintResult{}
	for _, r := range all[*tenderbase.ComplaintResult](recs) {
		if withdrawn[r.Key()] {
			continue
		}
		c := linked(complaints, r)
		if c == nil {
			t.Errorf("result %s links to no complaint", r.Key())
			continue
		}
		if prev := latest[c.ComplaintNumber]; prev == nil || r.PublishDate.After(prev.PublishDate) {
			latest[c.ComplaintNumber] = r
		}
	}
	seen := map[string]bool{}
	for _, c := range complaints {
		want := ""
		if r := latest[c.ComplaintNumber]; r != nil {
			want = r.ComplaintResult
			seen[want] = true
		}
		if c.ResultFAS != want {
			t.Errorf("complaint %s v%d: resultFAS %q, want %q", c.ComplaintNumber, c.VersionNumber, c.ResultFAS, want)
		}
	}
	if len(seen) != 3 {
		t.Errorf("results seen: %v, want all three", seen)
	}
}

func linked(complaints []*tenderbase.Complaint, r *tenderbase.ComplaintResult) *tenderbase.Complaint {
	for _, c := range complaints {
		if r.ComplaintNumber == c.ComplaintNumber || r.ComplaintID == c.ComplaintID || r.ComplaintRegNumber == c.RegNum {
			return c
		}
	}
	return nil
}

func TestRegistryNumbersValid(t *testing.T) {
	for _, r := range records(t) {
		for _, inn := range inns(r) {
			if !validINN(inn) {
				t.Errorf("%s %s: invalid INN %q", r.Kind(), r.Key(), inn)
			}
		}
	}
	for _, o := range all[*tenderbase.Org](records(t)) {
		if !validOGRN(o.OGRN) {
			t.Errorf("org %s: invalid OGRN %q", o.INN, o.OGRN)
		}
	}
}

// inns returns every INN a record names.
func inns(r tenderbase.Record) []string {
	var out []string
	switch v := r.(type) {
	case *tenderbase.Tender:
		out = append(out, v.Customer.INN)
		for _, p := range v.Participants {
			out = append(out, p.INN)
		}
	case *tenderbase.Contract:
		out = append(out, v.Customer.INN)
		for _, p := range v.Suppliers {
			out = append(out, p.INN)
		}
	case *tenderbase.Doc:
		out = append(out, v.Customer.INN)
	case *tenderbase.Org:
		out = append(out, v.INN)
	case *tenderbase.Lot:
		// A torgi.gov.ru lot names its organizer, a fedresurs lot its
		// manager; the owner of seized property has no INN.
		for _, p := range []tenderbase.Party{v.Organizer, v.Manager, v.Debtor} {
			if p.INN != "" {
				out = append(out, p.INN)
			}
		}
		if v.Organizer.INN == "" && v.Manager.INN == "" {
			out = append(out, "no organizer or manager")
		}
		if v.Result != nil && v.Result.Winner.INN != "" {
			out = append(out, v.Result.Winner.INN)
		}
	case *tenderbase.Complaint:
		out = append(out, v.CustomerINN, v.SupplierINN, v.RegistrationINN)
	case *tenderbase.ComplaintResult:
		out = append(out, v.OwnerINN, v.SubjectINN)
	case *tenderbase.FASCase:
		out = tenderbase.INNsIn(tenderbase.XMLText(v.OrgXML))
		if len(out) < 2 {
			out = append(out, "orgXML names fewer than two INNs")
		}
	}
	return out
}

func TestPartiesAreOrgs(t *testing.T) {
	recs := records(t)
	orgs := map[string]bool{}
	for _, o := range all[*tenderbase.Org](recs) {
		orgs[o.INN] = true
		if len(o.Contacts) == 0 {
			t.Errorf("org %s has no contacts", o.INN)
		}
	}
	for _, c := range all[*tenderbase.Contract](recs) {
		for _, inn := range []string{c.Customer.INN, c.Suppliers[0].INN} {
			if !orgs[inn] {
				t.Errorf("contract %s: party %s is not an org", c.RegNumber, inn)
			}
		}
	}
}

var timestamp = regexp.MustCompile(`"(\w+)":"(\d{4}-\d\d-\d\dT[^"]*)"`)

func TestDatesInPeriod(t *testing.T) {
	from := time.Date(2023, 1, 1, 0, 0, 0, 0, time.UTC)
	to := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	for i, line := range bytes.Split(bytes.TrimSpace(Data()), []byte("\n")) {
		for _, m := range timestamp.FindAllSubmatch(line, -1) {
			at, err := time.Parse(time.RFC3339, string(m[2]))
			// Organizations were registered long before the period.
			early := at.Before(from) && string(m[1]) != "registered_at"
			if err != nil {
				t.Errorf("line %d: %v", i+1, err)
			} else if early || !at.Before(to) {
				t.Errorf("line %d: %s %s outside 2023-01-01 to 2026-11-01", i+1, m[1], m[2])
			}
		}
	}
}

func TestWorldTenders(t *testing.T) {
	langs := map[string]int{}
	for _, w := range all[*tenderbase.WorldTender](records(t)) {
		langs[w.Language]++
		if w.Country <= 0 || len(w.CPVCodes) == 0 {
			t.Errorf("world tender %s: country %d, CPV %v", w.ID, w.Country, w.CPVCodes)
		}
	}
	for _, l := range []string{"en", "de", "fr"} {
		if langs[l] == 0 {
			t.Errorf("no world tender in %s", l)
		}
	}
}

func TestINNCheckDigits(t *testing.T) {
	tests := []struct {
		inn  string
		want bool
	}{
		{legalINN("7701", "23456"), true},
		{personINN("0274", "123456"), true},
		{legalINN("7701", "23456")[:9] + "x", false},
		{flipLast(legalINN("7701", "23456")), false},
		{"770123456", false},
		{"77012345a7", false},
	}
	for _, tt := range tests {
		if got := validINN(tt.inn); got != tt.want {
			t.Errorf("validINN(%q) = %v, want %v", tt.inn, got, tt.want)
		}
	}
}

func flipLast(s string) string {
	return s[:len(s)-1] + string('0'+(s[len(s)-1]-'0'+1)%10)
}

var update = flag.Bool("update", false, "rewrite the examples of docs/records.md from the demo data")

// exampleOf tells, per kind, which records make a good example; the shortest
// such line is used.
var exampleOf = map[tenderbase.Kind]func(tenderbase.Record) bool{
	tenderbase.KindTender: func(r tenderbase.Record) bool {
		t := r.(*tenderbase.Tender)
		return t.Change != nil && len(t.Participants) > 0
	},
	tenderbase.KindDoc:      func(r tenderbase.Record) bool { return r.(*tenderbase.Doc).Text != "" },
	tenderbase.KindContract: func(r tenderbase.Record) bool { return r.(*tenderbase.Contract).Version == 2 },
	tenderbase.KindWorldTender: func(r tenderbase.Record) bool {
		return r.(*tenderbase.WorldTender).Language == "de"
	},
	tenderbase.KindOrg: func(r tenderbase.Record) bool {
		o := r.(*tenderbase.Org)
		return o.SME != "" && len(o.Contacts) > 1
	},
	tenderbase.KindLot: func(r tenderbase.Record) bool { return r.(*tenderbase.Lot).Debtor.INN != "" },
	tenderbase.KindComplaint: func(r tenderbase.Record) bool {
		c := r.(*tenderbase.Complaint)
		return c.VersionNumber == 2 && c.ResultFAS != ""
	},
	tenderbase.KindComplaintResult: func(r tenderbase.Record) bool {
		return r.(*tenderbase.ComplaintResult).PrescriptionNumber != ""
	},
	tenderbase.KindFASCase: func(tenderbase.Record) bool { return true },
	tenderbase.KindProtocol: func(r tenderbase.Record) bool {
		return len(r.(*tenderbase.Protocol).Participants) > 1
	},
	tenderbase.KindTenderEvent: func(tenderbase.Record) bool { return true },
	tenderbase.KindWithdrawal:  func(tenderbase.Record) bool { return true },
	tenderbase.KindContractExecution: func(r tenderbase.Record) bool {
		return len(r.(*tenderbase.ContractExecution).Documents) > 0
	},
	tenderbase.KindUnfairSupplier: func(r tenderbase.Record) bool {
		return len(r.(*tenderbase.UnfairSupplier).Founders) > 0
	},
	tenderbase.KindLotEvent: func(tenderbase.Record) bool { return true },
	tenderbase.KindPlannedPurchase: func(r tenderbase.Record) bool {
		return len(r.(*tenderbase.PlannedPurchase).Objects) > 0
	},
}

// examples returns the example line of each kind.
func examples(t *testing.T) map[tenderbase.Kind][]byte {
	t.Helper()
	ex := map[tenderbase.Kind][]byte{}
	for _, l := range bytes.Split(bytes.TrimSpace(Data()), []byte("\n")) {
		r, err := tenderbase.DecodeEnvelope(l)
		if err != nil {
			t.Fatal(err)
		}
		if cur := ex[r.Kind()]; exampleOf[r.Kind()](r) && (cur == nil || len(l) < len(cur)) {
			ex[r.Kind()] = l
		}
	}
	return ex
}

// TestDocExamples keeps the examples of docs/records.md those of the demo
// data; -update rewrites them.
func TestDocExamples(t *testing.T) {
	const path = "../../docs/records.md"
	doc, err := os.ReadFile(path)
	if err != nil {
		t.Skipf("docs/records.md not found: %v", err)
	}
	ex := examples(t)
	seen := map[tenderbase.Kind]bool{}
	lines := bytes.Split(doc, []byte("\n"))
	for i, l := range lines {
		if !bytes.HasPrefix(l, []byte(`{"kind":"`)) {
			continue
		}
		r, err := tenderbase.DecodeEnvelope(l)
		if err != nil && !*update {
			t.Errorf("records.md line %d does not decode: %v", i+1, err)
			continue
		}
		k := tenderbase.Kind(bytes.SplitN(l, []byte(`"`), 5)[3])
		if r != nil {
			k = r.Kind()
		}
		seen[k] = true
		if *update {
			lines[i] = ex[k]
		} else if !bytes.Equal(l, ex[k]) {
			t.Errorf("records.md line %d: the %s example is stale; run go test ./internal/demo -run DocExamples -update", i+1, k)
		}
	}
	if len(seen) != len(tenderbase.Kinds) {
		t.Errorf("examples of %d kinds, want %d", len(seen), len(tenderbase.Kinds))
	}
	if *update {
		if err := os.WriteFile(path, bytes.Join(lines, []byte("\n")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
