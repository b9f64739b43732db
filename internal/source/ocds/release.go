package ocds

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/tenderbase/tenderbase"
)

// worldTender maps a compiled release.
func (p process) worldTender() (*tenderbase.WorldTender, error) {
	c := p.compiled
	ocid := str(c, "ocid")
	if ocid == "" {
		return nil, tenderbase.Errorf(tenderbase.EINVALID, "OCDS release without an ocid")
	}
	tender := obj(c, "tender")
	ps := partiesOf(c)
	w := &tenderbase.WorldTender{
		ID: "ocds:" + ocid, Source: "ocds", Language: strings.ToLower(str(c, "language")),
		Title:         cleanText(titleOfProcess(c)),
		Description:   firstNonEmpty(str(tender, "description"), str(obj(c, "planning"), "rationale")),
		PublishedAt:   date(firstNonEmpty(p.first, str(c, "date"))),
		Updated:       date(firstNonEmpty(p.latest, str(c, "date"))),
		Stage:         p.stage,
		ReleaseID:     p.release,
		Deadline:      date(str(obj(tender, "tenderPeriod"), "endDate")),
		NoticeType:    tags(c["tag"]),
		ProcedureType: firstNonEmpty(str(tender, "procurementMethod"), str(tender, "procurementMethodDetails")),
		ContractType:  firstNonEmpty(str(tender, "mainProcurementCategory"), strings.Join(strs(tender["additionalProcurementCategories"]), ", ")),
	}
	var stated bool
	if w.Value, w.Currency, stated = money(obj(tender, "value")); !stated {
		w.Value, w.Currency, _ = money(obj(obj(obj(c, "planning"), "budget"), "amount"))
	}
	ref, party := buyerOf(c, ps)
	w.Buyer = buyer(ref, party)
	w.Country = buyerCountry(c, party)
	w.CPVCodes = cpvCodes(c)
	for _, l := range objects(tender["lots"]) {
		lot := tenderbase.WorldLot{ID: str(l, "id"), Title: cleanText(str(l, "title")), Description: str(l, "description")}
		lot.Value, lot.Currency, _ = money(obj(l, "value"))
		w.Lots = append(w.Lots, lot)
	}
	for _, d := range objects(tender["documents"]) {
		if u := str(d, "url"); u != "" {
			w.Documents = append(w.Documents, tenderbase.Attachment{URL: u, FileName: str(d, "title"), Description: str(d, "documentType")})
			if str(d, "documentType") == "tenderNotice" && w.URL == "" {
				w.URL = u
			}
		}
	}
	awards, contracts := awardsOf(c, ps)
	w.AwardedValue, w.AwardedCurrency = awardedValue(awards)
	w.Awards = append(awards, contracts...)
	if w.Title == "" {
		return nil, tenderbase.Errorf(tenderbase.EINVALID, "OCDS process %s names no tender, award, contract or budget: nothing to show as a tender", ocid)
	}
	return w, nil
}

// cpvCodes returns the CPV codes of the items of the tender, its awards and
// its contracts, each once.
func cpvCodes(c map[string]any) []string {
	items := objects(obj(c, "tender")["items"])
	for _, list := range []string{"awards", "contracts"} {
		for _, x := range objects(c[list]) {
			items = append(items, objects(x["items"])...)
		}
	}
	var out []string
	for _, item := range items {
		if cpv := cpvOf(obj(item, "classification")); cpv != "" && !contains(out, cpv) {
			out = append(out, cpv)
		}
	}
	return out
}

// cpvOf returns the code of a CPV classification without its check
// digit ("45000000-7" is 45000000), as TED and eForms write CPV codes.
func cpvOf(cl map[string]any) string {
	if !strings.HasPrefix(strings.ToUpper(str(cl, "scheme")), "CPV") {
		return ""
	}
	code, _, _ := strings.Cut(str(cl, "id"), "-")
	return strings.TrimSpace(code)
}

