package eis

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tenderbase/tenderbase"
)

// realData is where the real EIS files beside the project are, when they
// are.
var realData = filepath.Join("..", "..", "..", "..", "shared", "data")

// realProtocolFiles lists every protocol file of the real samples with its
// outcome: the number of records (protocols, or the event of a protocol
// cancellation), or the rejection it is.
var realProtocolFiles = []struct {
	file   string
	recs   int
	reject string
}{
	{"eis44/Sterks__rXML/fcsProtocolEF1_0373200587820000039_30316592.xml", 1, ""},
	{"eis44/Sterks__rXML/fcsProtocolEF2_0373200557920000359_30317243.xml", 1, ""},
	{"eis44/Sterks__rXML/fcsProtocolEF3_0873500000820003425_30311379.xml", 1, ""},
	{"eis44/Sterks__rXML/fcsProtocolEF3_0873500000820003425_30317356.xml", 1, ""},
	{"eis44/Sterks__rXML/fcsProtocolEFInvalidation_0373100034920000012_30311370.xml", 1, ""},
	{"eis44/Sterks__rXML/fcsProtocolEFSingleApp_0173100000120000018_30317541.xml", 1, ""},
	{"eis44/Sterks__rXML/fcsProtocolEOK1_2073400000720000002_30308863.xml", 1, ""},
	{"eis44/Sterks__rXML/fcsProtocolEOK2_0173200001320000027_30316640.xml", 1, ""},
	{"eis44/Sterks__rXML/fcsProtocolEOK3_0373200041520000828_30314517.xml", 1, ""},
	{"eis44/Sterks__rXML/fcsProtocolEOKOU1_0373200025620000354_30317342.xml", 1, ""},
	{"eis44/Sterks__rXML/fcsProtocolEOKOU2_0373200025620000354_30317735.xml", 1, ""},
	{"eis44/Sterks__rXML/fcsProtocolEZK1_0332200014320000017_30316689.xml", 1, ""},
	{"eis44/Sterks__rXML/fcsProtocolEZK2_0373200554120000039_30312504.xml", 1, ""},
	{"eis44/Sterks__rXML/fcsProtocolPP615_027300000012001473_30313173.xml", 1, ""},
	{"eis44/Sterks__rXML/fcsProtocolPR615_027300000012001473_30312943.xml", 1, ""},
	{"eis44/Sterks__rXML/fcsProtocolPZP_0373200029720003506_30312379.xml", 1, ""},
	{"eis44/Sterks__rXML/fcsProtocolVPP_0373200029720003504_30311128.xml", 1, ""},
	{"eis44/aksyuk__zakupki_gov_ru/fcsProtocolCancel_0111100004218000004_342109.xml", 1, ""}, // a protocol cancellation event
	{"eis44/aksyuk__zakupki_gov_ru/fcsProtocolEF1_0111100000217000017_15516465.xml", 1, ""},
	{"eis44/aksyuk__zakupki_gov_ru/fcsProtocolEF1_0111100000217000020_15516470.xml", 1, ""},
	{"eis44/aksyuk__zakupki_gov_ru/fcsProtocolEF1_0111100008317000293_15799266.xml", 1, ""},
	{"eis44/aksyuk__zakupki_gov_ru/fcsProtocolEF1_0311100006117000056_15221616.xml", 1, ""},
	{"eis44/aksyuk__zakupki_gov_ru/fcsProtocolEF2_0111100000217000017_15528232.xml", 1, ""},
	{"eis44/aksyuk__zakupki_gov_ru/fcsProtocolEF2_0111100000217000020_15535590.xml", 1, ""},
	{"eis44/aksyuk__zakupki_gov_ru/fcsProtocolEF3_0111100000217000017_15585361.xml", 1, ""},
	{"eis44/aksyuk__zakupki_gov_ru/fcsProtocolEF3_0111100002017000012_15210165.xml", 1, ""},
	{"eis44/aksyuk__zakupki_gov_ru/fcsProtocolEF3_0111200000917000706_15317307.xml", 1, ""},
	{"eis44/aksyuk__zakupki_gov_ru/fcsProtocolEF3_0311300012718000021_18772833.xml", 1, ""},
	{"eis44/aksyuk__zakupki_gov_ru/fcsProtocolEFInvalidation_0111100001117000130_15172643.xml", 1, ""},
	{"eis44/aksyuk__zakupki_gov_ru/fcsProtocolEFSingleApp_0111100000217000018_15537445.xml", 1, ""},
	{"eis44/aksyuk__zakupki_gov_ru/fcsProtocolEFSinglePart_0111100000217000028_15570374.xml", 1, ""},
	{"eis44/aksyuk__zakupki_gov_ru/fcsProtocolEvasion_0111300005118000098_18238618.xml", 1, ""},
	{"eis44/aksyuk__zakupki_gov_ru/fcsPlacementResult_0111100000217000017_7669755.xml", 0, "summary of a procedure's result"},
	{"eis44-unverified-templates/rezident1989__portal44_xml/epClosedProtocolEZakA2020Final.xml", 1, ""},
	{"eis44-unverified-templates/rezident1989__portal44_xml/epProtocolEOK2020Final.xml", 1, ""},
	{"eis44-unverified-templates/rezident1989__portal44_xml/epProtocolEZT2020Final.xml", 1, ""},
	{"eis223/Khudim__ZakupkiParser/purchaseProtocolPAEP_Tambovskaya_obl_20170217_000000_20170217_235959_daily_001.xml", 1, ""},
	{"eis223/Khudim__ZakupkiParser/purchaseProtocol_Krasnodarskii_krai_20170221_000000_20170221_235959_daily_001.xml", 1, ""},
	{"eis223/andreiSaw__zakupki/31400935277.xml", 8, ""}, // eight lots
	{"eis223/andreiSaw__zakupki/34752044.xml", 1, ""},
	{"eis223/andreiSaw__zakupki/wokhse.xml", 1, ""},
}

