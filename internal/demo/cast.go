package demo

import (
	"fmt"
	"strings"
	"time"

	"github.com/tenderbase/tenderbase"
)

// msk is Moscow time, the zone EIS publishes in.
var msk = time.FixedZone("MSK", 3*60*60)

// Dates of the demo data lie in [firstDay, lastDay]; the service's tests may
// take "now" as 2026-11-01, so nothing lies after it.
var (
	firstDay = time.Date(2023, 1, 9, 0, 0, 0, 0, msk)
	lastDay  = time.Date(2026, 10, 30, 0, 0, 0, 0, msk)
)

// party is an organization of the demo world with what the records need to
// say about it beyond tenderbase.Party.
type party struct {
	tenderbase.Party
	Region     region
	Sector     string
	Law        string
	OKVED      string
	Head       string
	Person     string // contact person in notices
	Phone      string
	Email      string
	Registered time.Time
	Individual bool
}

// taxOffice returns a four-digit tax office code in the region.
func (s *source) taxOffice(r region) string {
	return pad(r.Code, 2) + pad(s.between(1, 36), 2)
}

// legalParty returns an organization of region r with valid registry numbers.
func (s *source) legalParty(r region, name, short string) *party {
	office := s.taxOffice(r)
	reg := time.Date(s.between(1996, 2019), time.Month(s.between(1, 12)), s.between(1, 28), 0, 0, 0, 0, msk)
	p := &party{Region: r, Registered: reg}
	p.INN = legalINN(office, s.digits(5))
	p.KPP = office + "01001"
	p.OGRN = ogrn(false, reg.Year(), pad(r.Code, 2), s.digits(7))
	p.Name, p.ShortName = name, short
	p.Address = s.address(r)
	p.Head = s.person()
	p.Person = s.person()
	p.Phone = s.phone(r)
	return p
}

// personParty returns an individual entrepreneur; its name is its owner's.
func (s *source) personParty(r region, name, short string) *party {
	office := s.taxOffice(r)
	reg := time.Date(s.between(2005, 2020), time.Month(s.between(1, 12)), s.between(1, 28), 0, 0, 0, 0, msk)
	p := &party{Region: r, Registered: reg, Individual: true}
	p.INN = personINN(office, s.digits(6))
	p.OGRN = ogrn(true, reg.Year(), pad(r.Code, 2), s.digits(9))
	p.Name, p.ShortName = name, short
	p.Address = s.address(r)
	p.Head = strings.TrimPrefix(name, "Индивидуальный предприниматель ")
	p.Person = p.Head
	p.Phone = s.phone(r)
	return p
}

func (s *source) address(r region) string {
	postal := r.Postal + s.digits(6-len(r.Postal))
	return fmt.Sprintf("%s, г. %s, %s, д. %d", postal, r.City, pick(s, r.Streets), s.between(1, 120))
}

func (s *source) phone(r region) string {
	rest := s.digits(10 - len(r.Phone))
	return fmt.Sprintf("+7 (%s) %s-%s-%s", r.Phone, rest[:len(rest)-4], rest[len(rest)-4:len(rest)-2], rest[len(rest)-2:])
}

// person returns a full name: surname, first name, patronymic.
func (s *source) person() string {
	last, female := pick(s, lastNames), s.chance(0.45)
	if female {
		return last + "а " + pick(s, femaleFirst) + " " + pick(s, patronymics) + "на"
	}
	return last + " " + pick(s, firstNames) + " " + pick(s, patronymics) + "ич"
}

// initials shortens "Иванов Сергей Петрович" to "Иванов С. П.".
func initials(full string) string {
	f := strings.Fields(full)
	if len(f) < 3 {
		return full
	}
	return fmt.Sprintf("%s %s. %s.", f[0], string([]rune(f[1])[:1]), string([]rune(f[2])[:1]))
}

