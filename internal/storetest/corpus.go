package storetest

import (
	"time"

	"github.com/tenderbase/tenderbase"
)

// day returns a date of the fixture calendar; every fixture record has its
// own day, so that "newest first" has one right answer.
func day(n int) time.Time {
	return time.Date(2024, time.January, 1, 9, 30, 0, 0, time.UTC).AddDate(0, 0, n)
}

// Keys of the fixture records, named so that expected answers read well.
const (
	tPaper     = "0373200041524000101" // tender: поставка бумаги, r77, 44-FZ
	tCleaning  = "0373200041524000102" // tender: уборка помещений, r77, 44-FZ
	tMedicine  = "32413000103"         // tender: лекарственные препараты, r78, 223-FZ
	tRoad      = "0148300004224000104" // tender: ремонт дороги, r50, 44-FZ
	tToys      = "32413000105"         // tender: ёлочные игрушки, r77, 223-FZ
	tSchool    = "0162300005324000106" // tender: ремонт школы, r66, 44-FZ
	tCartridge = "0372100047324000107" // tender: картриджи, r78, 44-FZ
	tOffice    = "32413000108"         // tender: закупка бумаги, r50, 223-FZ
	tSyringe   = "0373200041524000109" // tender: шприцы, r77, 44-FZ
	tGuard     = "0162300005324000110" // tender: охрана, r66, 44-FZ

	dSpec     = "doc-101-1"
	dEstimate = "doc-104-1"
	dDraft    = "doc-107-1"

	cPaper = "1770123456724000101"
	cRoad  = "2503600010424000104"

	wPlant  = "ted:2024/S 045-123456"
	wUltra  = "ted:2024/S 046-223344"
	wPaper  = "ted:2024/S 047-334455"
	wRoad   = "ocds:ua-2024-03-01-000104"
	lRoom   = "torgi-21000001-1"
	lCar    = "fedresurs-12345"
	kRoad   = "202400104001"
	kToner  = "202400107001"
	fCase   = "5001"
	fCartel = "5002"
	oKanc   = "7712345678"
	oIvanov = "500100732259"
	rRoad   = "РЖ-104-1"

	innPolyclinic = "7701234567"
	innPodolsk    = "5036000104"
)

// Corpus returns fresh copies of the fixture records, in the order the suite
// stores them: a few of every kind, Russian and English, each with its own
// date.
func Corpus() []tenderbase.Record {
	var rs []tenderbase.Record
	for _, t := range tenders() {
		rs = append(rs, t)
	}
	rs = append(rs, docs()...)
	rs = append(rs, contracts()...)
	rs = append(rs, worldTenders()...)
	rs = append(rs, lots()...)
	rs = append(rs, complaints()...)
	rs = append(rs, fasCases()...)
	rs = append(rs, orgs()...)
	return rs
}

func polyclinic() tenderbase.Party {
	return tenderbase.Party{INN: innPolyclinic, KPP: "770101001",
		Name: "ГБУЗ «Городская поликлиника № 3 Департамента здравоохранения города Москвы»"}
}

func tender(number, law string, region, d int, title string, customer tenderbase.Party, objects ...tenderbase.PurchaseObject) *tenderbase.Tender {
	t := &tenderbase.Tender{
		PurchaseNumber: number, Law: law, Version: 1, Title: title, Status: tenderbase.TenderActive,
		Customer: customer, Region: region, MaxPrice: 100000 + float64(d), Currency: "RUB",
		PublishedAt: day(d), URL: "https://zakupki.gov.ru/epz/order/notice/view?regNumber=" + number,
	}
	if len(objects) > 0 {
		t.Lots = []tenderbase.TenderLot{{Number: 1, Title: "Лот № 1", Objects: objects}}
	}
	return t
}

