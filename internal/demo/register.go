package demo

import (
	"fmt"
	"strings"
)

// What the tax service's registers say of the demo's organizations, in the
// register's own words: the OKVED2 names of their activities, their legal
// forms by the OKOPF, and their addresses as the register writes them.

// okvedNames names every OKVED2 code the demo's organizations list, as OK
// 029-2014 does.
var okvedNames = map[string]string{
	"10.51": "Производство молока (кроме сырого) и молочной продукции",
	"20.13": "Производство прочих основных неорганических химических веществ",
	"33.12": "Ремонт машин и оборудования",
	"33.13": "Ремонт электронного и оптического оборудования",
	"35.30": "Производство, передача и распределение пара и горячей воды; кондиционирование воздуха",
	"36.00": "Забор, очистка и распределение воды",
	"42.11": "Строительство автомобильных дорог и автомагистралей",
	"43.21": "Производство электромонтажных работ",
	"43.29": "Производство прочих строительно-монтажных работ",
	"43.32": "Работы столярные и плотничные",
	"43.39": "Производство прочих отделочных и завершающих работ",
	"43.91": "Производство кровельных работ",
	"46.46": "Торговля оптовая фармацевтической продукцией",
	"46.49": "Торговля оптовая прочими бытовыми товарами",
	"46.69": "Торговля оптовая прочими машинами и оборудованием",
	"46.72": "Торговля оптовая металлами и металлическими рудами",
	"46.90": "Торговля оптовая неспециализированная",
	"47.62": "Торговля розничная газетами и канцелярскими товарами в специализированных магазинах",
	"47.91": "Торговля розничная по почте или по информационно-коммуникационной сети Интернет",
	"49.31": "Деятельность сухопутного пассажирского транспорта: перевозки пассажиров в городском и пригородном сообщении",
	"49.41": "Деятельность автомобильного грузового транспорта",
	"52.10": "Деятельность по складированию и хранению",
	"56.29": "Деятельность предприятий общественного питания по прочим видам организации питания",
	"62.01": "Разработка компьютерного программного обеспечения",
	"68.20": "Аренда и управление собственным или арендованным недвижимым имуществом",
	"69.20": "Деятельность по оказанию услуг в области бухгалтерского учета, по проведению финансового аудита, по налоговому консультированию",
	"70.22": "Консультирование по вопросам коммерческой деятельности и управления",
	"71.12": "Деятельность в области инженерных изысканий, инженерно-технического проектирования, управления проектами строительства, выполнения строительного контроля и авторского надзора, предоставление технических консультаций в этих областях",
	"72.19": "Научные исследования и разработки в области естественных и технических наук прочие",
	"73.11": "Деятельность рекламных агентств",
	"77.39": "Аренда и лизинг прочих машин и оборудования и материальных средств, не включенных в другие группировки",
	"80.10": "Деятельность частных охранных служб",
	"81.21": "Деятельность по общей уборке зданий",
	"81.30": "Деятельность по благоустройству ландшафта",
	"82.99": "Деятельность по предоставлению прочих вспомогательных услуг для бизнеса, не включенная в другие группировки",
	"84.11": "Деятельность органов государственного управления и местного самоуправления по вопросам общего характера",
	"84.13": "Регулирование и содействие эффективному ведению экономической деятельности предприятий",
	"85.11": "Образование дошкольное",
	"85.14": "Образование среднее общее",
	"86.10": "Деятельность больничных организаций",
	"86.90": "Деятельность в области медицины прочая",
}

// legalForm is a form of the OKOPF (OK 028-2012): its code, its name as
// the register gives it, and how the full names of its organizations begin.
type legalForm struct {
	Code, Name, Prefix string
}

// legalForms are the forms of the demo's organizations; an entrepreneur has
// none, the register giving the kind of entrepreneur instead.
var legalForms = []legalForm{
	{"12300", "Общества с ограниченной ответственностью", "Общество с ограниченной ответственностью"},
	{"12267", "Непубличные акционерные общества", "Акционерное общество"},
	{"75103", "Федеральные государственные бюджетные учреждения", "Федеральное государственное бюджетное"},
	{"75201", "Государственные автономные учреждения субъектов Российской Федерации", "Государственное автономное"},
	{"75203", "Государственные бюджетные учреждения субъектов Российской Федерации", "Государственное бюджетное"},
	{"75204", "Государственные казенные учреждения субъектов Российской Федерации", "Государственное казённое"},
	{"65242", "Государственные унитарные предприятия субъектов Российской Федерации", "Государственное унитарное"},
	{"75401", "Муниципальные автономные учреждения", "Муниципальное автономное"},
	{"75403", "Муниципальные бюджетные учреждения", "Муниципальное бюджетное"},
	{"75404", "Муниципальные казенные учреждения", "Муниципальное казённое"},
	{"65243", "Муниципальные унитарные предприятия", "Муниципальное унитарное"},
}

// entrepreneurKind is the kind of entrepreneur (НаимВидИП) the demo's are.
const entrepreneurKind = "Индивидуальный предприниматель"

// legalFormOf returns the form of an organization by its full name.
func legalFormOf(name string) (legalForm, bool) {
	for _, f := range legalForms {
		if strings.HasPrefix(name, f.Prefix) {
			return f, true
		}
	}
	return legalForm{}, false
}

// legalFormNamed returns the form the register names name.
func legalFormNamed(name string) (legalForm, bool) {
	for _, f := range legalForms {
		if f.Name == name {
			return f, true
		}
	}
	return legalForm{}, false
}

