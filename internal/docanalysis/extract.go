package docanalysis

import (
	"regexp"
	"slices"
	"strings"
)

// rule finds the answer to a question in one of two shapes the documents
// use: a sentence that states it («Обеспечение заявок не требуется»), or,
// in the two-column EIS print forms, a label spread over a few lines
// followed by its value on a line of its own («Размер обеспечения
// исполнения контракта» … «42814.52 РОССИЙСКИЙ РУБЛЬ»).
type rule struct {
	// sentence matches the key of a sentence; the sentence is the quote.
	sentence *regexp.Regexp
	// label matches the start of the key of a few lines joined; the first
	// line after it whose key matches value is the quote.
	label, value *regexp.Regexp
	// unless rejects a sentence or value that matches it: a blank to be
	// filled in («в течение ___ дней») or a term of another obligation.
	unless *regexp.Regexp
	// within, when set, must match a line of the same file: the end of
	// the application period is a deadline's answer only where the file
	// also gives its start.
	within *regexp.Regexp
}

// except returns r that rejects a quote matching pattern.
func (r rule) except(pattern string) rule {
	r.unless = regexp.MustCompile(pattern)
	return r
}

// in returns r that answers only in a file with a line matching pattern.
func (r rule) in(pattern string) rule {
	r.within = regexp.MustCompile(pattern)
	return r
}

func say(pattern string) rule { return rule{sentence: regexp.MustCompile(pattern)} }

func labelled(label, value string) rule {
	return rule{label: regexp.MustCompile("^" + label), value: regexp.MustCompile("^(?:" + value + ")$")}
}

const (
	// payNot marks terms of other payments than the supplier's: penalties,
	// guarantees, claims.
	payNot = `неустойк|штраф|пени|гарант|претензи|уведомлени|обеспечительн|авансов[а-я]*платеж|__`
	// regimeDecrees are the Government decrees of the national regime and
	// of the priority of Russian goods.
	regimeDecrees = `(1875|616|617|878|925|2014|102|126)\b`
	// regimeNot marks a measure of the national regime said not to be
	// set («Запрет закупок товаров …: Не установлен»), or a decree named
	// for the case that one is («при установлении требований»).
	regimeNot = `[:-]неустановлен|приустановлении|вслучаеустановления`
	// warrantyNot marks the instructions on filling in an application,
	// whose warranty terms are examples («например, «гарантийный срок
	// составляет 12 месяцев»»).
	warrantyNot = `например|вправеуказать`
	// termValue is how a term of delivery begins: «в течение 10 дней», «с
	// даты заключения», «до 01 июня», «по 31.12.2026», «в период».
	termValue  = `втечени[еия]|(с|со)(даты|момента|дня)|(до|по)(\d|«)|(в)?период|единовременно`
	moneyValue = `\d+(?:[.,]\d\d)?(?:российскийрубль)?|\d+(?:[.,]\d+)?%`
	dateTime   = `\d\d\.\d\d\.\d{4}\d\d:\d\d`
)

