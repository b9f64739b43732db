package storetest

import (
	"context"
	"errors"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/query"
)

// Keys of the partial-match records. «ремонт» is common among them, and
// «кровля» and «школа» are rare and as rare as each other.
const (
	pAll       = "0373200041525000201" // ремонт, кровля, школа
	pRoofHall  = "0373200041525000202" // ремонт, кровля
	pRoofClass = "0373200041525000203" // кровля, школа; in region 50
	pRepSchool = "0373200041525000204" // ремонт, школа
	pRoad      = "0373200041525000205" // ремонт
	pPaper     = "0373200041525000206" // none of them
	pCars      = "0373200041525000207" // ремонт
	pPumps     = "0373200041525000208" // ремонт
)

// PartialRecords are the tenders of CheckPartial, each of its own day.
func PartialRecords() []tenderbase.Record {
	customer := tenderbase.Party{INN: "7701000301", Name: "ГБУ «Жилищник района Хамовники»"}
	return []tenderbase.Record{
		tender(pAll, tenderbase.Law44, 77, 201, "Ремонт кровли школы", customer),
		tender(pRoofHall, tenderbase.Law44, 77, 202, "Ремонт кровли здания", customer),
		tender(pRoofClass, tenderbase.Law44, 50, 203, "Устройство кровли над спортзалом школы", customer),
		tender(pRepSchool, tenderbase.Law44, 77, 204, "Ремонт школы", customer),
		tender(pRoad, tenderbase.Law44, 77, 205, "Ремонт дороги", customer),
		tender(pPaper, tenderbase.Law44, 77, 206, "Поставка бумаги", customer),
		tender(pCars, tenderbase.Law44, 77, 207, "Ремонт автомобилей", customer),
		tender(pPumps, tenderbase.Law44, 77, 208, "Ремонт насосов", customer),
	}
}

// CheckPartial checks the partial matches of a store holding
// PartialRecords (tenderbase.PartialSearcher): the records that hold most
// of a query's weight but not all of it, the rarest words weighing most,
// each with what it holds; never a record of the strict set, nor one that
// an exclusion or a filter leaves out; half of the weight only when no
// record holds more; and an error wrapping errors.ErrUnsupported for a
// search the index does not answer.
func CheckPartial(t *testing.T, st tenderbase.Store) {
	ix, ok := st.(tenderbase.PartialSearcher)
	if !ok {
		t.Skipf("%T finds no partial matches from an index", st)
	}
	ctx := context.Background()
	search := func(q string) tenderbase.Search {
		return tenderbase.Search{Kind: tenderbase.KindTender, Query: mustParse(t, q, query.MCP)}
	}
	type held struct {
		Key  string
		Held []bool
	}
	T, F := true, false
	regional := search("ремонт кровли школы")
	regional.Filters.Regions = []int{77}
	ranked := search("ремонт кровли школы")
	ranked.Sort = tenderbase.SortRelevance
	for _, tc := range []struct {
		name string
		s    tenderbase.Search
		want int
		out  []held
	}{
		{"the rare words first; one common word alone is not enough", search("ремонт кровли школы"), 10,
			[]held{{pRoofClass, []bool{F, T, T}}, {pRepSchool, []bool{T, F, T}}, {pRoofHall, []bool{T, T, F}}}},
		{"by relevance", ranked, 10,
			[]held{{pRoofClass, []bool{F, T, T}}, {pRepSchool, []bool{T, F, T}}, {pRoofHall, []bool{T, T, F}}}},
		{"as many as asked", search("ремонт кровли школы"), 1,
			[]held{{pRoofClass, []bool{F, T, T}}}},
		{"an exclusion holds", search("ремонт кровли школы !здание"), 10,
			[]held{{pRoofClass, []bool{F, T, T}}, {pRepSchool, []bool{T, F, T}}}},
		{"a filter holds", regional, 10,
			[]held{{pRepSchool, []bool{T, F, T}}, {pRoofHall, []bool{T, T, F}}}},
		{"half of the weight when nothing holds more, the later word first", search("кровли школы"), 10,
			[]held{{pRepSchool, []bool{F, T}}, {pRoofHall, []bool{T, F}}}},
		{"a word no record holds weighs as the rarest", search("ремонт кровли школы бетонирования"), 10,
			[]held{{pAll, []bool{T, T, T, F}}}},
		{"one word has no partial matches", search("кровли"), 10, nil},
	} {
		found, err := ix.SearchPartial(ctx, tc.s, tc.want)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		var got []held
		for _, m := range found.Matches {
			got = append(got, held{m.Record.Key(), m.Held})
			if m.Weight <= 0 {
				t.Errorf("%s: %s weighs %v", tc.name, m.Record.Key(), m.Weight)
			}
		}
		if diff := gocmp.Diff(tc.out, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.name, diff)
		}
	}
	// The counts of the operands, each alone, whatever the filters.
	found, err := ix.SearchPartial(ctx, regional, 10)
	if err != nil {
		t.Fatal(err)
	}
	if diff := gocmp.Diff([]int{6, 3, 3}, found.Counts); diff != "" {
		t.Errorf("the counts of ремонт, кровли, школы (-want +got):\n%s", diff)
	}
	byKey := search("ремонт кровли")
	byKey.Where = []tenderbase.Lookup{{Field: tenderbase.LookupCustomerINN, Value: "7701000301"}}
	byPrice := search("ремонт кровли")
	byPrice.Sort = tenderbase.SortPriceDesc
	for name, s := range map[string]tenderbase.Search{"a lookup": byKey, "an order by price": byPrice} {
		if _, err := ix.SearchPartial(ctx, s, 10); !errors.Is(err, errors.ErrUnsupported) {
			t.Errorf("%s: got %v, want an error wrapping errors.ErrUnsupported", name, err)
		}
	}
	bad := search("ремонт кровли")
	bad.Kind = "nonsense"
	_, err = ix.SearchPartial(ctx, bad, 10)
	wantCode(t, "an unknown kind", err, tenderbase.EINVALID)
}
