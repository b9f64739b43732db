package demo

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/tenderbase/tenderbase"
)

// lotKind is a kind of property the auctions sell: how the two publishers
// class it, a title with the characteristics a lot card lists, a
// description and a start price range in roubles.
type lotKind struct {
	Torgi      category // torgi.gov.ru's category
	Classifier category // fedresurs' AuctionLotClassifier
	Title      func(s *source, r region) (string, []tenderbase.LotProperty)
	// Located tells whether the property has an address of its own.
	Located     bool
	Description string
	Price       [2]int
}

// category is a class of property as a publisher codes it.
type category struct{ Code, Name string }

// squareMetre is the unit of an area on a lot card.
const squareMetre = "м^2"

var lotKinds = []lotKind{
	{category{"11", "Нежилые помещения"}, category{"0101014", "Нежилые здания и помещения"}, func(s *source, r region) (string, []tenderbase.LotProperty) {
		whole, tenth, cad := s.between(18, 640), s.intn(10), cadastral(s, r)
		area := strconv.FormatFloat(float64(whole)+float64(tenth)/10, 'f', -1, 64)
		return fmt.Sprintf("Нежилое помещение площадью %d,%d кв. м, кадастровый номер %s", whole, tenth, cad), []tenderbase.LotProperty{
			{Code: "totalAreaRealty", Name: "Общая площадь", Value: area, Unit: squareMetre},
			{Code: "cadastralNumberRealty", Name: "Кадастровый номер", Value: cad},
		}
	}, true, "Помещение расположено на первом этаже многоквартирного жилого дома, отдельный вход, электроснабжение, водоснабжение.", [2]int{2_400_000, 38_000_000}},
	{category{"5", "Легковые автомобили"}, category{"0106008", "Автомобили"}, func(s *source, r region) (string, []tenderbase.LotProperty) {
		return fmt.Sprintf("Легковой автомобиль Škoda Octavia, %d г. в., пробег %d тыс. км, VIN XW8%s", s.between(2012, 2021), s.between(40, 260), s.digits(14)), nil
	}, true, "Транспортное средство на ходу, требуется замена тормозных колодок; ПТС оригинал.", [2]int{650_000, 1_900_000}},
	{category{"301", "Земли населенных пунктов"}, category{"0101001", "Земельные участки"}, func(s *source, r region) (string, []tenderbase.LotProperty) {
		area, cad := s.between(6, 120)*100, cadastral(s, r)
		return fmt.Sprintf("Земельный участок площадью %d кв. м, кадастровый номер %s, категория земель: земли населённых пунктов", area, cad), []tenderbase.LotProperty{
			{Code: "CadastralNumber", Name: "Кадастровый номер земельного участка", Value: cad},
			{Code: "SquareZU", Name: "Площадь земельного участка", Value: strconv.Itoa(area), Unit: squareMetre},
		}
	}, true, "Вид разрешённого использования: для индивидуального жилищного строительства. Ограничения (обременения) не зарегистрированы.", [2]int{300_000, 12_000_000}},
	{category{"101", "Права требования"}, category{"0110001", "Дебиторская задолженность"}, func(s *source, r region) (string, []tenderbase.LotProperty) {
		return fmt.Sprintf("Право требования дебиторской задолженности к %d контрагентам на сумму %d тыс. руб.", s.between(2, 40), s.between(300, 90_000)), nil
	}, false, "Права требования подтверждены вступившими в законную силу судебными актами.", [2]int{120_000, 9_000_000}},
	{category{"7", "Оборудование"}, category{"0104001", "Производственное оборудование"}, func(s *source, r region) (string, []tenderbase.LotProperty) {
		return fmt.Sprintf("Оборудование деревообрабатывающее: станки, %d единиц, %d-%d г. в.", s.between(3, 24), s.between(2005, 2012), s.between(2013, 2020)), nil
	}, true, "Оборудование находится на производственной площадке должника, осмотр по предварительной записи.", [2]int{400_000, 6_500_000}},
}

// lotSeed seeds the details of the lots that only their source documents
// carry (addresses, files, winners...). They are drawn from a source of
// their own, so that the draws of the rest of the demo stay as they were.
const lotSeed = Seed + 17

// buildLots makes n lots as the importers read them from their documents:
// state property sold on torgi.gov.ru (privatization and seized property),
// read from its open-data notice and its lot card, and bankruptcy estates
// announced on fedresurs, read from the manager's messages.
func (b *builder) buildLots(n int) {
	x := newSource(lotSeed)
	for i := range n {
		b.lots = append(b.lots, b.lot(i, n, x))
	}
	b.cancelAuction()
}