// rules are tried in order for each question, each over every file in the
// order given; the first that matches answers. A question without a rule
// that matches is not stated.
var rules = map[Question][]rule{
	ApplicationSecurity: {
		say(`обеспечени[ея]заяв(ок|ки)(научастие(взакупке)?)?нетребуется`),
		say(`размеробеспечениязаявки(научастие(взакупке)?)?:?\d`),
		labelled(`размеробеспечениязаявки`, moneyValue),
		say(`обеспечени[ея]заяв(ок|ки)(научастие(взакупке)?)?(предусмотрено|устанавливается|установлено)вразмере\d`),
	},
	ContractSecurity: {
		say(`^(требуется)?обеспечениеисполнения(настоящего)?(контракта|договора)не(требуется|устанавливается|предусмотрено)`),
		labelled(`размеробеспеченияисполнения(контракта|договора)`, moneyValue),
		say(`размеробеспеченияисполнения(контракта|договора)(:|-|составляет)?\d`),
		say(`обеспечениеисполнения(настоящего)?(контракта|договора)(устанавливается|установлено|составляет)вразмере\d`),
		say(`требуетсяобеспечениеисполнения(контракта|договора)вразмере\d`),
	},
	WarrantySecurity: {
		say(`обеспечение(исполнения)?гарантийныхобязательств-?не(требуется|устанавливается|предусмотрено)`),
		say(`размеробеспечениягарантийныхобязательств:?\d`),
		labelled(`размеробеспечениягарантийныхобязательств`, moneyValue),
		say(`обеспечение(исполнения)?гарантийныхобязательств(устанавливается|установлено)вразмере\d`),
	},
	Advance: {
		say(`(^|[.;:])(выплата)?(аванс|авансирование|авансовыйплатеж)[а-я]*((по|при)(настоящему|исполнении)?(контракт|договор)[а-я]*)?,?не(предусмотрен|производится|установлен|допускается)`),
		say(`(выплат[а-я]*|внесени[а-я]*)аванс[а-я]*(платеж[а-я]*)?вразмере\d`),
	},
	Delivery: {
		say(`^(\d+\.)*(срок|сроки|период)поставки(товара|товаров|продукции)?:`).except(`__`),
		labelled(`(\d+\.)*(срок|сроки|период)поставки(товара|товаров|продукции)?$`, `.*(`+termValue+`).*`).except(`__`),
		say(`^поставка(товара|продукции)(позаявкам|по(настоящему)?(контракту|договору))?(осуществляется|должнаосуществиться)(поставщиком)?(` + termValue + `)`).except(`__|законодательств`),
		say(`^(с|со)(даты|момента|дня)(заключения|подписания)(настоящего)?(контракта|договора).{0,20}?(до|по)\d`),
		say(`^втечени[еия]\d+.{0,30}?дн[а-я]*с(даты|момента)заключения`).except(`__|прейскурант`),
		say(`(срок|сроки)поставки.{0,40}?(втечени[еия]\d|до\d|по\d)`).except(`__`),
		say(`поставка[а-я]+.{0,200}?(с(даты|момента)заключения[а-я]*|с\d\d\.\d\d\.\d{4}).{0,40}?(до|по)\d`).except(`__`),
		say(`втечени[еия]\d+.{0,30}?дн[а-я]*с(даты|момента)заключения(контракта|договора)`).except(`__|прейскурант`),
		say(`(с|со)(даты|момента|дня)(заключения|подписания)(контракта|договора)(до|по)\d`).except(`__|действует|вступает`),
		say(`^местопоставки(\(адрес\))?:.+`).except(`__|всоответствии|согласно`),
	},
	Payment: {
		say(`(оплат[а-я]*|оплачива[а-я]*|расчеты).{0,300}?(втечени[еия]|непозднее|неболее|всрокнеболее)(\d+|` + numberWord + `).{0,20}?(рабочих|календарных)?дн`).except(payNot),
		say(`^(пофакту[а-я]*.{0,60})?втечени[еия]\d+(\([^)]*\))?рабочихдней(с|со)(даты|момента|дня)(подписания|приемки)`).except(payNot),
		say(`втечени[еия]\d+(\([^)]*\))?рабочихдней(с|со)(даты|момента|дня)(подписания|приемки)[а-я]*(заказчиком)?(документ|акт|товар|поставлен|структурирован)`).except(payNot),
		say(`путем(внесения|перечисления|выплаты)аванс[а-я]*вразмере\d+(?:[.,]\d+)?%`),
	},
	EvaluationCriteria: {
		say(`значимост[а-я]*(критерия)?.{0,40}?\d+(?:[.,]\d+)?%`),
		say(`критерием(оценки)?является«?цена`),
	},
	Requirements: {
		say(`^наличие(у\S*)?(лицензи|опыта|членства)`),
		say(`^опытработы,?связанный`),
		say(`располагаетлицензиями`),
		say(`членств[а-я]*в(саморегулируем|сро)`),
		say(`^\d?требованиякучастникамзакупоквсоответствиисч`),
		say(`^\d?требованиеоботсутствиивреестре`),
		say(`^\d?(единые)?требования?кучастникамзакупок(в|всоответствиисч\.?)?$`),
		say(`^требованиекотсутствиюучастников`),
		say(`наличие(у\S*)?(лицензи|опыта|членства)`),
	},
	NationalRegime: {
		say(`^(запрет|ограничение|преимущество)(закупок|вотношении)товаров`).except(regimeNot),
		say(`(запрет|ограничение|преимущество)(закупок)?вотношениитоваров(российского|иностранного)происхождения.*-установлен[оа]?\.?$`),
		say(`^установлен[оа]?.{0,300}?(запрет|ограничение|преимущество)(закупок)?вотношениитоваров`),
		say(`мерахпопредоставлениюнациональногорежима.{0,30}№\d{4}`),
		say(`^(установлено)?(запрет|ограничение)$`),
		say(`(постановлени[а-я]*(правительства(рф|российскойфедерации))?|пп(рф)?)(от\d\d\.\d\d\.\d{4}(г\.?)?)?№n?` + regimeDecrees).except(regimeNot),
	},
	SME: {
		say(`преимуществовсоответствиисч\.3ст\.30`),
		say(`участникамизакупкимогутбытьтолькосубъектымалогоисреднего`),
		say(`^преимущества:?неустановлены$`),
	},
	Penalties: {
		say(`^пен[яи]начисляетсязакаждыйденьпросрочкиисполнения(поставщик|исполнител|подрядчик)`),
		say(`^пен[яи]начисляетсязакаждыйденьпросрочкиисполненияобязательств`),
		say(`^пен[яи]начисляетсязакаждыйдень`),
		say(`^размерпенисоставляет`),
		say(`неустойк[а-я]*начисляетсязакаждыйдень`),
		say(`^закаждыйденьпросрочки`),
		say(`(пени|штраф[а-я]*|неустойк[а-я]*)вразмере\d`).except(`гарант`),
		say(`^размерштрафаустанавливается`),
	},
	Warranty: {
		say(`гаранти[а-я]*.{0,80}?(составляет|неменее|должен(быть)?|должна(быть)?)(неменее)?\d+(\([^)]*\))?(месяц|лет|год)`).except(warrantyNot + `|^вслучае,?если`),
		say(`гарантийн[а-я]*срок[а-я]*[^.]{0,60}?установленн[а-я]*(изготовител|производител)`).except(warrantyNot),
		say(`^гарантийныйсрок`).except(warrantyNot + `|продлевается|втечениекоторого|указывается`),
		say(`^(срок)?гаранти[ия](поставщика|производителя)?(на[а-я]+)?(составляет|неменее)`).except(warrantyNot),
		say(`остаточн[а-я]*срок[а-я]*годности.{0,80}?(неменее|составляет)\d`),
		say(`^сроккачества|^остаточныйсрокгодности`),
		say(`^требования(кгарантии[^:]*)?кгарантийномусроку`),
		say(`документ[а-я]*,?подтверждающ[а-я]*гаранти[а-я]*.{0,40}?суказаниемсрока`),
	},
	ContractTerm: {
		say(`(контракт|договор)[а-я]*вступаетв(силу|действие).{0,120}?действует`).except(`__`),
		say(`(контракт|договор)[а-я]*считаетсязаключенным.{0,400}?действует(до|по)\d`),
		say(`^(настоящий)?(контракт|договор)действует(до|по)`).except(`__`),
		say(`^срокдействия(контракта|договора)`),
		say(`^(настоящий)?(контракт|договор)вступаетв(силу|действие)(с|со)(момента|даты|дня)`).except(`__`),
	},
	BrandWithoutEquivalent: {
		say(`эквивалентныхтоваровнедопускается`),
		say(`[a-zа-я0-9)]\(?или«?эквивалент`).except(`слов[а-я]*«?или|сопровожда|словами`),
	},
	ShortDeadline: {
		labelled(`датаивремяокончания(срока)?подачизаявок`, dateTime).in(`^датаначаласрокаподачизаявок`),
	},
}

