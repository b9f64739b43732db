package demo

import (
	"fmt"
	"time"

	"github.com/tenderbase/tenderbase"
)

// lotKinds are the property auctions sell: category, a title, a
// description and a start price range in roubles.
var lotKinds = []struct {
	Category    string
	Title       func(s *source, r region) string
	Description string
	Price       [2]int
}{
	{"Недвижимое имущество", func(s *source, r region) string {
		return fmt.Sprintf("Нежилое помещение площадью %d,%d кв. м, кадастровый номер %s", s.between(18, 640), s.intn(10), cadastral(s, r))
	}, "Помещение расположено на первом этаже многоквартирного жилого дома, отдельный вход, электроснабжение, водоснабжение.", [2]int{2_400_000, 38_000_000}},
	{"Транспортные средства", func(s *source, r region) string {
		return fmt.Sprintf("Легковой автомобиль Škoda Octavia, %d г. в., пробег %d тыс. км, VIN XW8%s", s.between(2012, 2021), s.between(40, 260), s.digits(14))
	}, "Транспортное средство на ходу, требуется замена тормозных колодок; ПТС оригинал.", [2]int{650_000, 1_900_000}},
	{"Земельные участки", func(s *source, r region) string {
		return fmt.Sprintf("Земельный участок площадью %d кв. м, кадастровый номер %s, категория земель: земли населённых пунктов", s.between(6, 120)*100, cadastral(s, r))
	}, "Вид разрешённого использования: для индивидуального жилищного строительства. Ограничения (обременения) не зарегистрированы.", [2]int{300_000, 12_000_000}},
	{"Дебиторская задолженность", func(s *source, r region) string {
		return fmt.Sprintf("Право требования дебиторской задолженности к %d контрагентам на сумму %d тыс. руб.", s.between(2, 40), s.between(300, 90_000))
	}, "Права требования подтверждены вступившими в законную силу судебными актами.", [2]int{120_000, 9_000_000}},
	{"Оборудование", func(s *source, r region) string {
		return fmt.Sprintf("Оборудование деревообрабатывающее: станки, %d единиц, %d-%d г. в.", s.between(3, 24), s.between(2005, 2012), s.between(2013, 2020))
	}, "Оборудование находится на производственной площадке должника, осмотр по предварительной записи.", [2]int{400_000, 6_500_000}},
}

// buildLots makes n lots: state property sold on torgi.gov.ru (privatization
// and seized property) and bankruptcy estates announced on fedresurs.
func (b *builder) buildLots(n int) {
	for i := range n {
		b.lots = append(b.lots, b.lot(i, n))
	}
}

func (b *builder) lot(i, n int) *tenderbase.Lot {
	s := b.s
	r := regions[s.intn(len(regions))]
	k := lotKinds[i%len(lotKinds)]
	at := s.dayAt(i, n)
	price := float64(s.between(k.Price[0]/1000, k.Price[1]/1000) * 1000)
	l := &tenderbase.Lot{
		LotNumber:   1 + s.intn(3),
		Title:       k.Title(s, r),
		Description: k.Description,
		Category:    k.Category,
		Region:      r.Code,
		StartPrice:  price,
		Deposit:     money(price * 0.2),
		PriceStep:   money(price * 0.05),
		Currency:    "RUB",
		PublishedAt: at,
		BiddingEnd:  time.Date(at.Year(), at.Month(), at.Day()+s.between(20, 30), 18, 0, 0, 0, msk),
	}
	l.AuctionDate = time.Date(l.BiddingEnd.Year(), l.BiddingEnd.Month(), l.BiddingEnd.Day()+3, 10, 0, 0, 0, msk)
	l.Status = lotStatus(s, l.AuctionDate)
	if i%3 == 2 {
		b.bankruptcyLot(l, r)
	} else {
		b.torgiLot(l, r, i)
	}
	l.ID = fmt.Sprintf("%s_%d", l.NoticeNumber, l.LotNumber)
	return l
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
// of seized property under 229-FZ.
func (b *builder) torgiLot(l *tenderbase.Lot, r region, i int) {
	s := b.s
	l.Source = "torgi.gov.ru"
	l.NoticeNumber = "2" + pad(l.PublishedAt.Year()%100, 2) + "00" + s.digits(15)
	l.BiddingForm = "Электронный аукцион"
	l.BiddingType = "178FZ"
	name := "Межрегиональное территориальное управление Федерального агентства по управлению государственным имуществом " + r.FASTo
	short := "МТУ Росимущества " + r.FASTo
	if i%2 == 1 {
		l.BiddingType = "229FZ"
		name = "Территориальное управление Федерального агентства по управлению государственным имуществом " + r.FASTo + " (реализация арестованного имущества)"
	}
	l.Organizer = b.organizer(r, name, short).Party
	l.URL = "https://torgi.gov.ru/new/public/lots/lot/" + l.NoticeNumber + "_" + pad(l.LotNumber, 1) + "/(lotInfo:info)"
}

// bankruptcyLot makes l a sale of a bankrupt's estate by its manager.
func (b *builder) bankruptcyLot(l *tenderbase.Lot, r region) {
	s := b.s
	l.Source = "fedresurs"
	l.NoticeNumber = pad(s.between(10_000_000, 19_999_999), 8)
	l.BiddingType = "bankruptcy"
	l.BiddingForm = pick(s, []string{"Открытый аукцион", "Публичное предложение"})
	manager := s.person()
	org := s.personParty(r, "Арбитражный управляющий "+manager, initials(manager))
	l.Organizer = org.Party
	debtor := s.legalParty(r, fmt.Sprintf("Общество с ограниченной ответственностью «%s»", pick(s, debtorNames)), "")
	debtor.ShortName = "ООО " + debtor.Name[len("Общество с ограниченной ответственностью "):]
	l.Debtor = debtor.Party
	l.URL = "https://fedresurs.ru/bankruptmessages/" + l.NoticeNumber
}

var debtorNames = []string{"СтройИнвестГрупп", "Лесопромышленная компания «Северный лес»", "ТоргСнаб", "АгроХолдинг «Заря»", "Мебельная фабрика «Уют»", "ТрансЛогистик", "ПромМонтаж-7"}

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