// cancelAuction cancels the first bankruptcy auction that failed: its
// manager published a CancelAuctionTradeResult three days before the
// auction, instead of a result. The lot is as a store holds it once the
// cancellation is applied (tenderbase.ApplyLotEvents).
func (b *builder) cancelAuction() {
	for _, l := range b.lots {
		if l.Source != tenderbase.LotSourceFedresurs || l.Status != tenderbase.TenderFailed {
			continue
		}
		day := l.AuctionDate.AddDate(0, 0, -3)
		e := &tenderbase.LotEvent{
			Source: tenderbase.LotSourceFedresurs, Type: tenderbase.LotEventCancellation, Document: "CancelAuctionTradeResult",
			Number:      strconv.Itoa(atoi(l.NoticeNumber) + 7300),
			Message:     l.NoticeNumber,
			PublishedAt: time.Date(day.Year(), day.Month(), day.Day(), 11, 20, 0, 0, msk),
			Reason:      "Торги отменены: определением арбитражного суда утверждено мировое соглашение.",
		}
		e.ID, e.URL = "efrsb-"+e.Number, messageURL(e.Number)
		l.Result, l.SourceStatus, l.Status, l.Updated = nil, "", tenderbase.TenderActive, time.Time{}
		if c, ok := auctionChange(l); ok {
			l.Updated = c.Published
		}
		cancelled, _ := tenderbase.ApplyLotEvents(l, []*tenderbase.LotEvent{e})
		*l = *cancelled
		b.lotEvents = append(b.lotEvents, e)
		return
	}
}

// lot makes lot i of n; s draws what the demo always drew for a lot, x the
// details of its documents.
func (b *builder) lot(i, n int, x *source) *tenderbase.Lot {
	s := b.s
	r := regions[s.intn(len(regions))]
	k := lotKinds[i%len(lotKinds)]
	at := s.dayAt(i, n)
	price := float64(s.between(k.Price[0]/1000, k.Price[1]/1000) * 1000)
	s.intn(3) // a lot number once; every lot is now its notice's only one
	title, props := k.Title(s, r)
	l := &tenderbase.Lot{
		LotNumber:    1,
		Title:        title,
		Region:       r.Code,
		StartPrice:   price,
		Currency:     "RUB",
		PublishedAt:  at,
		BiddingStart: time.Date(at.Year(), at.Month(), at.Day()+1, 9, 0, 0, 0, msk),
		BiddingEnd:   time.Date(at.Year(), at.Month(), at.Day()+s.between(20, 30), 18, 0, 0, 0, msk),
	}
	l.AuctionDate = time.Date(l.BiddingEnd.Year(), l.BiddingEnd.Month(), l.BiddingEnd.Day()+3, 10, 0, 0, 0, msk)
	l.Status = lotStatus(s, l.AuctionDate)
	if i >= n-runningLots {
		putOff(l, n-i)
	}
	if i%3 == 2 {
		b.bankruptcyLot(l, r, k, x)
	} else {
		b.torgiLot(l, r, k, props, i, x)
	}
	return l
}

// runningLots is how many of the newest lots are still running on the
// demo's last day.
const runningLots = 4

// putOff moves the dates of l to the demo's last weeks, its announcement
// three weeks and more before the last day, so that its applications have
// closed and its auction is yet to come: the demo's newest lots are
// running, and their dates stay within the demo's period.
func putOff(l *tenderbase.Lot, k int) {
	day := lastDay.AddDate(0, 0, -20-3*k)
	for day.Weekday() == time.Saturday || day.Weekday() == time.Sunday {
		day = day.AddDate(0, 0, -1)
	}
	at := l.PublishedAt
	l.PublishedAt = time.Date(day.Year(), day.Month(), day.Day(), at.Hour(), at.Minute(), 0, 0, msk)
	l.BiddingStart = day.AddDate(0, 0, 1).Add(9 * time.Hour)
	l.BiddingEnd = lastDay.AddDate(0, 0, -3+k%2).Add(18 * time.Hour)
	l.AuctionDate = time.Date(l.BiddingEnd.Year(), l.BiddingEnd.Month(), l.BiddingEnd.Day()+3, 10, 0, 0, 0, msk)
	l.Status = tenderbase.TenderActive
}

func lotStatus(s *source, auction time.Time) string {
	switch {
	case auction.After(lastDay):
		return tenderbase.TenderActive
	case s.chance(0.3):
		return tenderbase.TenderFailed
	}
	return tenderbase.TenderCompleted
}