// Analyze answers every question from the files given, in their order.
func Analyze(files []File) Analysis {
	var a Analysis
	var paras [][]paragraph
	for _, f := range files {
		a.Files = append(a.Files, FileStatus{Name: f.Name, HasText: strings.TrimSpace(f.Text) != "", Reason: f.Unread})
		paras = append(paras, paragraphs(f))
	}
	for _, q := range Questions {
		a.Answers = append(a.Answers, answer(q, paras))
	}
	return a
}

func answer(q Question, files [][]paragraph) Answer {
	for _, r := range rules[q] {
		for _, ps := range files {
			if ans, ok := r.find(ps); ok {
				ans.Question = q
				return ans
			}
		}
	}
	return Answer{Question: q}
}

func (r rule) find(ps []paragraph) (Answer, bool) {
	if r.within != nil && !slices.ContainsFunc(ps, func(p paragraph) bool { return r.within.MatchString(p.key) }) {
		return Answer{}, false
	}
	var scratch []byte
	for i, p := range ps {
		if r.sentence != nil {
			for j, s := range p.sentences {
				if r.matches(s.key) {
					if j == len(p.sentences)-1 {
						return found(s.text+strayStop(ps, i), p), true
					}
					return found(s.text, p), true
				}
			}
			if q, ok := r.wrapped(ps, i); ok {
				return found(q, p), true
			}
			continue
		}
		if v, ok := r.valueAfter(ps, i, &scratch); ok {
			return v, true
		}
	}
	return Answer{}, false
}

