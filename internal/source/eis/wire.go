package eis

import (
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/tenderbase/tenderbase"
)

// The values every kind of EIS document writes the same way: dates, amounts,
// versions, sizes and texts.

// eisTime is a date or time as the EIS writes it: with an offset or
// without (Moscow time), with or without a time of day.
type eisTime struct{ time.Time }

// moscowTime is the zone of the EIS's times that carry no offset.
var moscowTime = tenderbase.Moscow

var eisTimeLayouts = []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02Z07:00", "2006-01-02"}

// UnmarshalText parses the time; an empty element is the zero time.
func (t *eisTime) UnmarshalText(b []byte) error {
	s := strings.TrimSpace(string(b))
	if s == "" {
		return nil
	}
	for _, layout := range eisTimeLayouts {
		if v, err := time.ParseInLocation(layout, s, moscowTime); err == nil {
			t.Time = v
			return nil
		}
	}
	return tenderbase.Errorf(tenderbase.EINVALID, "date %q is neither xs:dateTime nor xs:date", s)
}

// parseVersion parses a version number; empty is def.
func parseVersion(s string, def int) (int, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return def, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return 0, tenderbase.Errorf(tenderbase.EINVALID, "version %q is not a whole number", s)
	}
	return n, nil
}

// cleanText returns a published text as published, without the white space
// around it: a run of spaces inside a file name or a line break inside a
// description is part of the value and is kept byte for byte. Search
// normalizes white space on its own.
func cleanText(s string) string { return strings.TrimSpace(s) }

// personName joins the parts of a person's name that are given, each
// trimmed, with one space.
func personName(parts ...string) string {
	var given []string
	for _, p := range parts {
		if p = strings.TrimSpace(p); p != "" {
			given = append(given, p)
		}
	}
	return strings.Join(given, " ")
}

// parseAmount parses an amount; what does not parse counts as unknown.
func parseAmount(s string) float64 {
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil {
		return 0
	}
	return v
}

// sumMoney adds amounts exactly: each as the decimal it was published as
// (the shortest decimal that reads back as the same float64, which is the
// published one up to 15 significant digits: to the kopeck below ten
// trillion), summed as a fraction, and the sum rounded once to a float64.
// 11710183.86 + 11710183.87 is then 23420367.73, where adding the floats
// gives 23420367.729999997.
func sumMoney(amounts ...float64) float64 {
	var sum big.Rat
	for _, a := range amounts {
		var r big.Rat
		r.SetString(strconv.FormatFloat(a, 'g', -1, 64))
		sum.Add(&sum, &r)
	}
	f, _ := sum.Float64()
	return f
}

// setLotPrices sets the maximum price of a tender from its lots': the exact
// sum of their prices, in their currency, when the lots are in one; else
// one sum per currency (MaxPrices), in the order the lots name them, and no
// MaxPrice or Currency, since euros and roubles add up to nothing.
func setLotPrices(t *tenderbase.Tender) {
	var currencies []string
	byCurrency := map[string][]float64{}
	for _, l := range t.Lots {
		if _, seen := byCurrency[l.Currency]; !seen {
			currencies = append(currencies, l.Currency)
		}
		byCurrency[l.Currency] = append(byCurrency[l.Currency], l.MaxPrice)
	}
	t.MaxPrice, t.MaxPrices = 0, nil
	switch len(currencies) {
	case 0:
	case 1:
		t.MaxPrice, t.Currency = sumMoney(byCurrency[currencies[0]]...), currencies[0]
	default:
		t.Currency = ""
		for _, c := range currencies {
			t.MaxPrices = append(t.MaxPrices, tenderbase.Money{Amount: sumMoney(byCurrency[c]...), Currency: c})
		}
	}
}

// currencyOr returns the currency code, RUB when none is given.
func currencyOr(code string) string { return firstOf(cleanText(code), "RUB") }

// parseSize parses a file size: bytes, or, in older notices, a number of
// kilobytes or megabytes such as "736.24 Кб", which is converted.
func parseSize(s string) int64 {
	fields := strings.Fields(s)
	if len(fields) == 0 {
		return 0
	}
	v, err := strconv.ParseFloat(strings.ReplaceAll(fields[0], ",", "."), 64)
	if err != nil || v < 0 {
		return 0
	}
	if len(fields) > 1 {
		switch strings.ToLower(fields[1]) {
		case "кб", "kb":
			v *= 1 << 10
		case "мб", "mb":
			v *= 1 << 20
		}
	}
	return int64(math.Round(v))
}

// allDigits reports whether s holds digits only.
func allDigits(s string) bool {
	for _, c := range []byte(s) {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// firstOf returns the first of values that is not blank, trimmed.
func firstOf(values ...string) string {
	for _, v := range values {
		if v = strings.TrimSpace(v); v != "" {
			return v
		}
	}
	return ""
}

// firstTime returns the first of times that is set.
func firstTime(times ...time.Time) time.Time {
	for _, t := range times {
		if !t.IsZero() {
			return t
		}
	}
	return time.Time{}
}

// date returns the day of t as YYYY-MM-DD, or "" when it is not set.
func (t eisTime) date() string {
	if t.IsZero() {
		return ""
	}
	return t.Format(time.DateOnly)
}

// items223 is the body of a 223-FZ document: items, each holding its
// document's data in a child named for its kind (purchaseNoticeZKData,
// purchaseProtocolPAEPData...).
type items223[D dataElement] struct {
	Items []struct {
		Data []D `xml:",any"`
	} `xml:"body>item"`
}

// dataElement is the data of one item of a 223-FZ document.
type dataElement interface {
	elementName() string
}

// data returns the data of every item, in order: the children whose names
// end in "Data".
func (w items223[D]) data() []D {
	var all []D
	for _, item := range w.Items {
		for _, d := range item.Data {
			if strings.HasSuffix(d.elementName(), "Data") {
				all = append(all, d)
			}
		}
	}
	return all
}
