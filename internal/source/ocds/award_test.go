package ocds

import (
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tenderbase/tenderbase"
)

// TestAwardOfContractsFinder reads the award of a Contracts Finder award
// release: its suppliers from the parties, their company numbers, size and
// country told by the identifier's scheme (GB-COH), the value awarded.
func TestAwardOfContractsFinder(t *testing.T) {
	w := decodeFile(t, filepath.Join("testdata", "contracts-finder-award.json"))
	want := []tenderbase.WorldAward{{
		Awarded: true, Status: "active", Value: 400000000, Currency: "GBP", AwardDate: at(t, "2025-03-06T00:00:00Z"),
		ContractEnd: at(t, "2028-11-30T23:59:59Z"),
		Winners: []tenderbase.WorldWinner{
			{Name: "AEBI SCHMIDT UK LIMITED", ID: "00557725", IDScheme: "GB-COH", Country: 826, SME: true, Size: "sme"},
			{Name: "ALEXANDER DENNIS LIMITED", ID: "SC268016", IDScheme: "GB-COH", Country: 826, Size: "large"},
			{Name: "ROMAQUIP LTD", SME: true, Size: "sme"}, // an Irish company named by no scheme: no country
		},
	}}
	if diff := cmp.Diff(want, w.Awards); diff != "" {
		t.Errorf("awards (-want +got):\n%s", diff)
	}
	if w.AwardedValue != 400000000 || w.AwardedCurrency != "GBP" || w.Value != 400000000 {
		t.Errorf("awarded %v %s, estimate %v: want the award's 400000000 GBP beside the tender's", w.AwardedValue, w.AwardedCurrency, w.Value)
	}
	if got := w.Lookups(); len(got) != 2 {
		t.Errorf("lookups %v: want the two winners' company numbers", got)
	}
}