// registerRegion is a region as the register's KLADR address names it:
// a federal city by its name alone, another region by name and type, with
// the city the demo places its organizations in.
type registerRegion struct {
	Name, Type string
	City       string // "" in a federal city
}

var registerRegions = map[int]registerRegion{
	77: {Name: "Г.МОСКВА"},
	78: {Name: "Г.САНКТ-ПЕТЕРБУРГ"},
	50: {"МОСКОВСКАЯ", "ОБЛ.", "КРАСНОГОРСК"},
	66: {"СВЕРДЛОВСКАЯ", "ОБЛ.", "ЕКАТЕРИНБУРГ"},
	16: {"ТАТАРСТАН", "РЕСП.", "КАЗАНЬ"},
	2:  {"БАШКОРТОСТАН", "РЕСП.", "УФА"},
	54: {"НОВОСИБИРСКАЯ", "ОБЛ.", "НОВОСИБИРСК"},
	23: {"КРАСНОДАРСКИЙ", "КРАЙ", "КРАСНОДАР"},
	52: {"НИЖЕГОРОДСКАЯ", "ОБЛ.", "НИЖНИЙ НОВГОРОД"},
	63: {"САМАРСКАЯ", "ОБЛ.", "САМАРА"},
	74: {"ЧЕЛЯБИНСКАЯ", "ОБЛ.", "ЧЕЛЯБИНСК"},
	61: {"РОСТОВСКАЯ", "ОБЛ.", "РОСТОВ-НА-ДОНУ"},
	24: {"КРАСНОЯРСКИЙ", "КРАЙ", "КРАСНОЯРСК"},
	59: {"ПЕРМСКИЙ", "КРАЙ", "ПЕРМЬ"},
	36: {"ВОРОНЕЖСКАЯ", "ОБЛ.", "ВОРОНЕЖ"},
	38: {"ИРКУТСКАЯ", "ОБЛ.", "ИРКУТСК"},
	25: {"ПРИМОРСКИЙ", "КРАЙ", "ВЛАДИВОСТОК"},
	5:  {"ДАГЕСТАН", "РЕСП.", "МАХАЧКАЛА"},
}

// cityType is the type of the register's cities.
const cityType = "Г."

// streetTypes are the register's abbreviations of the kinds of street the
// demo's addresses name.
var streetTypes = map[string]string{
	"ул.": "УЛ.", "пр-кт": "ПР-КТ", "ш.": "Ш.", "бульвар": "Б-Р", "наб.": "НАБ.",
}

// registerAddress is an address as the register's <АдресРФ> holds it.
type registerAddress struct {
	Postcode   string
	Region     int
	StreetType string
	Street     string
	House      string // with its type, "Д. 47"
}

// String writes the address as the EGRUL reader does: postcode, region,
// city, street, house.
func (a registerAddress) String() string {
	r := registerRegions[a.Region]
	parts := []string{a.Postcode, strings.TrimSpace(r.Name + " " + r.Type)}
	if r.City != "" {
		parts = append(parts, cityType+" "+r.City)
	}
	return strings.Join(append(parts, a.StreetType+" "+a.Street, a.House), ", ")
}

// registerAddressOf returns the register's form of a demo address,
// "114430, г. Москва, ул. Новослободская, д. 47", in region code.
func registerAddressOf(code int, address string) (registerAddress, error) {
	parts := strings.Split(address, ", ")
	if _, ok := registerRegions[code]; !ok || len(parts) != 4 || !strings.HasPrefix(parts[3], "д. ") {
		return registerAddress{}, fmt.Errorf("address %q of region %d has no register form", address, code)
	}
	a := registerAddress{Postcode: parts[0], Region: code, House: "Д. " + strings.TrimPrefix(parts[3], "д. ")}
	words := strings.Fields(parts[2])
	for i, w := range words {
		if t, ok := streetTypes[w]; ok {
			a.StreetType = t
			a.Street = strings.ToUpper(strings.Join(append(words[:i:i], words[i+1:]...), " "))
		}
	}
	if a.StreetType == "" {
		return registerAddress{}, fmt.Errorf("street %q of address %q has no register type", parts[2], address)
	}
	return a, nil
}

// parseRegisterAddress reads back an address String wrote in region code.
func parseRegisterAddress(code int, s string) (registerAddress, error) {
	parts := strings.Split(s, ", ")
	if len(parts) < 4 {
		return registerAddress{}, fmt.Errorf("address %q is not in the register's form", s)
	}
	a := registerAddress{Postcode: parts[0], Region: code, House: parts[len(parts)-1]}
	a.StreetType, a.Street, _ = strings.Cut(parts[len(parts)-2], " ")
	if a.String() != s {
		return registerAddress{}, fmt.Errorf("address %q is not in the register's form of region %d", s, code)
	}
	return a, nil
}

// anyRegisterAddress reads back an address String wrote, in whichever
// region's form it is.
func anyRegisterAddress(s string) (registerAddress, error) {
	for code := range registerRegions {
		if a, err := parseRegisterAddress(code, s); err == nil {
			return a, nil
		}
	}
	return registerAddress{}, fmt.Errorf("address %q is in no region's register form", s)
}

// taxOfficeName names the tax office of code, four digits, in region
// code: the demo's offices are inspections numbered by their last two.
func taxOfficeName(code string, region int) string {
	for _, r := range regions {
		if r.Code == region {
			return fmt.Sprintf("Инспекция Федеральной налоговой службы № %s %s", strings.TrimLeft(code[2:], "0"), r.FASTo)
		}
	}
	return "Инспекция Федеральной налоговой службы № " + strings.TrimLeft(code[2:], "0")
}
