package eis

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tenderbase/tenderbase"
)

// mskTime returns a time in Moscow, the zone of the EIS.
func mskTime(year int, month time.Month, day, hour, min, sec, msec int) time.Time {
	return time.Date(year, month, day, hour, min, sec, msec*int(time.Millisecond), moscowTime)
}

// decodeProtocols decodes a file and returns its protocol records, each
// checked to round-trip through its canonical JSON, and the rejections.
func decodeProtocols(t *testing.T, path string) ([]*tenderbase.Protocol, []string) {
	t.Helper()
	recs, msgs := decodeRecords(t, path)
	var ps []*tenderbase.Protocol
	for _, rec := range recs {
		roundTrip(t, rec)
		p, ok := rec.(*tenderbase.Protocol)
		if !ok {
			t.Fatalf("%s: unexpected %s record", path, rec.Kind())
		}
		ps = append(ps, p)
	}
	return ps, msgs
}

const protocolFilestore = "https://zakupki.gov.ru/44fz/filestore/public/1.0/download/priz/file.html?uid="

func TestProtocols(t *testing.T) {
	tests := []struct {
		file string
		want []*tenderbase.Protocol
	}{
		{"fcsProtocolEF3_0145300012719000084_24418806.xml", []*tenderbase.Protocol{{
			ID: "24418806", PurchaseNumber: "0145300012719000084", Law: "44", Type: "fcsProtocolEF3",
			Number:       "0145300012719000084-3",
			ProtocolDate: mskTime(2019, 7, 18, 10, 30, 0, 0), PublishedAt: mskTime(2019, 7, 18, 11, 2, 47, 516),
			Participants: []tenderbase.Participant{
				{Party: tenderbase.Party{INN: "6950187230", KPP: "695001001",
					Name:    `ОБЩЕСТВО С ОГРАНИЧЕННОЙ ОТВЕТСТВЕННОСТЬЮ "ВЕРХНЕВОЛЖСКИЙ РЕМОНТНЫЙ ЦЕНТР"`,
					Address: "170100, Тверская обл, г. Тверь, ул. Вагжанова, д. 9, оф. 4"}, Rank: 1, Winner: true, JournalNumber: "3"},
				{Party: tenderbase.Party{INN: "690208554312", Name: "Кузнецов Игорь Викторович",
					Address: "171253, Тверская обл, г. Конаково, ул. Энергетиков, д. 21, кв. 7"}, Rank: 2, JournalNumber: "1"},
				// Rejected, without a place: still a participant.
				{Party: tenderbase.Party{INN: "7728543190", KPP: "772801001", Name: "ООО «СтройПрофиль»"}, JournalNumber: "2"},
			},
			// The publisher is the customer itself (role CU).
			Customer: tenderbase.Party{RegNum: "03453000127",
				Name: `МУНИЦИПАЛЬНОЕ БЮДЖЕТНОЕ ОБЩЕОБРАЗОВАТЕЛЬНОЕ УЧРЕЖДЕНИЕ "СРЕДНЯЯ ШКОЛА № 17" Г. ТВЕРИ`},
			Attachments: []tenderbase.Attachment{{FileName: "Протокол подведения итогов.pdf",
				Description: "Протокол подведения итогов электронного аукциона",
				URL:         protocolFilestore + "7E1C0A52B9D34F0C8A61D2E5F3B49A07", Size: 184320}},
			URL: "https://www.rts-tender.ru/Protocols/ViewProtocol?id=5518230",
		}}},
		{"fcsProtocolEFSingleApp_0362300041819000211_24530117.xml", []*tenderbase.Protocol{{
			ID: "24530117", PurchaseNumber: "0362300041819000211", Law: "44", Type: "fcsProtocolEFSingleApp",
			Number:       "0362300041819000211-1",
			ProtocolDate: time.Date(2019, 7, 24, 9, 0, 0, 0, time.FixedZone("", 5*3600)),
			PublishedAt:  time.Date(2019, 7, 24, 9, 41, 12, 80*int(time.Millisecond), time.FixedZone("", 5*3600)),
			// The single admitted participant gets the contract at its price.
			Participants: []tenderbase.Participant{{Party: tenderbase.Party{INN: "665802347719",
				Name:    "Мухаметшина Алсу Ринатовна",
				Address: "620085, Свердловская обл, г. Екатеринбург, ул. Титова, д. 44, кв. 112"},
				Price: 287450.5, Rank: 1, Winner: true, JournalNumber: "1"}},
			Failed: true, Reason: "По окончании срока подачи заявок подана только одна заявка (ч. 16 ст. 66 44-ФЗ)",
			Customer: tenderbase.Party{RegNum: "03623000418", Name: "МУНИЦИПАЛЬНОЕ АВТОНОМНОЕ ДОШКОЛЬНОЕ ОБРАЗОВАТЕЛЬНОЕ УЧРЕЖДЕНИЕ - ДЕТСКИЙ САД № 312"},
			URL:      "http://www.sberbank-ast.ru/ViewDocument.aspx?id=614270553",
		}}},
		{"fcsProtocolEFInvalidation_0190300004619000045_24102233.xml", []*tenderbase.Protocol{{
			ID: "24102233", PurchaseNumber: "0190300004619000045", Law: "44", Type: "fcsProtocolEFInvalidation",
			Number:       "0190300004619000045-0",
			ProtocolDate: mskTime(2019, 6, 28, 10, 0, 5, 0), PublishedAt: mskTime(2019, 6, 28, 10, 0, 41, 900),
			Failed: true, Reason: "По окончании срока подачи заявок не подано ни одной заявки (ч. 16 ст. 66 44-ФЗ)",
			URL: "https://app.rts-tender.ru/files/FileDownloadHandler.ashx?FileGuid=3b1d7e2a-6f04-4c9b-a8e5-d2f71c09b6e4",
		}}},
		{"epProtocolEZK2020Final_0318300119424000057_41877320.xml", []*tenderbase.Protocol{{
			ID: "41877320", PurchaseNumber: "0318300119424000057", Law: "44", Type: "epProtocolEZK2020Final",
			Number: "ИЗК1", Version: 2,
			ProtocolDate: mskTime(2024, 3, 14, 15, 40, 0, 0), PublishedAt: mskTime(2024, 3, 14, 16, 5, 44, 0),
			// The final protocol names no participant: its applications
			// give the offer and the place only, by journal number; its
			// part (below) names them, and the tools name them from it.
			Participants: []tenderbase.Participant{{Price: 118260, Rank: 1, Winner: true, JournalNumber: "187"}, {Price: 121500, Rank: 2, JournalNumber: "203"}},
			Customer: tenderbase.Party{INN: "2304026276", KPP: "230401001", RegNum: "03183001194",
				Name:    "АДМИНИСТРАЦИЯ МУНИЦИПАЛЬНОГО ОБРАЗОВАНИЯ ГОРОД-КУРОРТ ГЕЛЕНДЖИК",
				Address: "Российская Федерация, 353460, Краснодарский край, Геленджик г, Революционная ул, д. 1"},
			Attachments: []tenderbase.Attachment{{FileName: "Протокол подведения итогов.docx",
				Description: "Протокол подведения итогов определения поставщика",
				URL:         protocolFilestore + "B3E59D0F1A2C4C7E9F80A6D41C7B25E8", Size: 30412}},
			URL: "https://zakupki.gov.ru/epz/order/notice/zk20/view/supplier-results.html?regNumber=0318300119424000057",
		}}},
		// The part of the final protocol names the participants of its
		// applications by their journal numbers.
		{"epProtocolEZK2020FinalPart_0318300119424000057_41877321.xml", []*tenderbase.Protocol{{
			ID: "41877321", PurchaseNumber: "0318300119424000057", Law: "44", Type: "epProtocolEZK2020FinalPart",
			Number: "ИЗК1", Version: 1,
			ProtocolDate: mskTime(2024, 3, 14, 15, 40, 0, 0), PublishedAt: mskTime(2024, 3, 14, 16, 5, 44, 0),
			Participants: []tenderbase.Participant{
				{Party: tenderbase.Party{INN: "2311287764", KPP: "231101001", OGRN: "1192375031440",
					Name: `ОБЩЕСТВО С ОГРАНИЧЕННОЙ ОТВЕТСТВЕННОСТЬЮ "ЮГКАНЦСНАБ"`, ShortName: `ООО "ЮГКАНЦСНАБ"`,
					Address: "350051, Краснодарский край, г. Краснодар, ул. Шоссе Нефтяников, д. 18, оф. 3",
					Contact: tenderbase.Contact{Phone: "7-861-2011847"}},
					Price: 118260, Rank: 1, Winner: true, JournalNumber: "187"},
				{Party: tenderbase.Party{INN: "230407811426", Name: "Оганесян Армен Григорьевич",
					Address: "353475, Краснодарский край, г. Геленджик, ул. Луначарского, д. 140",
					Contact: tenderbase.Contact{Phone: "7-918-4402617"}},
					Price: 121500, Rank: 2, JournalNumber: "203"},
			},
			Customer: tenderbase.Party{INN: "2304026276", KPP: "230401001", RegNum: "03183001194",
				Name:    "АДМИНИСТРАЦИЯ МУНИЦИПАЛЬНОГО ОБРАЗОВАНИЯ ГОРОД-КУРОРТ ГЕЛЕНДЖИК",
				Address: "Российская Федерация, 353460, Краснодарский край, Геленджик г, Революционная ул, д. 1"},
			Attachments: []tenderbase.Attachment{{FileName: "Протокол подведения итогов.docx",
				Description: "Протокол подведения итогов определения поставщика",
				URL:         protocolFilestore + "B3E59D0F1A2C4C7E9F80A6D41C7B25E8", Size: 30412}},
			URL: "https://zakupki.gov.ru/epz/order/notice/zk20/view/supplier-results.html?regNumber=0318300119424000057",
		}}},
		{"purchaseProtocol_two_lots.xml", twoLots223()},
		{"purchaseProtocolZK_two_lots.xml", quotation223()},
		{"fcsProtocolOK2_0131200001017003945_16208817.xml", competition44()},
		{"fcsProtocolZK_0348300011718000213_17926544.xml", []*tenderbase.Protocol{{
			ID: "17926544", PurchaseNumber: "0348300011718000213", Law: "44", Type: "fcsProtocolZK", Number: "П1",
			ProtocolDate: mskTime(2018, 6, 14, 11, 0, 0, 0), PublishedAt: mskTime(2018, 6, 14, 15, 27, 9, 384),
			// The results of the quotation give the winner and the second
			// place; the masked participant keeps its label and offer, not
			// its placeholder INN; the rejected application has no place.
			Participants: []tenderbase.Participant{
				{Party: tenderbase.Party{INN: "5022054318", KPP: "502201001", Name: `ОБЩЕСТВО С ОГРАНИЧЕННОЙ ОТВЕТСТВЕННОСТЬЮ "КОЛОМЕНСКИЙ СПОРТСНАБ"`},
					Price: 248300, Rank: 1, Winner: true, JournalNumber: "2"},
				{Party: tenderbase.Party{INN: "502209871634", Name: "Фомин Сергей Игоревич"}, Price: 251000, Rank: 2, JournalNumber: "1"},
				{Party: tenderbase.Party{Name: "Участник 3"}, Price: 262750, JournalNumber: "3"},
				{Party: tenderbase.Party{INN: "5001087342", KPP: "500101001", Name: "ООО «Спорт-Инвентарь»"}, Price: 239900, JournalNumber: "4"},
			},
			Customer: tenderbase.Party{RegNum: "03483000117", Name: `МУНИЦИПАЛЬНОЕ АВТОНОМНОЕ УЧРЕЖДЕНИЕ "СПОРТИВНАЯ ШКОЛА "ОЛИМП"`},
			URL:      "http://zakupki.gov.ru/epz/order/notice/printForm/viewXml.html?protocolId=17926544",
		}}},
		{"purchaseProtocolPAEP_one_lot.xml", []*tenderbase.Protocol{{
			ID: "e4f2a9c1-7b36-4d05-a8e2-6c19d0b3f757", PurchaseNumber: "31806154902", Law: "223",
			Type: "purchaseProtocolPAEP", Number: "31806154902-02", Version: 1, LotNumber: 1,
			ProtocolDate: mskTime(2018, 3, 12, 0, 0, 0, 0), PublishedAt: mskTime(2018, 3, 12, 15, 10, 44, 0),
			// A purchase from a single supplier: its supplier is the winner.
			Participants: []tenderbase.Participant{
				{Party: tenderbase.Party{INN: "1660271592", KPP: "166001001", Name: `ООО "Казанская бумажная компания"`},
					Price: 187632.4, Rank: 1, Winner: true, JournalNumber: "1"},
			},
			Customer: tenderbase.Party{INN: "1657023619", KPP: "165701001",
				Name: `ГОСУДАРСТВЕННОЕ АВТОНОМНОЕ УЧРЕЖДЕНИЕ ЗДРАВООХРАНЕНИЯ "РЕСПУБЛИКАНСКАЯ СТОМАТОЛОГИЧЕСКАЯ ПОЛИКЛИНИКА"`},
			URL: "http://zakupki.gov.ru/223/purchase/public/purchase/info/protocols.html?regNumber=31806154902",
		}}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			got, errs := decodeProtocols(t, filepath.Join("testdata", "protocol", tt.file))
			if len(errs) != 0 {
				t.Fatalf("rejections: %v", errs)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("records (-want +got):\n%s", diff)
			}
		})
	}
}