// skipWithoutRealData skips a test when the real samples are absent.
func skipWithoutRealData(t *testing.T) {
	t.Helper()
	if _, err := os.Stat(realData); err != nil {
		t.Skipf("real EIS samples not found at %s: %v", realData, err)
	}
}

func TestRealProtocolFiles(t *testing.T) {
	skipWithoutRealData(t)
	listed := map[string]bool{}
	for _, tt := range realProtocolFiles {
		listed[tt.file] = true
		got, errs := decodeRecords(t, filepath.Join(realData, tt.file))
		switch {
		case tt.reject != "" && (len(got) != 0 || len(errs) != 1 || !strings.Contains(errs[0], tt.reject)):
			t.Errorf("%s: %d records, rejections %q; want the one rejection %q", tt.file, len(got), errs, tt.reject)
		case tt.reject == "" && (len(got) != tt.recs || len(errs) != 0):
			t.Errorf("%s: %d records, rejections %q; want %d records", tt.file, len(got), errs, tt.recs)
		}
		keys := map[string]bool{}
		for _, r := range got {
			roundTrip(t, r)
			if keys[r.Key()] || r.Date().IsZero() || !slices.ContainsFunc(r.Lookups(), isPurchaseNumber) {
				t.Errorf("%s: %s %q is a second of its key, or has no publication or purchase", tt.file, r.Kind(), r.Key())
			}
			keys[r.Key()] = true
		}
	}
	// Every protocol file of the samples is in the table.
	for _, pattern := range []string{"eis44*/*/*rotocol*", "eis44/*/fcsPlacementResult*", "eis223/*/*rotocol*"} {
		files, _ := filepath.Glob(filepath.Join(realData, pattern))
		for _, f := range files {
			if rel, _ := filepath.Rel(realData, f); !listed[filepath.ToSlash(rel)] {
				t.Errorf("%s is not in the table of real protocol files", rel)
			}
		}
	}
}

func isPurchaseNumber(l tenderbase.Lookup) bool { return l.Field == tenderbase.LookupPurchaseNumber }

// protocolOutcome is what a test checks by hand of one protocol record.
type protocolOutcome struct {
	Key, Purchase, Type, Number string
	Lot, Participants           int
	WinnerINN, WinnerName       string
	WinnerPrice                 float64
	ProtocolDate, Published     string
	Failed                      bool
	Reason                      string
}