// valueAfter matches the label at line i, joined with the lines after it,
// and returns the first of the next lines that holds a value.
// The lines are joined in scratch, kept from one line to the next, so that
// trying a label on every line of a long file allocates nothing.
func (r rule) valueAfter(ps []paragraph, i int, scratch *[]byte) (Answer, bool) {
	joined := (*scratch)[:0]
	defer func() { *scratch = joined }()
	for j := i; j < min(i+4, len(ps)); j++ {
		joined = append(joined, ps[j].key...)
		if r.label.Match(joined) {
			for k := j + 1; k < min(j+6, len(ps)); k++ {
				if r.value.MatchString(ps[k].key) && !r.rejects(ps[k].key) {
					return found(ps[k].text, ps[k]), true
				}
			}
			return Answer{}, false
		}
	}
	return Answer{}, false
}

// matches reports whether a sentence's key, its clause number left out
// («8.1.», «3)»), is an answer of the rule.
func (r rule) matches(k string) bool {
	k = k[len(clauseNumber.FindString(k)):]
	return r.sentence.MatchString(k) && !r.rejects(k)
}

var clauseNumber = regexp.MustCompile(`^(\d+[.)])+(\d+)?\.?`)

// wrapped matches a sentence that a PDF, an EIS print form above all,
// wraps over two or three lines of its narrow column («Обеспечение гарантийных» /
// «обязательств не требуется»), and quotes the lines as they stand. The
// first line must be needed: a match that the later lines make alone is
// found when the search reaches them.
func (r rule) wrapped(ps []paragraph, i int) (string, bool) {
	if !ps[i].wraps {
		return "", false
	}
	text, k := ps[i].text, ps[i].key
	for j := i + 1; j < min(i+3, len(ps)); j++ {
		text, k = text+"\n"+ps[j].text, k+ps[j].key
		if r.matches(k) && !r.matches(k[len(ps[i].key):]) {
			return text, true
		}
	}
	return "", false
}

// strayStop returns the line after line i, a line break before it, when
// the line is only the punctuation that ends the sentence of line i: a PDF
// may put the full stop of a line of its narrow column on a line of its
// own («… согласно Приложению 1» / «.»). It returns "" otherwise.
func strayStop(ps []paragraph, i int) string {
	if !ps[i].wraps || i+1 >= len(ps) || !onlyStop.MatchString(ps[i+1].key) {
		return ""
	}
	return "\n" + ps[i+1].text
}

var onlyStop = regexp.MustCompile(`^[.;,)»"]+$`)

func (r rule) rejects(k string) bool { return r.unless != nil && r.unless.MatchString(k) }

func found(quote string, p paragraph) Answer {
	return Answer{Found: true, Facts: factsOf(quote), Quote: quote, At: Locator{File: p.file, Paragraph: p.index, Page: p.page}}
}
