package storetest

import (
	"testing"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/query"
)

// queryCase is a query written in both syntaxes with its known answer,
// newest first.
type queryCase struct {
	name   string
	kind   tenderbase.Kind
	mcp    string
	kwords string
	want   []string
}

func tenderCases() []queryCase {
	const k = tenderbase.KindTender
	supply := []string{tSyringe, tCartridge, tToys, tMedicine, tPaper}
	return []queryCase{
		{"word finds its forms", k, "поставка", "поставка", supply},
		{"any form finds the others", k, "поставку", "поставки", supply},
		{"case does not matter", k, "ПОСТАВКА", "ПоСтАвКа", supply},
		{"a different word does not match", k, "поставщиков", "поставщиков", []string{tOffice}},
		{"ё is е", k, "ёлочных", "елочных", []string{tToys}},
		{"ё is е in capitals", k, "ЁЛОЧНЫЕ", "ЕЛОЧНЫЕ", []string{tToys}},
		{"exact form with ё folded", k, "=елочных", "=ёлочных", []string{tToys}},
		{"exact form", k, "=поставки", "=поставки", []string{tCartridge, tToys}},
		{"exact form, other case", k, "=Поставка", "=ПОСТАВКА", []string{tSyringe, tCartridge, tPaper}},
		{"no prefix match", k, "=постав", "постав", nil},
		{"exact form is not a longer word", k, "=бумаг", "=бумаг", nil},
		{"AND", k, "поставка & бумаги", "поставка бумаги", []string{tPaper}},
		{"AND across fields", k, "помещений & гбу", "помещений гбу", []string{tCleaning}},
		{"AND with & in kwords", k, "ремонт&дороги", "ремонт & дороги", []string{tRoad}},
		{"phrase", k, `"поставка картриджей"`, `"поставка картриджей"`, []string{tCartridge}},
		{"phrase of other forms", k, `"поставку картриджа"`, `"поставки картриджа"`, []string{tCartridge}},
		{"phrase in the wrong order", k, `"картриджей поставка"`, `"картриджей поставка"`, nil},
		{"phrase of words apart", k, `"поставка принтеров"`, `"поставка принтеров"`, nil},
		{"phrase across two fields", k, `"помещений гбу"`, `"помещений гбу"`, nil},
		{"phrase with an exact word", k, `"=поставка бумаги"`, `"=поставка бумаги"`, []string{tPaper}},
		{"phrase with a wrong exact word", k, `"=поставки бумаги"`, `"=поставки бумаги"`, nil},
		// The exact form and the stems of the phrase are all in the record,
		// but not at the same place.
		{"phrase with an exact word elsewhere", k, `"=поставки картриджей"`, `"=поставки картриджей"`, nil},
		{"phrase with the right exact word", k, `"=поставка картриджей"`, `"=поставка =картриджей"`, []string{tCartridge}},
		{"exclude a phrase with an exact word", k, `поставка & !"=поставки ёлочных"`, `поставка !"=поставки ёлочных"`, []string{tSyringe, tCartridge, tMedicine, tPaper}},
		{"exclude a phrase with an exact word elsewhere", k, `поставка & !"=поставки картриджей"`, `поставка !"=поставки картриджей"`, supply},
		{"phrase of a repeated word", k, `"поставка поставка"`, `"поставка поставка"`, nil},
		{"phrase across an object and its code", k, `"белая 17"`, `"белая 17"`, nil},
		{"phrase across a lot title and an object", k, `"заказчика картридж"`, `"заказчика картридж"`, nil},
		{"OR", k, "картриджей | гирлянд", "картриджей | гирлянд", []string{tCartridge, tToys}},
		{"OR of phrases", k, `"уборке помещений" | "охране объектов"`, `"уборке помещений" | "охране объектов"`, []string{tGuard, tCleaning}},
		{"exclude a word", k, "поставка & !картриджей", "поставка !картриджей", []string{tSyringe, tToys, tMedicine, tPaper}},
		{"exclude a phrase", k, `поставка & !"медицинских изделий"`, `поставка !"медицинских изделий"`, []string{tCartridge, tToys, tMedicine, tPaper}},
		{"exclude a phrase in the wrong order", k, `поставка & !"изделий медицинских"`, `поставка !"изделий медицинских"`, supply},
		{"exclude a group", k, "поставка & !(картриджей | гирлянд)", "поставка !(картриджей | гирлянд)", []string{tSyringe, tMedicine, tPaper}},
		{"exclude an AND group", k, "поставка & !(картриджей & бумаги)", "поставка !(картриджей бумаги)", supply},
		{"exclusion first", k, "!бумаги & поставка", "!бумаги поставка", []string{tSyringe, tCartridge, tToys, tMedicine}},
		{"group in any order", k, "(гирлянд & игрушек)", "(гирлянд игрушек)", []string{tToys}},
		{"phrase keeps order where a group does not", k, `"гирлянд игрушек"`, `"гирлянд игрушек"`, nil},
		{"group of OR", k, "ремонт & (дороги | школы)", "ремонт (дороги | школы)", []string{tSchool, tRoad}},
		{"AND binds tighter than OR", k, "ремонт & школы | картриджей", "ремонт школы | картриджей", []string{tCartridge, tSchool}},
		{"OR branch with an exclusion", k, "ремонт | поставка & !бумаги", "ремонт | поставка !бумаги", []string{tSyringe, tCartridge, tSchool, tToys, tRoad, tMedicine}},
		{"nested groups", k, "((поставка & (шприцы | картриджей)) | (уборке & !охране))", "((поставка (шприцы | картриджей)) | (уборке !охране))", []string{tSyringe, tCartridge, tCleaning}},
		{"hyphenated word", k, "медико-санитарной", "медико-санитарной", []string{tMedicine}},
		{"hyphenated word, other form", k, "медико-санитарная", "Медико-Санитарную", []string{tMedicine}},
		{"hyphenated word as a phrase", k, `"медико санитарной"`, `"медико санитарной"`, []string{tMedicine}},
		{"hyphenated word, exact", k, "=медико-санитарной", "=медико-санитарной", []string{tMedicine}},
		{"hyphenated word, parts reversed", k, "санитарной-медико", "санитарной-медико", nil},
		{"law with a hyphen", k, "44-ФЗ", "44-фз", []string{tCartridge}},
		{"purchase number", k, tPaper, tPaper, []string{tPaper}},
		{"part of a purchase number", k, "037320004152400010", "037320004152400010", nil},
		{"INN", k, innPolyclinic, innPolyclinic, []string{tSyringe, tPaper}},
		{"part of an INN", k, "770123456", "770123456", nil},
		{"OKPD2 code", k, "21.20.10.110", "21.20.10.110", []string{tMedicine}},
		{"OKPD2 class", k, "21.20.10", "21.20.10", []string{tMedicine}},
		{"number and word", k, "12 & школы", "школа 12", []string{tSchool}},
		{"OR of INNs", k, "7810000103 | 5001000108", "7810000103 | 5001000108", []string{tOffice, tMedicine}},
		{"placing method", k, `"электронный аукцион"`, `"электронный аукцион"`, []string{tRoad}},
		{"lot object", k, "парацетамол", "парацетамол", []string{tMedicine}},
		{"nothing matches", k, "экскаватор", "экскаватор", nil},
		// Other engines' operators are the MCP syntax's own; kwords writes them its way.
		{"another engine's OR", k, "картриджей OR гирлянд", "картриджей | гирлянд", []string{tCartridge, tToys}},
		{"another engine's AND and NOT", k, "поставка AND NOT картриджей", "поставка !картриджей", []string{tSyringe, tToys, tMedicine, tPaper}},
		{"another engine's exclusion", k, "поставка -картриджей", "поставка !картриджей", []string{tSyringe, tToys, tMedicine, tPaper}},
		{"a wildcard is the word", k, "поставка*", "поставка*", supply},
	}
}