// cadastral returns a cadastral number: district, quarter, parcel.
func cadastral(s *source, r region) string {
	return fmt.Sprintf("%s:%02d:%07d:%d", pad(r.Code, 2), s.between(1, 40), s.between(1, 9999999), s.between(10, 9999))
}

// torgiLot makes l a sale of state property under 178-FZ (privatization) or
// of seized property under 229-FZ, as its notice and lot card give it.
func (b *builder) torgiLot(l *tenderbase.Lot, r region, k lotKind, props []tenderbase.LotProperty, i int, x *source) {
	s := b.s
	l.Source = tenderbase.LotSourceTorgi
	l.NoticeNumber = "2" + pad(l.PublishedAt.Year()%100, 2) + "00" + s.digits(15)
	l.ID = l.NoticeNumber + "_" + strconv.Itoa(l.LotNumber)
	l.Description = k.Description
	l.Category, l.CategoryCode = k.Torgi.Name, k.Torgi.Code
	l.BiddingForm = "Электронный аукцион"
	l.BiddingType = "178FZ"
	name := "Межрегиональное территориальное управление Федерального агентства по управлению государственным имуществом " + r.FASTo
	short := "МТУ Росимущества " + r.FASTo
	if i%2 == 1 {
		l.BiddingType = "229FZ"
		name = "Территориальное управление Федерального агентства по управлению государственным имуществом " + r.FASTo + " (реализация арестованного имущества)"
		l.Debtor.Name = initials(x.person()) // the owner, named in words only
	}
	l.Organizer = torgiOrganizer(b.organizer(r, name, short))
	if k.Located {
		l.Address = x.address(r)
	}
	l.Deposit, l.PriceStep = money(l.StartPrice*0.2), money(l.StartPrice*0.05)
	l.Platform = pick(x, torgiPlatforms)
	l.Properties = props
	l.Attachments = torgiFiles(l, x)
	l.URL = "https://torgi.gov.ru/new/public/lots/lot/" + l.ID
	switch l.Status {
	case tenderbase.TenderActive:
		l.SourceStatus = "APPLICATIONS_SUBMISSION"
		if !l.BiddingEnd.After(lastDay) {
			l.SourceStatus = "DETERMINING_WINNER"
		}
	case tenderbase.TenderCompleted:
		l.SourceStatus = "SUCCEED"
		l.Result = &tenderbase.LotResult{Outcome: tenderbase.LotSold, Price: l.StartPrice + float64(x.between(1, 12))*l.PriceStep}
	case tenderbase.TenderFailed:
		l.SourceStatus = "FAILED"
		l.Result = &tenderbase.LotResult{Outcome: tenderbase.LotFailed}
	}
}

// torgiPlatforms are the codes of the electronic platforms torgi.gov.ru
// names (etpCode).
var torgiPlatforms = []string{"ETP_RTS", "ETP_MMVB"}

// torgiOrganizer returns the organizer as an open-data notice names it:
// its registry numbers, its legal address and a contact, but no short name.
func torgiOrganizer(p *party) tenderbase.Party {
	o := tenderbase.Party{INN: p.INN, KPP: p.KPP, OGRN: p.OGRN, Name: p.Name, Address: p.Address}
	o.Contact = tenderbase.Contact{Person: p.Person, Phone: p.Phone, Email: email(p, "torgi")}
	return o
}

// torgiFiles returns the files of a lot card: a photo of the lot, when it
// has something to photograph, and the notice.
func torgiFiles(l *tenderbase.Lot, x *source) []tenderbase.Attachment {
	var files []tenderbase.Attachment
	if l.Address != "" {
		files = append(files, tenderbase.Attachment{FileName: "Фото.jpeg", URL: torgiFileStore + strings.ToLower(x.hex(24)), Size: int64(x.between(40_000, 900_000))})
	}
	notice := tenderbase.Attachment{FileName: "Извещение " + l.PublishedAt.Format("02-01-06") + ".pdf", Description: torgiNoticeFile,
		URL: torgiFileStore + strings.ToLower(x.hex(24)), Size: int64(x.between(200_000, 2_000_000))}
	return append(files, notice)
}

