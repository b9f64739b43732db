package storetest

import (
	"testing"
	"time"

	gocmp "github.com/google/go-cmp/cmp"
	"github.com/tenderbase/tenderbase"
)

// testOrgMerge checks that an organization known from several sources is one
// record, whichever order the sources arrive in: the newer extract's register
// part, the SME register's part and every contact.
func testOrgMerge(t *testing.T, open func(t *testing.T) tenderbase.Store) {
	const inn = "7712137030"
	noticeContact := tenderbase.OrgContact{
		Contact: tenderbase.Contact{Person: "Иванов И. И.", Phone: "+7 (495) 111-22-33"},
		Source:  "notice 0373200041524000700", SeenAt: day(3),
	}
	register := func(name string, extracted time.Time, email string) *tenderbase.Org {
		return &tenderbase.Org{
			INN: inn, Name: name, OGRN: "1027700132195", Status: tenderbase.OrgActive,
			RegisterSource: "egrul", RegisterExtracted: extracted, UpdatedAt: extracted, Sources: []string{"egrul"},
			Contacts: []tenderbase.OrgContact{{Contact: tenderbase.Contact{Email: email}, Source: "egrul", SeenAt: extracted}},
		}
	}
	older := register("ООО «СТАРОЕ ИМЯ»", day(1), "old@example.ru")
	newer := register("ООО «НОВОЕ ИМЯ»", day(5), "new@example.ru")
	sme := &tenderbase.Org{INN: inn, SME: "small", SMESince: day(2), SMEReported: day(4), UpdatedAt: day(4), Sources: []string{"rsmp"}}
	notice := &tenderbase.Org{INN: inn, Contacts: []tenderbase.OrgContact{noticeContact}, UpdatedAt: day(3), Sources: []string{"eis"}}

	want := &tenderbase.Org{
		INN: inn, Name: "ООО «НОВОЕ ИМЯ»", OGRN: "1027700132195", Status: tenderbase.OrgActive,
		RegisterSource: "egrul", RegisterExtracted: day(5),
		SME: "small", SMESince: day(2), SMEReported: day(4),
		Contacts: []tenderbase.OrgContact{
			{Contact: tenderbase.Contact{Email: "new@example.ru"}, Source: "egrul", SeenAt: day(5)},
			noticeContact,
			{Contact: tenderbase.Contact{Email: "old@example.ru"}, Source: "egrul", SeenAt: day(1)},
		},
		UpdatedAt: day(5), Sources: []string{"egrul", "eis", "rsmp"},
	}
	for name, order := range map[string][]tenderbase.Record{
		"register first": {older, newer, sme, notice},
		"register last":  {notice, sme, newer, older},
		"mixed":          {sme, newer, notice, older},
	} {
		t.Run(name, func(t *testing.T) {
			st := openStore(t, open)
			for _, r := range order {
				if _, err := st.Put(t.Context(), []tenderbase.Record{r}); err != nil {
					t.Fatalf("Put %T: %v", r, err)
				}
			}
			got, err := st.Get(t.Context(), tenderbase.KindOrg, inn)
			if err != nil {
				t.Fatalf("Get: %v", err)
			}
			if diff := gocmp.Diff(want, got); diff != "" {
				t.Errorf("merged org (-want +got):\n%s", diff)
			}
			wantPut(t, st, tenderbase.PutResult{Unchanged: 1}, older)
		})
	}
}

// testOrgBranchLookup checks that an organization is found by its own KPP
// and by the KPP of each of its branches, and by no other.
func testOrgBranchLookup(t *testing.T, open func(t *testing.T) tenderbase.Store) {
	st := openStore(t, open)
	org := &tenderbase.Org{
		INN: "5401953539", KPP: "541001001", OGRN: "1155476056339", Name: `ОБЩЕСТВО С ОГРАНИЧЕННОЙ ОТВЕТСТВЕННОСТЬЮ "ТОРГОВЫЙ ДОМ СИБИРЬ-4"`,
		RegisterSource: "egrul", RegisterExtracted: day(1), UpdatedAt: day(1), Sources: []string{"egrul"},
		Branches: []tenderbase.OrgBranch{
			{Kind: tenderbase.BranchOffice, Name: "ФИЛИАЛ В ГОРОДЕ НОВОСИБИРСКЕ", KPP: "540543001"},
			{Kind: tenderbase.RepresentativeOffice, Name: "ПРЕДСТАВИТЕЛЬСТВО В РЕСПУБЛИКЕ КАЗАХСТАН", KPP: "540051001"},
		},
	}
	other := &tenderbase.Org{INN: "5404319120", KPP: "540401001", Name: "ООО «ЭНИ ЛОГИСТИК»", RegisterSource: "egrul",
		RegisterExtracted: day(1), UpdatedAt: day(1)}
	if _, err := st.Put(t.Context(), []tenderbase.Record{org, other}); err != nil {
		t.Fatalf("Put: %v", err)
	}
	for kpp, want := range map[string][]string{
		"541001001": {org.INN}, "540543001": {org.INN}, "540051001": {org.INN},
		"540401001": {other.INN}, "540543002": nil,
	} {
		page, err := st.Search(t.Context(), tenderbase.Search{Kind: tenderbase.KindOrg,
			Where: []tenderbase.Lookup{{Field: tenderbase.LookupKPP, Value: kpp}}, PageSize: 10})
		if err != nil {
			t.Fatalf("Search kpp %s: %v", kpp, err)
		}
		var got []string
		for _, r := range page.Items {
			got = append(got, r.Key())
		}
		if diff := gocmp.Diff(want, got); diff != "" {
			t.Errorf("orgs of KPP %s (-want +got):\n%s", kpp, diff)
		}
	}
}