func otherCases() []queryCase {
	return []queryCase{
		{"doc by text", tenderbase.KindDoc, "бумага", "бумага", []string{dSpec}},
		{"doc by file name", tenderbase.KindDoc, "смета", "смета", []string{dEstimate}},
		{"doc with ё", tenderbase.KindDoc, `"сметный расчет"`, `"сметный расчёт"`, []string{dEstimate}},
		{"doc by purchase number", tenderbase.KindDoc, tCartridge, tCartridge, []string{dDraft}},
		{"doc of either", tenderbase.KindDoc, "картриджи | асфальтобетонного", "картриджи | асфальтобетонного", []string{dDraft, dEstimate}},
		{"contract by subject", tenderbase.KindContract, "бумаги", "бумаги", []string{cPaper}},
		{"contract by supplier with ё", tenderbase.KindContract, "Петр & Иванов", "Пётр Иванов", []string{cRoad}},
		{"contract by supplier INN", tenderbase.KindContract, oIvanov, oIvanov, []string{cRoad}},
		{"contract by purchase number", tenderbase.KindContract, tPaper, tPaper, []string{cPaper}},
		{"English stem", tenderbase.KindWorldTender, "supply", "supplies", []string{wPaper, wUltra}},
		{"English exact form", tenderbase.KindWorldTender, "=supply", "=supply", []string{wUltra}},
		{"English forms", tenderbase.KindWorldTender, "construction", "constructing", []string{wRoad, wPlant}},
		{"English phrase", tenderbase.KindWorldTender, `"road constructing"`, `"Road Construction"`, []string{wRoad}},
		{"English exclusion", tenderbase.KindWorldTender, "works & !road", "works !road", []string{wPlant}},
		{"CPV code", tenderbase.KindWorldTender, "33100000", "33100000", []string{wUltra}},
		{"lot by title", tenderbase.KindLot, "помещение", "помещения", []string{lRoom}},
		{"lot by debtor INN", tenderbase.KindLot, "772800123456", "772800123456", []string{lCar}},
		{"lot exact", tenderbase.KindLot, "=автомобиль & !помещение", "=автомобиль !помещение", []string{lCar}},
		{"complaint by text", tenderbase.KindComplaint, "жалоба & опыта", "жалоба опыта", []string{kRoad}},
		{"complaints by word", tenderbase.KindComplaint, "жалобы", "жалобы", []string{kToner, kRoad}},
		{"complaint phrase", tenderbase.KindComplaint, `"действия комиссии"`, `"действия комиссии"`, []string{kToner}},
		{"complaint by office", tenderbase.KindComplaint, "УФАС & !Санкт-Петербургское", "уфас !санкт-петербургское", []string{kRoad}},
		{"FAS case by INN in its organizations", tenderbase.KindFASCase, oKanc, oKanc, []string{fCase}},
		{"FAS cases by word", tenderbase.KindFASCase, "законодательства", "законодательство", []string{fCartel, fCase}},
		{"FAS case by number", tenderbase.KindFASCase, "077/07/00-1234/2024", "077/07/00-1234/2024", []string{fCase}},
		{"FAS case by phrase", tenderbase.KindFASCase, `"картельный сговор"`, `"картельный сговор"`, []string{fCartel}},
	}
}

// testQueries runs every case in both syntaxes.
func (c *corpusStore) testQueries(t *testing.T) {
	for _, qc := range append(tenderCases(), otherCases()...) {
		t.Run(string(qc.kind)+"/"+qc.name, func(t *testing.T) {
			for _, in := range []struct {
				text   string
				syntax query.Syntax
			}{{qc.mcp, query.MCP}, {qc.kwords, query.Kwords}} {
				q := mustParse(t, in.text, in.syntax)
				c.check(t, tenderbase.Search{Kind: qc.kind, Query: q}, qc.want...)
			}
		})
	}
	t.Run("kinds are apart", func(t *testing.T) {
		q := mustParse(t, "бумаги", query.MCP)
		c.check(t, tenderbase.Search{Kind: tenderbase.KindTender, Query: q}, tOffice, tPaper)
		c.check(t, tenderbase.Search{Kind: tenderbase.KindDoc, Query: q}, dSpec)
		c.check(t, tenderbase.Search{Kind: tenderbase.KindContract, Query: q}, cPaper)
		c.check(t, tenderbase.Search{Kind: tenderbase.KindComplaint, Query: q})
	})
}
