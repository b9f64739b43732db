package eis

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tenderbase/tenderbase"
)

const contractCancelFixture = "contractCancel44_14_1.xml"

// TestContractCancelFixture reads both annulments of the fixture, the
// second without a date of publication.
func TestContractCancelFixture(t *testing.T) {
	recs, errs := decodeFixture(t, filepath.Join("testdata", "contract", contractCancelFixture))
	want := []tenderbase.Record{
		&tenderbase.Withdrawal{
			ID: "contractCancel-3616304128724000031", TargetKind: tenderbase.KindContract, TargetKey: "3616304128724000031",
			Document: "contractCancel", PublishedAt: time.Date(2024, 5, 15, 11, 42, 9, 318e6, msk),
			Reason: "аннулирование от 14.05.2024; Решение Арбитражного суда Ростовской области от 02.05.2024 " +
				"по делу № А53-9127/2024 о признании контракта недействительным",
		},
		&tenderbase.Withdrawal{
			ID: "contractCancel-3616304128724000032", TargetKind: tenderbase.KindContract, TargetKey: "3616304128724000032",
			Document: "contractCancel", PublishedAt: time.Date(2024, 5, 16, 0, 0, 0, 0, msk),
			Reason: "аннулирование от 16.05.2024; Сведения о контракте включены в реестр ошибочно: контракт не заключался",
		},
	}
	if len(errs) != 0 {
		t.Fatalf("rejections %v", errs)
	}
	if diff := cmp.Diff(want, recs, cmp.Comparer(time.Time.Equal)); diff != "" {
		t.Errorf("records (-want +got):\n%s", diff)
	}
	for _, r := range recs {
		roundTrip(t, r)
	}
}

// TestContractCancelWithdrawsTheContract imports the contract the first
// annulment names (a copy of a fixture under its number), with and without
// the annulment, in either order: annulled, the contract is neither found
// by its number nor returned by Get.
func TestContractCancelWithdrawsTheContract(t *testing.T) {
	const reg = "3616304128724000031"
	data, err := os.ReadFile(filepath.Join("testdata", "contract", "contract44_13_2.xml"))
	if err != nil {
		t.Fatal(err)
	}
	contract := filepath.Join(t.TempDir(), "contract44_annulled.xml")
	if err := os.WriteFile(contract, []byte(strings.ReplaceAll(string(data), "3616304128724000015", reg)), 0o644); err != nil {
		t.Fatal(err)
	}
	cancel := filepath.Join("testdata", "contract", contractCancelFixture)
	for _, c := range []struct {
		name      string
		paths     []string
		records   int
		withdrawn bool
	}{
		{"no annulment", []string{contract}, 1, false},
		{"annulment last", []string{contract, cancel}, 3, true},
		{"annulment first", []string{cancel, contract}, 3, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx := context.Background()
			store := importInto(t, c.paths, c.records)
			page, err := store.Search(ctx, tenderbase.Search{Kind: tenderbase.KindContract,
				Where: []tenderbase.Lookup{{Field: tenderbase.LookupRegNumber, Value: reg}}})
			if want := map[bool]int{false: 1, true: 0}[c.withdrawn]; err != nil || page.Total != want {
				t.Errorf("contracts by %s: %+v, %v; want %d", reg, page, err, want)
			}
			_, err = store.Get(ctx, tenderbase.KindContract, reg)
			if c.withdrawn != (tenderbase.ErrorCode(err) == tenderbase.ENOTFOUND) {
				t.Errorf("Get: %v; withdrawn %v", err, c.withdrawn)
			}
		})
	}
}
