package export

import (
	"context"
	"net/url"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/postgres"
	"github.com/tenderbase/tenderbase/internal/postgres/pgtest"
	"github.com/tenderbase/tenderbase/internal/sqlite"
)

// fasCaseStores returns a new SQLite store and a new PostgreSQL store, by
// name, each holding recs and closed when the test ends.
func fasCaseStores(t *testing.T, recs ...tenderbase.Record) map[string]tenderbase.Store {
	t.Helper()
	ctx := context.Background()
	lite, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "t.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { lite.Close() })
	pg, err := postgres.Open(ctx, pgtest.URL(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pg.Close() })
	stores := map[string]tenderbase.Store{"sqlite": lite, "postgres": pg}
	for name, st := range stores {
		if _, err := st.Put(ctx, recs); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	return stores
}

// TestFASCaseByParticipantINN finds a FAS case by the INN of each of the
// participants its orgXML names, an organization and a person, alone and
// with a word of the case, on both stores; an INN the case's text merely
// mentions names no participant. The text, a paid field, is matched for a
// paid plan only.
func TestFASCaseByParticipantINN(t *testing.T) {
	day := time.Date(2025, 9, 26, 22, 0, 0, 0, tenderbase.Moscow)
	withParties := &tenderbase.FASCase{
		ID: 3101159, Name: "Решение по делу № 077/06/106-1369/2025", CaseDate: day,
		Text: "Рассмотрение жалобы на действия заказчика; упомянуто ООО с ИНН 5003012345",
		OrgXML: `<orgs><org><role>Заявитель</role><name>ООО «Агрокомплекс «Молочные реки»</name><inn>2501047194</inn></org>` +
			`<org><role>Ответчик</role><name>Иванов Иван Иванович</name><inn>772000112233</inn></org></orgs>`,
	}
	other := &tenderbase.FASCase{ID: 3101160, Name: "Решение по делу № 077/06/106-1370/2025", CaseDate: day.Add(time.Hour),
		OrgXML: `<orgs><org><role>Заявитель</role><inn>7707227200</inn></org></orgs>`}
	paid, free := tenderbase.PlanStandard, tenderbase.PlanFree
	tests := []struct {
		query string
		plan  tenderbase.Plan
		want  []string
	}{
		{"mode=fas&kwords=2501047194", free, []string{"3101159"}},
		{"mode=fas&kwords=772000112233", free, []string{"3101159"}},
		{"mode=fas&kwords=7707227200", free, []string{"3101160"}},
		{"mode=fas&kwords=2501047194 решение", free, []string{"3101159"}},
		// The case's text is a paid field: its words match for a paid plan.
		{"mode=fas&kwords=2501047194 жалоба", paid, []string{"3101159"}},
		{"mode=fas&kwords=2501047194 жалоба", free, nil},
		{"mode=fas&kwords=5003012345", paid, nil},
	}
	for name, store := range fasCaseStores(t, withParties, other) {
		t.Run(name, func(t *testing.T) {
			for _, tt := range tests {
				values, err := url.ParseQuery(tt.query)
				if err != nil {
					t.Fatal(err)
				}
				q, err := Parse(values)
				if err != nil {
					t.Fatalf("%s: %v", tt.query, err)
				}
				found, err := Find(context.Background(), store, q, tt.plan, 0)
				if err != nil {
					t.Fatalf("%s: %v", tt.query, err)
				}
				var got []string
				for _, r := range found.Records {
					got = append(got, r.Key())
				}
				if diff := cmp.Diff(tt.want, got); diff != "" || found.Total != len(tt.want) {
					t.Errorf("%s, plan %s: total %d (-want +got):\n%s", tt.query, tt.plan, found.Total, diff)
				}
			}
		})
	}
}
