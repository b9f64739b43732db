package storetest

import (
	"testing"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/query"
)

// testFilters checks regions, countries and laws: any value within a list,
// every list together, with a query and without.
func (c *corpusStore) testFilters(t *testing.T) {
	tender := func(f tenderbase.Filters, q tenderbase.Query) tenderbase.Search {
		return tenderbase.Search{Kind: tenderbase.KindTender, Filters: f, Query: q}
	}
	supply := mustParse(t, "поставка", query.MCP)
	for _, tc := range []struct {
		name string
		s    tenderbase.Search
		want []string
	}{
		{"one region", tender(tenderbase.Filters{Regions: []int{77}}, nil), []string{tSyringe, tToys, tCleaning, tPaper}},
		{"two regions", tender(tenderbase.Filters{Regions: []int{50, 66}}, nil), []string{tGuard, tOffice, tSchool, tRoad}},
		{"region nobody has", tender(tenderbase.Filters{Regions: []int{1}}, nil), nil},
		{"law 44", tender(tenderbase.Filters{Laws: []string{tenderbase.Law44}}, nil), []string{tGuard, tSyringe, tCartridge, tSchool, tRoad, tCleaning, tPaper}},
		{"law 223", tender(tenderbase.Filters{Laws: []string{tenderbase.Law223}}, nil), []string{tOffice, tToys, tMedicine}},
		{"both laws", tender(tenderbase.Filters{Laws: []string{tenderbase.Law44, tenderbase.Law223}}, nil), allTenders},
		{"region and law", tender(tenderbase.Filters{Regions: []int{77}, Laws: []string{tenderbase.Law223}}, nil), []string{tToys}},
		{"regions and law", tender(tenderbase.Filters{Regions: []int{77, 78}, Laws: []string{tenderbase.Law223}}, nil), []string{tToys, tMedicine}},
		{"region with a query", tender(tenderbase.Filters{Regions: []int{77}}, supply), []string{tSyringe, tToys, tPaper}},
		{"regions and law with a query", tender(tenderbase.Filters{Regions: []int{77, 78}, Laws: []string{tenderbase.Law44}}, supply), []string{tSyringe, tCartridge, tPaper}},
		{"filters that exclude every match", tender(tenderbase.Filters{Regions: []int{66}}, supply), nil},
		{"country", tenderbase.Search{Kind: tenderbase.KindWorldTender, Filters: tenderbase.Filters{Countries: []int{276}}}, []string{wPlant}},
		{"countries", tenderbase.Search{Kind: tenderbase.KindWorldTender, Filters: tenderbase.Filters{Countries: []int{276, 804}}}, []string{wRoad, wPlant}},
		{"country with a query", tenderbase.Search{Kind: tenderbase.KindWorldTender, Filters: tenderbase.Filters{Countries: []int{250, 616}},
			Query: mustParse(t, "paper", query.MCP)}, []string{wPaper}},
		{"region of docs", tenderbase.Search{Kind: tenderbase.KindDoc, Filters: tenderbase.Filters{Regions: []int{50, 78}}}, []string{dDraft, dEstimate}},
		{"region of contracts", tenderbase.Search{Kind: tenderbase.KindContract, Filters: tenderbase.Filters{Regions: []int{77}}}, []string{cPaper}},
		{"region of lots", tenderbase.Search{Kind: tenderbase.KindLot, Filters: tenderbase.Filters{Regions: []int{50}}}, []string{lCar}},
	} {
		t.Run(tc.name, func(t *testing.T) { c.check(t, tc.s, tc.want...) })
	}
}