// twoLots223 is what the 223-FZ protocol of two lots holds: a record per
// lot, keyed by the protocol's guid and the lot's number.
func twoLots223() []*tenderbase.Protocol {
	customer := tenderbase.Party{INN: "3448017919", KPP: "344801001", OGRN: "1023404362662",
		Name:      `АКЦИОНЕРНОЕ ОБЩЕСТВО "ВОЛГОГРАДСКИЙ ЗАВОД ТЕХНИЧЕСКОГО УГЛЕРОДА"`,
		ShortName: `АО "ВЗТУ"`, Address: "400029, Волгоградская обл, г. Волгоград, ул. 40 лет ВЛКСМ, д. 57"}
	techno := tenderbase.Party{INN: "3444118306", KPP: "344401001", OGRN: "1043400339910",
		Name: `ОБЩЕСТВО С ОГРАНИЧЕННОЙ ОТВЕТСТВЕННОСТЬЮ "ТЕХНОАВИА-ВОЛГОГРАД"`}
	base := tenderbase.Protocol{
		PurchaseNumber: "32312390471", Law: "223", Type: "purchaseProtocol", Number: "32312390471-01", Version: 1,
		ProtocolDate: mskTime(2023, 5, 22, 10, 0, 0, 0), PublishedAt: mskTime(2023, 5, 22, 12, 40, 18, 0), Customer: customer,
		Attachments: []tenderbase.Attachment{{FileName: "Протокол подведения итогов ЗК 112-23.pdf",
			Description: "Протокол подведения итогов", URL: "https://zakupki.gov.ru/223/purchase/public/download/download.html?id=88120457"}},
		URL: "https://zakupki.gov.ru/223/purchase/public/purchase/protocol/ip/view-protocol.html?protocolInfoId=18841522",
	}
	lot1, lot2 := base, base
	lot1.ID, lot1.LotNumber = "5d91c2e4-8a07-4f3b-b6d2-71e0a9c35f48-1", 1
	lot1.Participants = []tenderbase.Participant{
		{Party: techno, Price: 1312500, Rank: 1, Winner: true, JournalNumber: "1"},
		// An entrepreneur's OGRNIP (15 digits) has no place in supplierInfo.
		{Party: tenderbase.Party{INN: "344346702231", Name: "Индивидуальный предприниматель Белоусов Денис Сергеевич"},
			Price: 1396000, Rank: 2, JournalNumber: "2"},
	}
	lot2.ID, lot2.LotNumber = "5d91c2e4-8a07-4f3b-b6d2-71e0a9c35f48-2", 2
	techno.OGRN = ""
	lot2.Participants = []tenderbase.Participant{{Party: techno, Price: 349800, Rank: 1, Winner: true, JournalNumber: "3"}}
	return []*tenderbase.Protocol{&lot1, &lot2}
}

