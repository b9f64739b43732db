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
