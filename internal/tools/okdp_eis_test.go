package tools

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/importer"
	"github.com/tenderbase/tenderbase/internal/source/eis"
)

// TestOKDPClassesOfRealRecords imports real records classified by OKDP
// alone (94-FZ contracts of 2011, a 223-FZ contract of 2015) and finds
// each by a category word, those whose text lacks the words through the
// OKDP class the thesaurus names for it, on both stores; the record's
// detail keeps the code it was given and gains no OKPD2 code.
func TestOKDPClassesOfRealRecords(t *testing.T) {
	files := []string{
		filepath.Join(sharedData, "eis44", "vyakunin__zakupki", "contract.xml"),
		filepath.Join(sharedData, "eis223", "Homyakin__ZakupkiParser", "contract_Severnaia_Osetiya_Alaniia_Resp_20150101_000000_20150131_235959_001.xml"),
	}
	for _, f := range files {
		if _, err := os.Stat(f); err != nil {
			t.Skipf("the shared data is absent: %v", err)
		}
	}
	tests := []struct {
		query, reg    string
		class, name   string // the OKDP class of the expansion
		code, okdpFor string // the record's own OKDP code and name
		byWords       bool   // the words match the record: no class lists it
	}{
		// «противоопухолевые препараты»: 23 drugs named by their brands,
		// none of them a word of the group.
		{"лекарства", "0305200004211000012", "2423000", "Фармацевтические препараты, медицинские химические вещества и лекарственные растительные продукты",
			"2423350", "Средства противораковые", false},
		{"полиграфическая продукция", "0305200001611000014", "2200000", "ПОЛИГРАФИЧЕСКАЯ И ПЕЧАТНАЯ ПРОДУКЦИЯ",
			"2219123", "Бланки форм учетной и отчетной документации", false},
		{"оргтехника", "0105100001211000007", "3000000", "КАНЦЕЛЯРСКАЯ, БУХГАЛТЕРСКАЯ И ЭЛЕКТРОННО - ВЫЧИСЛИТЕЛЬНАЯ ТЕХНИКА",
			"3020201", "ЭВМ общего назначения", false},
		{"авиатопливо", "51511012960150000010000", "2320221", "Топливо для реактивных двигателей (керосин авиационный)",
			"2320221", "Топливо для реактивных двигателей (керосин авиационный)", true},
	}
	for name, store := range bothStores(t) {
		sum, err := importer.Import(context.Background(), store, files, importer.Options{Decoders: []importer.Decoder{eis.Format{}}})
		if err != nil || sum.Rejected != 0 || sum.Records == 0 {
			t.Fatalf("%s: import: %+v, %v", name, sum, err)
		}
		set := New(store, nil)
		for _, tt := range tests {
			t.Run(name+"/"+tt.query, func(t *testing.T) {
				page, _ := decodeCall[struct {
					Items []struct {
						RegNumber string `json:"reg_number"`
					} `json:"items"`
					Expansions []expansion `json:"expansions"`
				}](t, set, tenderbase.PlanCorporate, "contracts.search", `{"query": "`+tt.query+`"}`)
				at := slices.IndexFunc(page.Items, func(it struct {
					RegNumber string `json:"reg_number"`
				}) bool {
					return it.RegNumber == tt.reg
				})
				if at < 0 {
					t.Fatalf("%q does not find %s: %+v", tt.query, tt.reg, page.Items)
				}
				var listed []int
				for _, e := range page.Expansions {
					for _, cl := range e.OKDP {
						if cl.Code == tt.class {
							if cl.Name != tt.name {
								t.Errorf("OKDP %s is named %q, want %q", cl.Code, cl.Name, tt.name)
							}
							listed = cl.Items
						}
					}
				}
				if tt.byWords {
					if len(listed) > 0 {
						t.Errorf("OKDP %s lists %v, though the words match %s", tt.class, listed, tt.reg)
					}
				} else if !slices.Contains(listed, at+1) {
					t.Errorf("%s is item %d, not one OKDP %s lists (%v): %+v", tt.reg, at+1, tt.class, listed, page.Expansions)
				}

				detail, _ := decodeCall[struct {
					Objects []tenderbase.PurchaseObject `json:"objects"`
				}](t, set, tenderbase.PlanCorporate, "contracts.detail", `{"id": "`+tt.reg+`"}`)
				if len(detail.Objects) == 0 {
					t.Fatalf("%s has no objects", tt.reg)
				}
				for _, o := range detail.Objects {
					if o.OKDPCode != tt.code || o.OKDPName != tt.okdpFor || o.OKPD2Code != "" {
						t.Errorf("%s: object %q is coded OKDP %q %q, OKPD2 %q; want OKDP %s %q and no OKPD2",
							tt.reg, o.Name, o.OKDPCode, o.OKDPName, o.OKPD2Code, tt.code, tt.okdpFor)
					}
				}
			})
		}
	}
}

// TestOKDPOfARealNotice imports a 223-FZ notice of 2012 whose items are
// classified by OKDP alone: the store finds the tender by its OKDP class,
// and ru.detail keeps the item's code as the notice gives it.
func TestOKDPOfARealNotice(t *testing.T) {
	file := filepath.Join(sharedData, "eis223", "Homyakin__ZakupkiParser", "purchaseNoticeZK_test.xml")
	if _, err := os.Stat(file); err != nil {
		t.Skipf("the shared data is absent: %v", err)
	}
	const number = "31200022868"
	for name, store := range bothStores(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			sum, err := importer.Import(ctx, store, []string{file}, importer.Options{Decoders: []importer.Decoder{eis.Format{}}})
			if err != nil || sum.Rejected != 0 || sum.Records == 0 {
				t.Fatalf("import: %+v, %v", sum, err)
			}
			for _, class := range []string{"22", "2200000"} {
				page, err := store.Search(ctx, tenderbase.Search{Kind: tenderbase.KindTender,
					Where: []tenderbase.Lookup{{Field: tenderbase.LookupOKDP, Value: class}}})
				if err != nil {
					t.Fatal(err)
				}
				if page.Total != 1 || page.Items[0].Key() != number {
					t.Errorf("OKDP %s finds %d tenders, want %s alone", class, page.Total, number)
				}
			}
			page, err := store.Search(ctx, tenderbase.Search{Kind: tenderbase.KindTender,
				Where: []tenderbase.Lookup{{Field: tenderbase.LookupOKPD2, Value: "22"}}})
			if err != nil {
				t.Fatal(err)
			}
			if page.Total != 0 {
				t.Errorf("OKPD2 22 finds %d tenders coded in OKDP alone, want none", page.Total)
			}

			detail, _ := decodeCall[struct {
				Lots []struct {
					Objects []tenderbase.PurchaseObject `json:"objects"`
				} `json:"lots"`
			}](t, New(store, nil), tenderbase.PlanCorporate, "ru.detail", `{"id": "`+number+`"}`)
			var objects []tenderbase.PurchaseObject
			for _, l := range detail.Lots {
				objects = append(objects, l.Objects...)
			}
			if len(objects) == 0 {
				t.Fatal("the tender has no objects")
			}
			for _, o := range objects {
				if o.OKDPCode != "2200000" || o.OKDPName != "ПОЛИГРАФИЧЕСКАЯ И ПЕЧАТНАЯ ПРОДУКЦИЯ" || o.OKPD2Code != "" {
					t.Errorf("object %q is coded OKDP %q %q, OKPD2 %q", o.Name, o.OKDPCode, o.OKDPName, o.OKPD2Code)
				}
			}
		})
	}
}