// quotation223 is what the 223-FZ quotation protocol of two lots holds:
// W is the winner, S the price after the winner's, F the winner's price
// offered by another, who is not the winner; a masked participant keeps
// its label and offer only; a non-resident is named from nonResidentInfo.
func quotation223() []*tenderbase.Protocol {
	customer := tenderbase.Party{INN: "7451046713", KPP: "745101001",
		Name: `МУНИЦИПАЛЬНОЕ УНИТАРНОЕ ПРЕДПРИЯТИЕ "ЧЕЛЯБИНСКИЕ ГОРОДСКИЕ ЭЛЕКТРОСЕТИ"`}
	office := tenderbase.Party{INN: "7447259016", KPP: "744701001", Name: `ООО "УРАЛОФИСТОРГ"`}
	base := tenderbase.Protocol{
		PurchaseNumber: "31704958210", Law: "223", Type: "purchaseProtocolZK", Number: "31704958210-01", Version: 1,
		ProtocolDate: mskTime(2017, 4, 13, 10, 0, 0, 0), PublishedAt: mskTime(2017, 4, 13, 14, 22, 40, 0), Customer: customer,
		URL: "http://zakupki.gov.ru/223/purchase/public/purchase/info/protocols.html?regNumber=31704958210",
	}
	lot1, lot2 := base, base
	lot1.ID, lot1.LotNumber = "f1d83a6c-2e94-47b5-a0c8-9b6e4d7f3152-1", 1
	lot1.Participants = []tenderbase.Participant{
		{Party: tenderbase.Party{INN: "7404061530", KPP: "740401001", Name: `ООО "ТОНЕР-СЕРВИС"`}, Price: 81200, Rank: 2, JournalNumber: "1"},
		{Party: office, Price: 78450, Rank: 1, Winner: true, JournalNumber: "2"},
		{Party: tenderbase.Party{INN: "7415083327", KPP: "741501001", Name: `ООО "КОПИР-ЦЕНТР"`}, Price: 78450, JournalNumber: "3"},
		// A participant that is not a Russian resident, without a place.
		{Party: tenderbase.Party{Name: `ТОО "КАРТРИДЖ-АСТАНА"`, Address: "Казахстан, г. Нур-Султан, ул. Сарыарка, д. 31, оф. 12"},
			Price: 84900, JournalNumber: "6"},
	}
	lot2.ID, lot2.LotNumber = "f1d83a6c-2e94-47b5-a0c8-9b6e4d7f3152-2", 2
	lot2.Participants = []tenderbase.Participant{
		{Party: office, Price: 49980, Rank: 1, Winner: true, JournalNumber: "4"},
		{Party: tenderbase.Party{Name: "Участник 5"}, Price: 51200, Rank: 2, JournalNumber: "5"},
	}
	return []*tenderbase.Protocol{&lot1, &lot2}
}