// titleOfProcess returns the process's title: the tender's, the release's
// name, an award's or contract's title (or its title in the release's
// language, as title_en), or else the first description that says what is
// bought.
func titleOfProcess(c map[string]any) string {
	tender := obj(c, "tender")
	lang := "title_" + strings.ToLower(str(c, "language"))
	return firstNonEmpty(str(tender, "title"), str(c, "name"),
		memberOf(c, "awards", "title"), memberOf(c, "contracts", "title"),
		memberOf(c, "awards", lang), memberOf(c, "contracts", lang),
		str(tender, "description"), str(obj(obj(c, "planning"), "budget"), "description"),
		itemDescription(c, "awards"), itemDescription(c, "contracts"))
}

// memberOf returns member k of the first item of list that has it.
func memberOf(c map[string]any, list, k string) string {
	for _, x := range objects(c[list]) {
		if t := str(x, k); t != "" {
			return t
		}
	}
	return ""
}

// itemDescription returns the description of the first item of an award or
// contract of list.
func itemDescription(c map[string]any, list string) string {
	for _, x := range objects(c[list]) {
		for _, it := range objects(x["items"]) {
			if d := str(it, "description"); d != "" {
				return d
			}
		}
	}
	return ""
}

// money returns an amount and its currency, and whether the amount is
// published: an amount of 0 is a value stated, kept as published.
func money(v map[string]any) (float64, string, bool) {
	amount, ok := v["amount"]
	if !ok || amount == nil {
		return 0, "", false
	}
	return number(amount), str(v, "currency"), true
}

// cleanText returns a title on one line: each run of white space holding
// a line break or a tab, or of three spaces or more (a published title's
// raw line breaks, indentation and padding) becomes one space; a double
// space stays as published.
func cleanText(s string) string {
	if !strings.ContainsAny(s, "\n\r\t") && !strings.Contains(s, "   ") {
		return s
	}
	var b strings.Builder
	run, broken := "", false
	flush := func() {
		if broken || len(run) > 2 {
			run = " "
		}
		b.WriteString(run)
		run, broken = "", false
	}
	for _, r := range s {
		if unicode.IsSpace(r) {
			run += string(r)
			broken = broken || r == '\n' || r == '\r' || r == '\t'
			continue
		}
		flush()
		b.WriteRune(r)
	}
	flush()
	return strings.TrimSpace(b.String())
}

func joinNonEmpty(sep string, vs ...string) string {
	var parts []string
	for _, v := range vs {
		if v != "" {
			parts = append(parts, v)
		}
	}
	return strings.Join(parts, sep)
}

func number(v any) float64 {
	switch n := v.(type) {
	case json.Number:
		f, _ := n.Float64()
		return f
	case float64:
		return n
	case string:
		f, _ := strconv.ParseFloat(strings.TrimSpace(n), 64)
		return f
	}
	return 0
}

func tags(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	return strings.Join(strs(v), ", ")
}

// date reads an OCDS date-time (RFC 3339), or a bare date.
func date(s string) time.Time {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", time.DateOnly} {
		if t, err := time.Parse(layout, strings.TrimSpace(s)); err == nil {
			return t
		}
	}
	return time.Time{}
}

func obj(m map[string]any, k string) map[string]any {
	v, _ := m[k].(map[string]any)
	return v
}

func str(m map[string]any, k string) string {
	switch v := m[k].(type) {
	case string:
		return strings.TrimSpace(v)
	case json.Number:
		return v.String()
	}
	return ""
}

func strs(v any) []string {
	var out []string
	for _, x := range objectsOrValues(v) {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

func objectsOrValues(v any) []any {
	arr, _ := v.([]any)
	return arr
}

func jsonString(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

func firstNonEmpty(vs ...string) string {
	for _, v := range vs {
		if v != "" {
			return v
		}
	}
	return ""
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