// testWhere checks exact lookups, alone, together and with a query.
func (c *corpusStore) testWhere(t *testing.T) {
	where := func(k tenderbase.Kind, q tenderbase.Query, pairs ...string) tenderbase.Search {
		s := tenderbase.Search{Kind: k, Query: q}
		for i := 0; i+1 < len(pairs); i += 2 {
			s.Where = append(s.Where, tenderbase.Lookup{Field: pairs[i], Value: pairs[i+1]})
		}
		return s
	}
	const (
		pn  = tenderbase.LookupPurchaseNumber
		cin = tenderbase.LookupCustomerINN
		sin = tenderbase.LookupSupplierINN
	)
	for _, tc := range []struct {
		name string
		s    tenderbase.Search
		want []string
	}{
		{"tender by purchase number", where(tenderbase.KindTender, nil, pn, tPaper), []string{tPaper}},
		{"tender by a number nobody has", where(tenderbase.KindTender, nil, pn, "0373200041524999999"), nil},
		{"tenders by customer INN", where(tenderbase.KindTender, nil, cin, innPolyclinic), []string{tSyringe, tPaper}},
		{"customer INN and a query", where(tenderbase.KindTender, mustParse(t, "шприцы", query.Kwords), cin, innPolyclinic), []string{tSyringe}},
		{"customer INN and a query that excludes", where(tenderbase.KindTender, mustParse(t, "поставка !шприцы", query.Kwords), cin, innPolyclinic), []string{tPaper}},
		{"two lookups", where(tenderbase.KindTender, nil, cin, innPolyclinic, pn, tSyringe), []string{tSyringe}},
		{"two lookups that disagree", where(tenderbase.KindTender, nil, cin, innPodolsk, pn, tSyringe), nil},
		{"lookup with a filter", tenderbase.Search{Kind: tenderbase.KindTender, Filters: tenderbase.Filters{Laws: []string{tenderbase.Law223}},
			Where: []tenderbase.Lookup{{Field: cin, Value: innPolyclinic}}}, nil},
		{"lookup of another field does not match", where(tenderbase.KindTender, nil, sin, innPolyclinic), nil},
		{"docs by purchase number", where(tenderbase.KindDoc, nil, pn, tRoad), []string{dEstimate}},
		{"contract by supplier INN", where(tenderbase.KindContract, nil, sin, oKanc), []string{cPaper}},
		{"contracts by customer INN", where(tenderbase.KindContract, nil, cin, innPodolsk), []string{cRoad}},
		{"complaint by number", where(tenderbase.KindComplaint, nil, tenderbase.LookupComplaintNumber, kRoad), []string{kRoad}},
		{"complaint by id", where(tenderbase.KindComplaint, nil, tenderbase.LookupComplaintID, "3100002"), []string{kToner}},
		{"complaint by purchase number", where(tenderbase.KindComplaint, nil, pn, tRoad), []string{kRoad}},
		{"complaint by supplier INN", where(tenderbase.KindComplaint, nil, sin, oKanc), []string{kToner}},
		{"complaint by customer INN", where(tenderbase.KindComplaint, nil, cin, innPodolsk), []string{kRoad}},
		{"complaint by supplier INN and a query", where(tenderbase.KindComplaint, mustParse(t, "комиссии", query.MCP), sin, oKanc), []string{kToner}},
		{"complaint by supplier INN and a query that misses", where(tenderbase.KindComplaint, mustParse(t, "опыта", query.MCP), sin, oKanc), nil},
		{"complaint result by complaint id", where(tenderbase.KindComplaintResult, nil, tenderbase.LookupComplaintID, "3100001"), []string{rRoad}},
		{"complaint result by complaint number", where(tenderbase.KindComplaintResult, nil, tenderbase.LookupComplaintNumber, kRoad), []string{rRoad}},
		{"FAS case by INN in its organizations", where(tenderbase.KindFASCase, nil, tenderbase.LookupINN, "6661000106"), []string{fCartel}},
		{"FAS case by remote id", where(tenderbase.KindFASCase, nil, tenderbase.LookupRemoteID, "r-5001"), []string{fCase}},
		{"org by INN", where(tenderbase.KindOrg, nil, tenderbase.LookupINN, oKanc), []string{oKanc}},
		{"org by OGRN", where(tenderbase.KindOrg, nil, tenderbase.LookupOGRN, "304500100123456"), []string{oIvanov}},
		{"lot by debtor INN", where(tenderbase.KindLot, nil, tenderbase.LookupINN, "772800123456"), []string{lCar}},
		{"lot by notice number", where(tenderbase.KindLot, nil, tenderbase.LookupNoticeNumber, "21000001230000000001"), []string{lRoom}},
	} {
		t.Run(tc.name, func(t *testing.T) { c.check(t, tc.s, tc.want...) })
	}
}