// competition44 is what the legacy 44-FZ competition protocol of two lots
// in one document holds: a record per lot, keyed by the document id and
// the lot's number, each with its applications and places.
func competition44() []*tenderbase.Protocol {
	medservice := tenderbase.Party{INN: "3662098451", KPP: "366201001", Name: `ОБЩЕСТВО С ОГРАНИЧЕННОЙ ОТВЕТСТВЕННОСТЬЮ "ВОРОНЕЖМЕДСЕРВИС"`}
	base := tenderbase.Protocol{
		PurchaseNumber: "0131200001017003945", Law: "44", Type: "fcsProtocolOK2", Number: "ПРО1",
		ProtocolDate: mskTime(2017, 10, 10, 11, 0, 0, 0), PublishedAt: mskTime(2017, 10, 11, 9, 34, 52, 118),
		// The publisher is an authorized body (OA), not the customer.
		URL: "http://zakupki.gov.ru/epz/order/notice/printForm/viewXml.html?protocolId=16208817",
	}
	lot1, lot2 := base, base
	lot1.ID, lot1.LotNumber = "16208817-1", 1
	lot1.Participants = []tenderbase.Participant{
		{Party: medservice, Price: 1684000, Rank: 2, JournalNumber: "1"},
		{Party: tenderbase.Party{INN: "3664123590", KPP: "366401001", Name: `ОБЩЕСТВО С ОГРАНИЧЕННОЙ ОТВЕТСТВЕННОСТЬЮ "ЧЕРНОЗЕМЬЕ-ФАРМ"`},
			Price: 1598250.5, Rank: 1, Winner: true, JournalNumber: "2"},
	}
	lot2.ID, lot2.LotNumber = "16208817-2", 2
	lot2.Participants = []tenderbase.Participant{
		{Party: medservice, Price: 412300, Rank: 1, Winner: true, JournalNumber: "1"},
		{Party: tenderbase.Party{INN: "3665011872", KPP: "366501001", Name: "ООО «Медтехника-Черноземье»"}, JournalNumber: "3"},
	}
	return []*tenderbase.Protocol{&lot1, &lot2}
}

