package docanalysis

import (
	"regexp"
	"strconv"
	"strings"
)

// The fact patterns are written against a sentence's key (lower case, no
// white space), so «5 %», «5%» and «5 , 0 0 %» read alike.
var (
	rePercent     = regexp.MustCompile(`(\d+(?:[.,]\d+)?)(?:\([^)]{1,40}\))?(?:%|процент)`)
	reAmount      = regexp.MustCompile(`(\d+(?:[.,]\d\d)?)(?:российскийрубль|рубл[а-я]*|руб\.?)(?:(\d\d)коп)?`)
	reBareAmount  = regexp.MustCompile(`^(\d+[.,]\d\d)$`)
	reDays        = regexp.MustCompile(`(\d+)(?:-?ми)?(?:\([^)]{1,40}\))?(рабочих|календарных)?(?:дн[а-я]*|дня|день)`)
	reDecree      = regexp.MustCompile(`(?:от\d\d\.\d\d\.\d{4}(?:г\.?)?№n?(\d{3,4})\b|№n?(\d{3,4})от\d\d\.\d\d\.\d{4}|постановлени[а-я]*№n?(\d{3,4}))`)
	reDaysWord    = regexp.MustCompile(`(` + numberWord + `)(рабочих|календарных)?(?:дн[а-я]*|дня|день)`)
	reMonths      = regexp.MustCompile(`(\d+)(?:\([^)]{1,40}\))?(месяц[а-я]*|мес\.|год[а-я]*|лет)`)
	reDate        = regexp.MustCompile(`\d\d\.\d\d\.\d{4}`)
	reNotRequired = regexp.MustCompile(`не(требуется|предусмотрен|производится|устанавливается|установлен|допускается)`)
	reEquivalent  = regexp.MustCompile(`илиэквивалент|или«эквивалент»|\(илиэквивалент\)`)
	reWeight      = regexp.MustCompile(`значимост[а-я]*(?:критерия)?[^%]{0,40}?(\d+(?:[.,]\d+)?)%`)
)

// factsOf reads the facts a quote states.
func factsOf(quote string) Facts {
	k := key(quote)
	var f Facts
	f.NotRequired = reNotRequired.MatchString(k)
	for _, m := range rePercent.FindAllStringSubmatch(k, -1) {
		f.Percents = append(f.Percents, number(m[1]))
	}
	for _, m := range reAmount.FindAllStringSubmatch(k, -1) {
		v := number(m[1])
		if m[2] != "" {
			v += number(m[2]) / 100
		}
		f.Amounts = append(f.Amounts, v)
	}
	if m := reBareAmount.FindStringSubmatch(k); m != nil {
		f.Amounts = append(f.Amounts, number(m[1]))
	}
	for _, m := range reDays.FindAllStringSubmatch(k, -1) {
		n, _ := strconv.Atoi(m[1])
		kind := map[string]string{"рабочих": "working", "календарных": "calendar"}[m[2]]
		f.Days = append(f.Days, Days{N: n, Kind: kind})
	}
	for _, m := range reDaysWord.FindAllStringSubmatch(k, -1) {
		kind := map[string]string{"рабочих": "working", "календарных": "calendar"}[m[2]]
		f.Days = append(f.Days, Days{N: wordNumber(m[1]), Kind: kind})
	}
	for _, m := range reDecree.FindAllStringSubmatch(k, -1) {
		f.Decrees = append(f.Decrees, m[1]+m[2]+m[3])
	}
	for _, m := range reMonths.FindAllStringSubmatch(k, -1) {
		n, _ := strconv.Atoi(m[1])
		if !strings.HasPrefix(m[2], "мес") {
			if n > 100 { // a year such as «2026 года», not a term
				continue
			}
			n *= 12
		}
		f.Months = append(f.Months, n)
	}
	f.Dates = reDate.FindAllString(k, -1)
	f.Equivalent = reEquivalent.MatchString(k)
	for _, m := range reWeight.FindAllStringSubmatch(k, -1) {
		f.Criteria = append(f.Criteria, Criterion{Weight: number(m[1])})
	}
	return f
}

// number reads a decimal written with a point or a comma; a date such as
// 23.12 is never passed here as a whole, so no thousands separators occur.
func number(s string) float64 {
	v, _ := strconv.ParseFloat(strings.ReplaceAll(s, ",", "."), 64)
	return v
}

// Empty reports whether f states nothing.
func (f Facts) Empty() bool {
	return !f.NotRequired && !f.Equivalent && len(f.Percents) == 0 && len(f.Amounts) == 0 &&
		len(f.Days) == 0 && len(f.Months) == 0 && len(f.Decrees) == 0 && len(f.Dates) == 0 && len(f.Criteria) == 0 && len(f.Brands) == 0
}

// numberWord is a number of days written in words, in the genitive the
// documents use for a term («не более семи рабочих дней», «в течение
// тридцати дней»), from one to thirty-nine.
const numberWord = `(?:двадцати|тридцати)?(?:одного|двух|трех|четырех|пяти|шести|семи|восьми|девяти)|десяти|одиннадцати|двенадцати|тринадцати|четырнадцати|пятнадцати|шестнадцати|семнадцати|восемнадцати|девятнадцати|двадцати|тридцати`

var numberWords = map[string]int{
	"одного": 1, "двух": 2, "трех": 3, "четырех": 4, "пяти": 5, "шести": 6, "семи": 7, "восьми": 8, "девяти": 9,
	"десяти": 10, "одиннадцати": 11, "двенадцати": 12, "тринадцати": 13, "четырнадцати": 14, "пятнадцати": 15,
	"шестнадцати": 16, "семнадцати": 17, "восемнадцати": 18, "девятнадцати": 19, "двадцати": 20, "тридцати": 30,
}

// wordNumber reads a number that numberWord matched: «двадцатипяти» is 25.
func wordNumber(s string) int {
	for _, tens := range []string{"двадцати", "тридцати"} {
		if rest, ok := strings.CutPrefix(s, tens); ok && rest != "" {
			return numberWords[tens] + numberWords[rest]
		}
	}
	return numberWords[s]
}