func TestRealProtocolValues(t *testing.T) {
	skipWithoutRealData(t)
	tests := []struct {
		file string
		lot  int // index of the record among the file's
		want protocolOutcome
	}{
		{"eis44/Sterks__rXML/fcsProtocolEF3_0873500000820003425_30311379.xml", 0, protocolOutcome{
			Key: "30311379", Purchase: "0873500000820003425", Type: "fcsProtocolEF3", Number: "0873500000820003425-3",
			Participants: 6, WinnerINN: "9703009483", WinnerName: `ОБЩЕСТВО С ОГРАНИЧЕННОЙ ОТВЕТСТВЕННОСТЬЮ "ТАРГЕТ"`, WinnerPrice: 1840283.61,
			ProtocolDate: "2020-10-01T08:29:25+03:00", Published: "2020-10-01T08:40:51.093+03:00"}},
		{"eis44/Sterks__rXML/fcsProtocolEFSingleApp_0173100000120000018_30317541.xml", 0, protocolOutcome{
			Key: "30317541", Purchase: "0173100000120000018", Type: "fcsProtocolEFSingleApp", Number: "0173100000120000018-0",
			Participants: 1, WinnerINN: "7702404085", WinnerName: `ОБЩЕСТВО С ОГРАНИЧЕННОЙ ОТВЕТСТВЕННОСТЬЮ "РУБИТЕХ"`, WinnerPrice: 265e6,
			ProtocolDate: "2020-10-01T12:23:35+03:00", Published: "2020-10-01T12:24:17.905+03:00",
			Failed: true, Reason: "По окончании срока подачи заявок подана только одна заявка. Такая заявка признана соответствующей " +
				"требованиям Федерального закона № 44-ФЗ и документации об аукционе. Электронный аукцион признан несостоявшимся " +
				"по основанию, предусмотренному ч. 1 ст. 71 Федерального закона № 44-ФЗ"}},
		{"eis44/Sterks__rXML/fcsProtocolEOK3_0373200041520000828_30314517.xml", 0, protocolOutcome{
			Key: "30314517", Purchase: "0373200041520000828", Type: "epProtocolEOK3", Number: "ППИ1",
			Participants: 2, WinnerINN: "7718195662", WinnerName: `ОБЩЕСТВО С ОГРАНИЧЕННОЙ ОТВЕТСТВЕННОСТЬЮ "ЦЕНТР ПРОЕКТИРОВАНИЯ ОБУВИ СПЕЦИАЛЬНОГО НАЗНАЧЕНИЯ "ОРТОМОДА"`,
			ProtocolDate: "2020-10-01T00:00:00+03:00", Published: "2020-10-01T10:45:57+03:00"}},
		{"eis44/aksyuk__zakupki_gov_ru/fcsProtocolEF3_0311300012718000021_18772833.xml", 0, protocolOutcome{
			Key: "18772833", Purchase: "0311300012718000021", Type: "fcsProtocolEF3", Number: "0311300012718000021-3",
			Participants: 9, WinnerINN: "1657082883", WinnerName: "ООО «Клиника восстановительной медицины»", WinnerPrice: 175292.6,
			ProtocolDate: "2018-05-25T09:19:25+03:00", Published: "2018-05-25T09:20:35.516+03:00"}},
		{"eis44/Sterks__rXML/fcsProtocolPP615_027300000012001473_30313173.xml", 0, protocolOutcome{
			Key: "30313173", Purchase: "027300000012001473", Type: "pprf615ProtocolEF2", Number: "0273000000120014730004",
			Participants: 1, WinnerINN: "7723806652", WinnerName: `ОБЩЕСТВО С ОГРАНИЧЕННОЙ ОТВЕТСТВЕННОСТЬЮ "ВЕК"`, WinnerPrice: 16519417.98,
			ProtocolDate: "2020-10-01T00:00:00+03:00", Published: "2020-10-01T09:58:04.472+03:00", Failed: true,
			Reason: "Во время проведения электронного аукциона подано единственное ценовое предложение о цене договора о проведении " +
				"капитального ремонта. Электронный аукцион признан несостоявшимся по основанию, предусмотренному п. 189 Положения, " +
				"утвержденного ПП РФ от 1 июля 2016 г. № 615."}},
		{"eis44/Sterks__rXML/fcsProtocolEZK1_0332200014320000017_30316689.xml", 0, protocolOutcome{
			Key: "30316689", Purchase: "0332200014320000017", Type: "epProtocolEZK1", Number: "ПР1",
			ProtocolDate: "2020-10-01T00:00:00+03:00", Published: "2020-10-01T11:52:07+03:00",
			Failed: true, Reason: "По окончании срока подачи заявок не подано ни одной заявки (ч. 14 ст. 82.3 Закона № 44-ФЗ)."}},
		{"eis223/andreiSaw__zakupki/31400935277.xml", 1, protocolOutcome{
			Key: "1eee3a24-a5f0-4f70-85ce-33a778a7ec14-2", Purchase: "31400935277", Type: "purchaseProtocol", Number: "31400935277-03", Lot: 2,
			Participants: 2, WinnerINN: "5256051148", WinnerName: "Общество с ограниченной ответственностью «Коммерческие автомобили-Группа ГАЗ»",
			WinnerPrice: 54566757.33, ProtocolDate: "2014-04-16T12:00:00+03:00", Published: "2014-04-22T15:45:26+03:00"}},
		{"eis223/andreiSaw__zakupki/wokhse.xml", 0, protocolOutcome{
			Key: "ffbe6f94-5e67-43ab-8fd3-69bef84b1bca", Purchase: "31907787979", Type: "purchaseProtocol", Number: "31907787979-02", Lot: 1,
			Participants: 1, WinnerINN: "7703621798", WinnerName: `Общество с ограниченной ответственностью "ПК Техномикс"`, WinnerPrice: 1052784,
			ProtocolDate: "2019-05-13T14:20:00+03:00", Published: "2019-05-14T14:24:26+03:00"}},
		{"eis223/andreiSaw__zakupki/34752044.xml", 0, protocolOutcome{
			Key: "37679d4a-d2f3-4e1b-8b08-bcc2d4be02e2", Purchase: "31907777345", Type: "purchaseProtocolSummingupZKESMBO",
			Number: "31907777345-02", Lot: 1, Participants: 1, WinnerPrice: 462000, // a small business's offer, without its name
			ProtocolDate: "2019-04-26T17:10:00+03:00", Published: "2019-04-26T17:18:03+03:00",
			Failed: true, Reason: "По итогам рассмотрения допущен только один участник закупки"}},
		// A purchase from a single supplier: the supplier is the winner.
		{"eis223/Khudim__ZakupkiParser/purchaseProtocolPAEP_Tambovskaya_obl_20170217_000000_20170217_235959_daily_001.xml", 0, protocolOutcome{
			Key: "56194ca3-1277-4fa0-b738-8c4fd2a5195a", Purchase: "31704807799", Type: "purchaseProtocolPAEP", Number: "31704807799-01", Lot: 1,
			Participants: 1, WinnerINN: "6829105817", WinnerName: `ООО "Тамбовские семена"`, WinnerPrice: 362500,
			ProtocolDate: "2017-02-17T00:00:00+03:00", Published: "2017-02-17T14:34:20+03:00"}},
	}
	for _, tt := range tests {
		got, errs := decodeProtocols(t, filepath.Join(realData, tt.file))
		if len(errs) != 0 || tt.lot >= len(got) {
			t.Errorf("%s: %d records, rejections %q", tt.file, len(got), errs)
			continue
		}
		p := got[tt.lot]
		out := protocolOutcome{Key: p.Key(), Purchase: p.PurchaseNumber, Type: p.Type, Number: p.Number, Lot: p.LotNumber,
			Participants: len(p.Participants), ProtocolDate: stamp(p.ProtocolDate), Published: stamp(p.PublishedAt),
			Failed: p.Failed, Reason: p.Reason}
		if ws := p.Winners(); len(ws) == 1 {
			out.WinnerINN, out.WinnerName, out.WinnerPrice = ws[0].INN, ws[0].Name, ws[0].Price
		} else if len(ws) > 1 {
			t.Errorf("%s: %d winners", tt.file, len(ws))
		}
		if diff := cmp.Diff(tt.want, out); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.file, diff)
		}
	}
}