func tenders() []*tenderbase.Tender {
	ts := []*tenderbase.Tender{
		tender(tPaper, tenderbase.Law44, 77, 40, "Поставка бумаги для офисной техники", polyclinic(),
			tenderbase.PurchaseObject{OKPD2Code: "17.12.14.110", OKPD2Name: "Бумага для печати", Name: "Бумага А4 белая", Quantity: 500, Unit: "пачка"}),
		tender(tCleaning, tenderbase.Law44, 77, 41, "Оказание услуг по уборке помещений",
			tenderbase.Party{INN: "7704567890", Name: "ГБУ «Жилищник района Арбат»"},
			tenderbase.PurchaseObject{OKPD2Code: "81.21.10.000", Name: "Услуги по уборке помещений"}),
		tender(tMedicine, tenderbase.Law223, 78, 42, "Поставку лекарственных препаратов для нужд медико-санитарной части",
			tenderbase.Party{INN: "7810000103", Name: "ФГУП «Медико-санитарная часть № 5»"},
			tenderbase.PurchaseObject{OKPD2Code: "21.20.10.110", OKPD2Name: "Препараты лекарственные", Name: "Парацетамол, таблетки 500 мг"}),
		tender(tRoad, tenderbase.Law44, 50, 43, "Ремонт автомобильной дороги Подольск — Климовск",
			tenderbase.Party{INN: innPodolsk, Name: "Администрация Городского округа Подольск"},
			tenderbase.PurchaseObject{OKPD2Code: "42.11.20.000", Name: "Работы по ремонту автомобильных дорог"}),
		tender(tToys, tenderbase.Law223, 77, 44, "Поставки ёлочных игрушек и гирлянд к Новому году",
			tenderbase.Party{INN: "7705035012", Name: "ПАО «Мосэнерго»"}),
		tender(tSchool, tenderbase.Law44, 66, 45, "Капитальный ремонт здания школы № 12",
			tenderbase.Party{INN: "6661000106", Name: "МКУ «Управление образования Екатеринбурга»"}),
		tender(tCartridge, tenderbase.Law44, 78, 46, "Поставка картриджей для принтеров в соответствии с 44-ФЗ",
			tenderbase.Party{INN: "7801000107", Name: "СПб ГКУ «Городской мониторинговый центр»"}),
		tender(tOffice, tenderbase.Law223, 50, 47, "Закупка бумаги офисной у единственного поставщика",
			tenderbase.Party{INN: "5001000108", Name: "АО «Мособлгаз»"}),
		tender(tSyringe, tenderbase.Law44, 77, 48, "Поставка медицинских изделий (шприцы одноразовые)", polyclinic()),
		tender(tGuard, tenderbase.Law44, 66, 49, "Оказание услуг по охране объектов",
			tenderbase.Party{INN: "6661000110", Name: "ГАУЗ СО «Городская больница № 40»"}),
	}
	ts[6].Lots = []tenderbase.TenderLot{{Number: 1, Title: "Поставки партиями по заявкам заказчика",
		Objects: []tenderbase.PurchaseObject{{OKPD2Code: "20.59.12.120", Name: "Картридж лазерный"}}}}
	ts[1].PlacingMethod = "Открытый конкурс в электронной форме"
	ts[3].PlacingMethod = "Электронный аукцион"
	ts[3].Status = tenderbase.TenderCompleted
	ts[3].Participants = []tenderbase.Participant{{Party: tenderbase.Party{INN: "5040012345", Name: "ООО «ДорСтрой»"}, Price: 99000, Rank: 1, Winner: true}}
	return ts
}

func docs() []tenderbase.Record {
	return []tenderbase.Record{
		&tenderbase.Doc{ID: dSpec, PurchaseNumber: tPaper, Region: 77, FileName: "Техническое задание.docx",
			Description: "Техническое задание на поставку бумаги", Text: "Бумага формата А4, плотность 80 г/м², белизна 146 %",
			Customer: polyclinic(), PublishedAt: day(50)},
		&tenderbase.Doc{ID: dEstimate, PurchaseNumber: tRoad, Region: 50, FileName: "Смета на ремонт дороги.xlsx",
			Description: "Локальный сметный расчёт", Text: "Ремонт асфальтобетонного покрытия проезжей части", PublishedAt: day(51)},
		&tenderbase.Doc{ID: dDraft, PurchaseNumber: tCartridge, Region: 78, FileName: "Проект контракта.pdf",
			Description: "Проект государственного контракта", Text: "Поставщик обязуется поставить картриджи в срок", PublishedAt: day(52)},
	}
}

func contracts() []tenderbase.Record {
	return []tenderbase.Record{
		&tenderbase.Contract{RegNumber: cPaper, Law: tenderbase.Law44, Version: 1, PurchaseNumber: tPaper, Number: "15/24",
			Subject: "Поставка бумаги для офисной техники", Customer: polyclinic(),
			Suppliers: []tenderbase.Party{{INN: oKanc, Name: "ООО «Канцлидер»"}}, Region: 77, Price: 99500, Currency: "RUB",
			SignedAt: day(60), Objects: []tenderbase.PurchaseObject{{OKPD2Code: "17.12.14.110", Name: "Бумага А4"}}},
		&tenderbase.Contract{RegNumber: cRoad, Law: tenderbase.Law44, Version: 2, PurchaseNumber: tRoad,
			Subject:   "Выполнение работ по ремонту автомобильной дороги",
			Customer:  tenderbase.Party{INN: innPodolsk, Name: "Администрация Городского округа Подольск"},
			Suppliers: []tenderbase.Party{{INN: oIvanov, Name: "ИП Иванов Пётр Сергеевич"}}, Region: 50, Price: 4500000,
			PublishedAt: day(61)},
	}
}