func TestBrokenProtocolsAreOneRejection(t *testing.T) {
	ef3, err := os.ReadFile(filepath.Join("testdata", "protocol", "fcsProtocolEF3_0145300012719000084_24418806.xml"))
	if err != nil {
		t.Fatal(err)
	}
	paep, err := os.ReadFile(filepath.Join("testdata", "protocol", "purchaseProtocolPAEP_one_lot.xml"))
	if err != nil {
		t.Fatal(err)
	}
	doc, doc223 := string(ef3), string(paep)
	tests := []struct{ name, doc, want string }{
		{"truncated.xml", doc[:len(doc)/2], "is not well-formed XML"},
		{"truncated-223.xml", doc223[:len(doc223)*3/4], "is not well-formed XML"},
		{"mismatched.xml", strings.Replace(doc, "</organizationName>", "</fullName>", 1), "is not well-formed XML"},
		{"bad-date.xml", strings.Replace(doc, "2019-07-18T10:30:00+03:00", "18.07.2019", 1), `date "18.07.2019" is neither`},
		{"bad-version-223.xml", strings.Replace(doc223, "<ns2:version>1<", "<ns2:version>один<", 1), `version "один" is not a whole number`},
		{"no-id.xml", strings.Replace(doc, "<id>24418806</id>", "", 1), "protocol has no document id"},
		{"no-number.xml", strings.Replace(doc, "<purchaseNumber>0145300012719000084</purchaseNumber>", "", 1), "protocol 24418806 has no purchase number"},
		{"empty-223.xml", `<ns2:purchaseProtocolZK xmlns:ns2="http://zakupki.gov.ru/223fz/purchase/1"><ns2:body/></ns2:purchaseProtocolZK>`, "holds no protocol data"},
	}
	for _, tt := range tests {
		recs, errs := decodeAll(t, tt.name, tt.doc)
		if len(recs) != 0 || len(errs) != 1 || !strings.Contains(errs[0].Error(), tt.want) {
			t.Errorf("%s: records %d, rejections %v; want one rejection containing %q", tt.name, len(recs), errs, tt.want)
		}
	}
}