// bankruptcyLot makes l a sale of a bankrupt's estate by its manager, as
// the manager's Auction message announces it and, once the auction has
// passed, a TradeResult message reports it.
func (b *builder) bankruptcyLot(l *tenderbase.Lot, r region, k lotKind, x *source) {
	s := b.s
	l.Source = tenderbase.LotSourceFedresurs
	l.NoticeNumber = pad(s.between(10_000_000, 19_999_999), 8)
	l.ID = "efrsb-" + l.NoticeNumber + "_" + strconv.Itoa(l.LotNumber)
	l.BiddingType = "bankruptcy"
	l.BiddingForm = pick(s, []string{"Открытый аукцион", "Публичное предложение"})
	manager := s.person()
	au := s.personParty(r, "Арбитражный управляющий "+manager, initials(manager))
	l.Manager = tenderbase.Party{INN: au.INN, Name: manager, Address: au.Address}
	l.Manager.Contact.Email = email(au, "au")
	debtor := s.legalParty(r, fmt.Sprintf("Общество с ограниченной ответственностью «%s»", pick(s, debtorNames)), "")
	l.Debtor = tenderbase.Party{INN: debtor.INN, OGRN: debtor.OGRN, Name: debtor.Name, Address: debtor.Address}
	// A message gives a description only; its first words title the lot.
	l.Description = strings.TrimSuffix(l.Title, ".") + ". " + k.Description
	l.Title = l.Description
	l.Category, l.CategoryCode = k.Classifier.Name, k.Classifier.Code
	l.CaseNumber = fmt.Sprintf("А%s-%d/%d", pad(r.Code, 2), x.between(1000, 39999), l.PublishedAt.Year()-x.between(1, 2))
	l.Platform = pick(x, bankruptcyPlatforms)
	l.Deposit = money(l.StartPrice * float64(pick(x, []int{10, 20})) / 100)
	if l.BiddingForm == "Открытый аукцион" {
		l.PriceStep = money(l.StartPrice * float64(pick(x, []int{5, 10})) / 100)
	}
	l.URL, l.TermsAt = messageURL(l.NoticeNumber), l.PublishedAt
	if c, ok := auctionChange(l); ok {
		l.Updated, l.URL, l.TermsAt = c.Published, messageURL(c.Number), c.Published
	}
	if l.Status != tenderbase.TenderActive {
		tradeResult(l, r, x)
	}
}

var (
	debtorNames         = []string{"СтройИнвестГрупп", "Лесопромышленная компания «Северный лес»", "ТоргСнаб", "АгроХолдинг «Заря»", "Мебельная фабрика «Уют»", "ТрансЛогистик", "ПромМонтаж-7"}
	bankruptcyPlatforms = []string{"Российский аукционный дом", "Сбербанк-АСТ", "Центр дистанционных торгов", "Фабрикант"}
)

// tradeResult gives l the result its manager's TradeResult message reports,
// published on the day of the auction or a few days later: the lot failed,
// or was sold to the winner or to the only participant.
func tradeResult(l *tenderbase.Lot, r region, x *source) {
	day := l.AuctionDate.AddDate(0, 0, x.intn(4))
	for day.After(lastDay) {
		day = day.AddDate(0, 0, -1)
	}
	published := time.Date(day.Year(), day.Month(), day.Day(), x.between(15, 19), x.intn(60), 0, 0, msk)
	number := strconv.Itoa(atoi(l.NoticeNumber) + int(published.Sub(l.PublishedAt).Hours()/24)*1900 + x.between(1, 999))
	res := &tenderbase.LotResult{PublishedAt: published, Document: "TradeResult", Message: number}
	switch {
	case l.Status == tenderbase.TenderFailed:
		l.SourceStatus, res.Outcome = "TradeFailed", tenderbase.LotFailed
		res.Reason = pick(x, []string{"Не поступило ни одной заявки", "Ни один из участников не допущен к торгам"})
	case x.chance(0.3):
		l.SourceStatus, res.Outcome, res.Price = "TradeFailedSoldToTheOnlyParticipant", tenderbase.LotSold, l.StartPrice
		res.Reason = "Допущен единственный участник, договор заключается с ним по начальной цене"
	default:
		l.SourceStatus, res.Outcome = "TradeSuccessed", tenderbase.LotSold
		res.Price = l.StartPrice + float64(x.between(1, 8))*l.PriceStep
		if l.PriceStep == 0 { // a public offer sells below its start price
			res.Price = money(l.StartPrice * float64(100-10*x.between(1, 5)) / 100)
		}
	}
	if res.Outcome == tenderbase.LotSold {
		w := x.personParty(r, "", "")
		res.Winner = tenderbase.Party{INN: w.INN, Name: x.person(), Address: w.Address}
	}
	l.Result, l.Updated = res, published
}

// atoi reads a number the demo wrote.
func atoi(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		panic(err) // the demo's numbers are digits
	}
	return n
}

// organizer returns the one organization of region r with the name, so that
// an office selling several lots has one INN.
func (b *builder) organizer(r region, name, short string) *party {
	if p := b.organizers[name]; p != nil {
		return p
	}
	p := b.s.legalParty(r, name, short)
	b.organizers[name] = p
	return p
}