// email returns a mailbox for a party on a domain made from its number.
func email(p *party, box string) string {
	return fmt.Sprintf("%s@%s-%s.ru", box, strings.ToLower(translit(p.ShortName)), p.INN[6:])
}

// translit turns a Russian short name into the letters of a plausible
// domain name.
func translit(name string) string {
	table := map[rune]string{
		'а': "a", 'б': "b", 'в': "v", 'г': "g", 'д': "d", 'е': "e", 'ё': "e", 'ж': "zh", 'з': "z", 'и': "i",
		'й': "y", 'к': "k", 'л': "l", 'м': "m", 'н': "n", 'о': "o", 'п': "p", 'р': "r", 'с': "s", 'т': "t",
		'у': "u", 'ф': "f", 'х': "h", 'ц': "ts", 'ч': "ch", 'ш': "sh", 'щ': "sch", 'ы': "y", 'э': "e", 'ю': "yu", 'я': "ya",
	}
	var b strings.Builder
	for _, w := range strings.Fields(strings.ToLower(name)) {
		if w == "ооо" || w == "ао" || w == "ип" || w == "пао" {
			continue
		}
		for _, r := range w {
			if t, ok := table[r]; ok {
				b.WriteString(t)
			} else if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
				b.WriteRune(r)
			}
		}
	}
	if b.Len() > 16 {
		return b.String()[:16]
	}
	return b.String()
}

// contact returns the contact block a notice of p carries.
func (p *party) contact() tenderbase.Contact {
	return tenderbase.Contact{Person: p.Person, Email: p.Email, Phone: p.Phone, Address: p.Address}
}

// cast is the set of organizations the demo records share, so that the same
// customer or supplier recurs across tenders, contracts and complaints.
type cast struct {
	customers []*party
	suppliers []*party
	offices   map[int]*party // antimonopoly offices by region code
}

func newCast(s *source) *cast {
	c := &cast{offices: map[int]*party{}}
	for i := range 20 {
		c.customers = append(c.customers, s.customer(customerKinds[i%len(customerKinds)], regions[i%len(regions)]))
	}
	for i, n := range supplierNames {
		r := regions[(i*7+3)%len(regions)]
		var p *party
		if strings.HasPrefix(n.Name, "Индивидуальный предприниматель") {
			p = s.personParty(r, n.Name, n.Short)
		} else {
			p = s.legalParty(r, n.Name, n.Short)
		}
		p.Sector, p.OKVED = n.Sector, n.OKVED
		p.Email = email(p, pick(s, []string{"info", "tender", "zakupki", "sales"}))
		c.suppliers = append(c.suppliers, p)
	}
	for _, r := range regions {
		o := s.legalParty(r, "Управление Федеральной антимонопольной службы "+r.FASTo, r.FAS)
		c.offices[r.Code] = o
	}
	return c
}

func (s *source) customer(k customerKind, r region) *party {
	place := r.Name
	if k.ByCity {
		place = r.CityIn
	}
	n := s.between(2, 180)
	p := s.legalParty(r, fmt.Sprintf(k.Format, n, place), fmt.Sprintf(k.Short, n))
	p.Sector, p.Law, p.OKVED = k.Sector, k.Law, k.OKVED
	p.RegNum = "0" + pad(r.Code, 2) + "2" + s.digits(7)
	p.Email = email(p, pick(s, []string{"zakupki", "goszakaz", "kontrakt", "omts"}))
	return p
}

// suppliersFor returns the suppliers of a subject's sector; subjects any
// customer buys (paper, cleaning, software) have suppliers of their own.
func (c *cast) suppliersFor(sector string) []*party {
	var out []*party
	for _, p := range c.suppliers {
		if p.Sector == sector {
			out = append(out, p)
		}
	}
	return out
}

// subjectsFor returns the subjects a customer of the sector buys.
func subjectsFor(sector string) []subject {
	var out []subject
	for _, s := range subjects {
		if s.Sector == sector || s.Sector == "any" {
			out = append(out, s)
		}
	}
	return out
}
