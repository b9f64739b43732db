package tools

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/importer"
	"github.com/tenderbase/tenderbase/internal/source/egrul"
)

// detailsCard is what the test reads of contragent.byInn's org for the
// details of EGRUL documents.
type detailsCard struct {
	Name     string `json:"name"`
	Head     string `json:"head"`
	Managers []struct {
		Name string `json:"name"`
		INN  string `json:"inn"`
		OGRN string `json:"ogrn"`
	} `json:"managers"`
	Branches []struct {
		Kind    string `json:"kind"`
		Name    string `json:"name"`
		KPP     string `json:"kpp"`
		Address string `json:"address"`
	} `json:"branches"`
	ForeignName         string `json:"foreign_name"`
	ForeignShortName    string `json:"foreign_short_name"`
	ForeignNameLanguage string `json:"foreign_name_language"`
}

// TestRegisterDetailsThroughTheStores imports the EGRUL and EGRIP fixtures
// (the full extract, a 4.07 file of branches, foreign names and managing
// organizations, and a file whose header counts a document it lacks) into
// each store, and reads what a user checks back: the import's note of the
// short file, contragent.byInn's managing organizations, branches and
// foreign names on the free plan, and the organization a branch's KPP
// finds.
func TestRegisterDetailsThroughTheStores(t *testing.T) {
	dir := filepath.Join("..", "source", "egrul", "testdata")
	for name, store := range bothStores(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			sum, err := importer.Import(ctx, store, []string{dir}, importer.Options{Decoders: []importer.Decoder{egrul.Format{}}})
			if err != nil {
				t.Fatalf("import: %v", err)
			}
			if sum.Files != 4 || sum.Records != 9 || sum.Rejected != 0 || len(sum.Skipped) != 0 {
				t.Fatalf("import of %s: %d files, %d records, %d rejected, skipped %v", dir, sum.Files, sum.Records, sum.Rejected, sum.Skipped)
			}
			if diff := cmp.Diff([]importer.Note{{File: filepath.Join(dir, "VO_RIGFO_count_short.xml"),
				Reason: "the header of <Файл> declares 3 documents, the file holds 2"}}, sum.Noted); diff != "" {
				t.Errorf("notes (-want +got):\n%s", diff)
			}

			set := New(store, nil)
			card := func(inn string) detailsCard {
				t.Helper()
				v, _ := decodeCall[struct {
					Org detailsCard `json:"org"`
				}](t, set, tenderbase.PlanFree, "contragent.byInn", `{"inn": "`+inn+`"}`)
				return v.Org
			}
			if c := card("3523013578"); len(c.Managers) != 1 || c.Managers[0].INN != "3528085520" ||
				c.Managers[0].OGRN != "1033500333767" || c.Managers[0].Name != `ОБЩЕСТВО С ОГРАНИЧЕННОЙ ОТВЕТСТВЕННОСТЬЮ "ЛАКОМКА"` {
				t.Errorf("full extract, managed company: %+v", c)
			}
			if c := card("2464045157"); len(c.Managers) != 1 || c.Managers[0].INN != "7737115648" || c.Head != "" {
				t.Errorf("4.07 managed company: %+v", c)
			}
			if c := card("7449067170"); c.Name != `ОБЩЕСТВО С ОГРАНИЧЕННОЙ ОТВЕТСТВЕННОСТЬЮ  "МК-НОРД"` {
				t.Errorf("name with a double space: %q", c.Name)
			}
			if c := card("5404319120"); c.ForeignName != "LIMITED LIABILITY COMPANY «ANY LOGISTIC»" ||
				c.ForeignShortName != "ANY LOGISTIC LLC" || c.ForeignNameLanguage != "Английский" {
				t.Errorf("foreign name: %+v", c)
			}
			branch := card("5401953539").Branches
			if len(branch) != 1 || branch[0].Kind != tenderbase.BranchOffice || branch[0].KPP != "540543001" ||
				branch[0].Address != "630082, НОВОСИБИРСКАЯ ОБЛАСТЬ, ГОРОД НОВОСИБИРСК, Г НОВОСИБИРСК, УЛ ДАЧНАЯ, Д. 21/2, ПОМЕЩ. 8" {
				t.Errorf("branches: %+v", branch)
			}

			for kpp, want := range map[string]string{"540543001": "5401953539", "540051001": "5400000010"} {
				page, err := store.Search(ctx, lookup(tenderbase.KindOrg, tenderbase.LookupKPP, kpp, 10))
				if err != nil {
					t.Fatal(err)
				}
				if len(page.Items) != 1 || page.Items[0].Key() != want {
					t.Errorf("KPP %s finds %d orgs (%v), want %s", kpp, len(page.Items), page.Items, want)
				}
			}
		})
	}
}