func worldTenders() []tenderbase.Record {
	return []tenderbase.Record{
		&tenderbase.WorldTender{ID: wPlant, Source: "ted", Country: 276, Title: "Construction of a wastewater treatment plant",
			Description: "Design and construction works for the municipal wastewater treatment plant",
			Buyer:       tenderbase.Party{Name: "Stadtwerke München"}, CPVCodes: []string{"45252000"}, PublishedAt: day(70), Language: "en"},
		&tenderbase.WorldTender{ID: wUltra, Source: "ted", Country: 250, Title: "Supply of medical equipment",
			Description: "Supply and delivery of ultrasound scanners",
			Buyer:       tenderbase.Party{Name: "Assistance Publique – Hôpitaux de Paris"}, CPVCodes: []string{"33100000"}, PublishedAt: day(71)},
		&tenderbase.WorldTender{ID: wPaper, Source: "ted", Country: 616, Title: "Supplies of office paper",
			Buyer: tenderbase.Party{Name: "Uniwersytet Warszawski"}, CPVCodes: []string{"30197630"}, PublishedAt: day(72)},
		&tenderbase.WorldTender{ID: wRoad, Source: "ocds", Country: 804, Title: "Road constructing and repair works",
			Buyer: tenderbase.Party{Name: "Kyiv City State Administration"}, CPVCodes: []string{"45233142"}, PublishedAt: day(73)},
	}
}

func lots() []tenderbase.Record {
	return []tenderbase.Record{
		&tenderbase.Lot{ID: lRoom, Source: "torgi.gov.ru", NoticeNumber: "21000001230000000001", LotNumber: 1,
			Title: "Нежилое помещение площадью 120,5 кв. м", Description: "Аренда нежилого помещения на первом этаже жилого дома",
			Category: "Нежилые помещения", BiddingType: "178FZ", Region: 77, StartPrice: 1200000, PublishedAt: day(80)},
		&tenderbase.Lot{ID: lCar, Source: "fedresurs", Title: "Автомобиль легковой Лада Веста, 2019 г. в.",
			Description: "Продажа имущества должника на торгах", BiddingType: "bankruptcy", Region: 50,
			Debtor: tenderbase.Party{INN: "772800123456", Name: "Сидоров Алексей Иванович"}, PublishedAt: day(81)},
	}
}

func complaints() []tenderbase.Record {
	return []tenderbase.Record{
		&tenderbase.Complaint{ComplaintNumber: kRoad, ComplaintID: "3100001", VersionNumber: 1, PurchaseNumber: tRoad,
			PurchaseObjectInfo: "Ремонт автомобильной дороги Подольск — Климовск", SupplierName: "ООО «ДорСтрой»",
			SupplierINN: "5040012345", CustomerINN: innPodolsk, RegistrationFullName: "Московское областное УФАС России",
			Text: "Жалоба на положения документации о закупке: неправомерное требование о наличии опыта", DatePubl: day(90)},
		&tenderbase.Complaint{ComplaintNumber: kToner, ComplaintID: "3100002", VersionNumber: 1, PurchaseNumber: tCartridge,
			PurchaseObjectInfo: "Поставка картриджей для принтеров", SupplierName: "ООО «Канцлидер»",
			SupplierINN: oKanc, CustomerINN: "7801000107", RegistrationFullName: "Санкт-Петербургское УФАС России",
			Text: "Жалоба на действия комиссии при рассмотрении заявок", ResultFAS: "Обоснована", DatePubl: day(91)},
	}
}

func fasCases() []tenderbase.Record {
	return []tenderbase.Record{
		&tenderbase.FASCase{ID: 5001, RemoteID: "r-5001", Name: "Дело № 077/07/00-1234/2024 о нарушении законодательства о контрактной системе",
			Delo: "077/07/00-1234/2024", Upr: "Московское УФАС России", Text: "Признать жалобу ООО «Канцлидер» обоснованной",
			OrgXML: "<orgs><org><name>ООО «Канцлидер»</name><inn>7712345678</inn></org></orgs>", CaseDate: day(100)},
		&tenderbase.FASCase{ID: 5002, Name: "Дело о нарушении антимонопольного законодательства: картельный сговор на торгах",
			Upr: "Свердловское УФАС России", Text: "Выдать предписание",
			OrgXML: "<org><name>МКУ «Управление образования Екатеринбурга»</name><inn>6661000106</inn></org>", CaseDate: day(101)},
	}
}

func orgs() []tenderbase.Record {
	return []tenderbase.Record{
		&tenderbase.Org{INN: oKanc, KPP: "771201001", OGRN: "1027700123456", Name: "ООО «Канцлидер»", Region: 77, UpdatedAt: day(110)},
		&tenderbase.Org{INN: oIvanov, OGRN: "304500100123456", Name: "ИП Иванов Пётр Сергеевич", Region: 50, UpdatedAt: day(111)},
		&tenderbase.ComplaintResult{CheckResultNumber: rRoad, ComplaintNumber: kRoad, ComplaintID: "3100001",
			PublishDate: day(120), OwnerINN: innPodolsk, PurchaseNumber: tRoad,
			DecisionText: "Признать жалобу необоснованной", ComplaintResult: "Необоснована"},
	}
}