// TestAwardsOfPublishedSamples reads the awards and contracts of
// published files of several publishers, with the end of each contract's
// term: the contracts' period (ProZorro, Colombia, Paraguay...), the
// award's contractPeriod (Contracts Finder), or a Taiwanese winner's.
func TestAwardsOfPublishedSamples(t *testing.T) {
	for _, tc := range []struct {
		file    string
		want    []tenderbase.WorldAward
		awarded float64
		cur     string
	}{{
		// ProZorro: an award of a lot (lotID), its contract's number and
		// signature, a supplier written in place with its EDR code.
		file: "ukraine__releases__ocds-be6bcu-UA-2016-06-02-000468-c-35ee2812b91b4ff299fbf6c217b46ae4.json",
		want: []tenderbase.WorldAward{{
			LotID: "3775e4cf289645d888fd3a8264666622", ContractID: "46",
			Awarded: true, Status: "active", Value: 2910, Currency: "UAH", TendersReceived: 1,
			Winners:   []tenderbase.WorldWinner{{Name: `ЧП "ОКСИМЕД"`, ID: "40133709", IDScheme: "UA-EDR", Country: 804, Town: "м.Київ"}},
			AwardDate: at(t, "2016-06-13T11:18:30.208207+03:00"), ContractDate: at(t, "2016-06-15T16:13:00+03:00"),
			ContractEnd: at(t, "2016-12-31T00:00:00+02:00"),
		}},
		awarded: 2910, cur: "UAH",
	}, {
		// ProZorro's record: the contract's number as signed (contractNumber
		// 16/11), not its hash id nor the portal's contractID; the
		// winner's country written in Ukrainian, «Україна».
		file: "ukraine__records__ocds-be6bcu-UA-2017-01-31-001299-b.json",
		want: []tenderbase.WorldAward{{
			ContractID: "16/11", Awarded: true, Status: "active", Value: 10000, Currency: "UAH",
			Winners:   []tenderbase.WorldWinner{{Name: `СТОВ "Степ-Агро"`, ID: "31411114", IDScheme: "XM-EORI", Country: 804, Town: "Новоукраїнка"}},
			AwardDate: at(t, "2017-01-31T13:51:03.462803+02:00"), ContractDate: at(t, "2017-01-25T00:00:00+02:00"),
			ContractEnd: at(t, "2017-12-31T00:00:00+02:00"),
		}},
		awarded: 10000, cur: "UAH",
	}, {
		// Colombia Compra: one award written three times in one release is
		// one award; its supplier comes from the parties.
		file: "colombia__releases__ocds-k50g02-16-12-5280482-58125c22d3ff2f009b53ed8e.json",
		want: []tenderbase.WorldAward{{
			ContractID: "2720-2016", Awarded: true, Status: "active", Value: 2307457, Currency: "COP",
			Winners:      []tenderbase.WorldWinner{{Name: "LEIDY JOHANNA RUBIANO PALACIOS", ID: "1030616550-4", IDScheme: "Nit de Persona Natural", Country: 170}},
			ContractDate: at(t, "2016-06-27T00:00:00Z"), ContractEnd: at(t, "2016-08-11T00:00:00Z"),
		}},
		awarded: 2307457, cur: "COP",
	}, {
		// Paraguay: the contract's value (45233756) is the one signed, not
		// the award's (45233757); an identifier "null" is none.
		file: "paraguay__records__280555.json",
		want: []tenderbase.WorldAward{{
			ContractID: "280555-consorcio-siemens-rieder-500-kv-1", Title: "Lp1045_2014 Ampliación de las Subestaciones Ayolas y Villa Hayes",
			Awarded: true, Status: "active", Value: 45233756, Currency: "USD",
			Winners:   []tenderbase.WorldWinner{{Name: "CONSORCIO SIEMENS - RIEDER - 500 KV", IDScheme: "Registro Único de Contribuyente emitido por el Ministerio de Hacienda del Gobierno de Paraguay"}},
			AwardDate: at(t, "2016-02-09T11:33:46-05:00"), ContractDate: at(t, "2015-12-18T12:00:00-05:00"),
			ContractEnd: at(t, "2018-12-18T12:00:00-05:00"),
		}},
		awarded: 45233756, cur: "USD",
	}, {
		// Mexico City: a pending award is not (yet) awarded.
		file: "mexico-cdmx__releases__OCDS-87SD3T-SEFIN-DRM-A-006-2016-02.json",
		want: []tenderbase.WorldAward{{
			ContractID: "1", Title: "ARRENDAMIENTO INMUEBLES", Status: "pending", Value: 1217415.32, Currency: "MXN", TendersReceived: 1,
			Winners:   []tenderbase.WorldWinner{{Name: "TIENDAS COMERCIAL MEXICANA S.A D", ID: "TCM951030A17", Country: 484, Town: "BENITO JUAREZ"}},
			AwardDate: at(t, "2016-01-01T00:00:00-06:00"), ContractDate: at(t, "2015-12-31T00:00:00-06:00"),
			ContractEnd: at(t, "2016-06-30T00:00:00-06:00"),
		}},
	}, {
		// Mexico's federal administration: a contract without an award,
		// its supplier on the contract (contract_suppliers extension).
		file: "mexico-administracion-publica-federal__records__ocds-07smqs-1072-1072.json",
		want: []tenderbase.WorldAward{{
			ContractID: "201720002759", Title: "RECUPERACION DE FONBDO REVOLVENTE", Awarded: true,
			Winners:      []tenderbase.WorldWinner{{Name: "SECRETARIA DE DESARROLLO SOCIAL DELEGACION TABASCO", ID: "SDS060209QG3", IDScheme: "MX-RFC", Country: 484}},
			ContractDate: at(t, "2017-04-26T00:00:00Z"), ContractEnd: at(t, "2017-04-27T23:59:59Z"),
		}},
	}, {
		// Nigeria: an award of 0 NGN is kept as published; the contract
		// names an award id no award has, and stands apart.
		file: "nigeria-open-contracting-portal__records__ocds-gyl66f-borbda-3t7hsh.json",
		want: []tenderbase.WorldAward{{
			Title: "Construction of Farm Access Road at Illah-Ebu Irrigation project", Awarded: true, Status: "active", Currency: "NGN", TendersReceived: 1,
			Winners:   []tenderbase.WorldWinner{{Name: "crest line services limited", ID: "44583138", IDScheme: "NGA-CLSL"}},
			AwardDate: at(t, "2012-10-10T00:00:00Z"),
		}, {
			ContractID: "ocds-gyl66f-borbda-3t7hsh", Title: "Construction Of Farm Access Road At Illah-Ebu Irrigation Project",
			Awarded: true, Status: "active", Currency: "NGN", TendersReceived: 1, ContractEnd: at(t, "2014-12-15T00:00:00Z"),
		}},
		cur: "NGN",
	}, {
		// INAI: the number of tenderers is the tenderers listed.
		file: "mexico-inai__releases__PC-0025-PC-0025.json",
		want: []tenderbase.WorldAward{{
			ContractID: "1307704", Title: "Arrendamiento sin opción a compra de equipos de análisis de protocolos para mejorar el desempeño en enlaces de internet.",
			Awarded: true, Status: "active", Value: 5932380, Currency: "MXN", TendersReceived: 3,
			Winners:   []tenderbase.WorldWinner{{Name: "New Gate", ID: "NGA030930KN", IDScheme: "RFC", Country: 484, Town: "Cuauhtemoc"}},
			AwardDate: at(t, "2016-11-29T00:00:00Z"), ContractDate: at(t, "2016-12-16T00:00:00Z"),
			ContractEnd: at(t, "2019-12-30T00:00:00Z"),
		}},
		awarded: 5932380, cur: "MXN",
	}, {
		// Taiwan: awards published as one object of the award notice, its
		// winners in place under the items they won, each with the value
		// it was awarded; the tenders received are the one tenderer listed.
		file: "taiwan__records__ocid-6as3t2-51185810.json",
		want: []tenderbase.WorldAward{{
			Awarded: true, Value: 2750000, Currency: "TWD", TendersReceived: 1,
			Winners:   []tenderbase.WorldWinner{{Name: "台灣公共衛生學會", ID: "21100531", Town: "中正區"}},
			AwardDate: at(t, "2014-02-07T00:00:00Z"), ContractEnd: at(t, "2014-12-31T00:00:00Z"),
		}},
		awarded: 2750000, cur: "TWD",
	}} {
		t.Run(tc.file, func(t *testing.T) {
			w := decodeFile(t, sample(t, tc.file))
			for i := range w.Awards {
				if i < len(tc.want) && tc.want[i].Title == "" {
					w.Awards[i].Title = "" // titles are asserted where the test names them
				}
			}
			if diff := cmp.Diff(tc.want, w.Awards); diff != "" {
				t.Errorf("awards (-want +got):\n%s", diff)
			}
			if w.AwardedValue != tc.awarded || w.AwardedCurrency != tc.cur {
				t.Errorf("awarded %v %q, want %v %q", w.AwardedValue, w.AwardedCurrency, tc.awarded, tc.cur)
			}
		})
	}
}

// TestContractEndOfSeveralContracts checks that an award's contracts give
// it the latest end of their terms, before the term the award foresaw.
func TestContractEndOfSeveralContracts(t *testing.T) {
	period := func(end string) map[string]any { return map[string]any{"endDate": end} }
	c := map[string]any{
		"awards": []any{map[string]any{"id": "A", "status": "active", "contractPeriod": period("2025-12-31")}},
		"contracts": []any{
			map[string]any{"id": "C1", "awardID": "A", "period": period("2026-06-30")},
			map[string]any{"id": "C2", "awardID": "A", "period": period("2026-03-31")},
		},
	}
	awards, _ := awardsOf(c, partiesOf(c))
	if len(awards) != 1 || !awards[0].ContractEnd.Equal(at(t, "2026-06-30T00:00:00Z")) {
		t.Errorf("awards %+v: want one ending 2026-06-30", awards)
	}
}

// TestAwardPerLot checks that an award of several lots becomes an award
// per lot, its value once, and that bid statistics give each lot its
// tenders received.
func TestAwardPerLot(t *testing.T) {
	c := map[string]any{
		"tender": map[string]any{"lots": []any{map[string]any{"id": "1"}, map[string]any{"id": "2"}}, "numberOfTenderers": 9.0},
		"bids": map[string]any{"statistics": []any{
			map[string]any{"id": "1", "measure": "bids", "value": 3.0, "relatedLot": "1"},
			map[string]any{"id": "2", "measure": "bids", "value": 5.0, "relatedLot": "2"},
			map[string]any{"id": "3", "measure": "smeBids", "value": 2.0, "relatedLot": "2"},
		}},
		"awards": []any{map[string]any{"id": "A", "status": "active", "relatedLots": []any{"1", "2"},
			"value": map[string]any{"amount": 100.0, "currency": "EUR"}}},
	}
	awards, _ := awardsOf(c, partiesOf(c))
	want := []tenderbase.WorldAward{
		{LotID: "1", Awarded: true, Status: "active", Value: 100, Currency: "EUR", TendersReceived: 3},
		{LotID: "2", Awarded: true, Status: "active", TendersReceived: 5, TendersSME: 2},
	}
	if diff := cmp.Diff(want, awards); diff != "" {
		t.Errorf("awards (-want +got):\n%s", diff)
	}
}

// TestAwardValueOfItsParts checks the sums an award is given from its
// parts: the suppliers of Taiwan's award notice, the contracts of an
// award. A supplier without a value leaves the award without one, rather
// than the sum of the others as its whole; two contracts with one number
// name it once.
func TestAwardValueOfItsParts(t *testing.T) {
	supplier := func(name string, value any) map[string]any {
		s := map[string]any{"identifier": map[string]any{"legalName": name, "id": name}}
		if value != nil {
			s["awardValue"] = map[string]any{"amount": value, "currency": "TWD"}
		}
		return s
	}
	notice := func(suppliers ...any) map[string]any {
		return map[string]any{"awardDate": "2014-02-07", "items": []any{map[string]any{"suppliers": suppliers}}}
	}
	if w, _ := awardNotice(notice(supplier("A", 100.0), supplier("B", 50.0))); w.Value != 150 || w.Currency != "TWD" {
		t.Errorf("two suppliers with values: %v %q, want 150 TWD", w.Value, w.Currency)
	}
	if w, _ := awardNotice(notice(supplier("A", 100.0), supplier("B", nil))); w.Value != 0 || w.Currency != "" || len(w.Winners) != 2 {
		t.Errorf("a supplier without a value: %v %q with %d winners, want no value", w.Value, w.Currency, len(w.Winners))
	}
	var w tenderbase.WorldAward
	for _, k := range []map[string]any{{"id": "h1", "contractNumber": "16/11"}, {"id": "h2", "contractNumber": "16/11"}, {"id": "h3", "contractNumber": "17/11"}} {
		withContract(&w, k, parties{}, true)
	}
	if w.ContractID != "16/11, 17/11" {
		t.Errorf("contracts numbered 16/11, 16/11 and 17/11 give %q", w.ContractID)
	}
}
