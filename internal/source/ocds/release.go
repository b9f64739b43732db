package ocds

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/country"
)

// worldTender maps a compiled release.
func (p process) worldTender() (*tenderbase.WorldTender, error) {
	c := p.compiled
	ocid := str(c, "ocid")
	if ocid == "" {
		return nil, tenderbase.Errorf(tenderbase.EINVALID, "OCDS release without an ocid")
	}
	tender := obj(c, "tender")
	w := &tenderbase.WorldTender{
		ID: "ocds:" + ocid, Source: "ocds", Language: strings.ToLower(str(c, "language")),
		Title:         titleOfProcess(c),
		Description:   firstNonEmpty(str(tender, "description"), str(obj(c, "planning"), "rationale")),
		PublishedAt:   date(firstNonEmpty(p.first, str(c, "date"))),
		Updated:       date(firstNonEmpty(p.latest, str(c, "date"))),
		Deadline:      date(str(obj(tender, "tenderPeriod"), "endDate")),
		NoticeType:    tags(c["tag"]),
		ProcedureType: firstNonEmpty(str(tender, "procurementMethod"), str(tender, "procurementMethodDetails")),
		ContractType:  firstNonEmpty(str(tender, "mainProcurementCategory"), strings.Join(strs(tender["additionalProcurementCategories"]), ", ")),
	}
	w.Value, w.Currency = money(obj(tender, "value"))
	if w.Value == 0 {
		w.Value, w.Currency = money(obj(obj(obj(c, "planning"), "budget"), "amount"))
	}
	buyer, buyerParty := buyerOf(c)
	w.Buyer = tenderbase.Party{Name: firstNonEmpty(str(buyer, "name"), str(buyerParty, "name")), RegNum: identifier(buyerParty), Address: address(obj(buyerParty, "address"))}
	if w.Country = countryOf(c, buyerParty); w.Country == 0 {
		w.Country = prefixCountry(ocid)
	}
	for _, item := range objects(tender["items"]) {
		if cpv := cpvOf(obj(item, "classification")); cpv != "" && !contains(w.CPVCodes, cpv) {
			w.CPVCodes = append(w.CPVCodes, cpv)
		}
	}
	for _, l := range objects(tender["lots"]) {
		lot := tenderbase.WorldLot{ID: str(l, "id"), Title: str(l, "title"), Description: str(l, "description")}
		lot.Value, lot.Currency = money(obj(l, "value"))
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
	if w.Title == "" {
		return nil, tenderbase.Errorf(tenderbase.EINVALID, "OCDS process %s names no tender, award, contract or budget: nothing to show as a tender", ocid)
	}
	return w, nil
}

// buyerOf returns the buyer reference and the party it names: the buyer, or
// else the tender's procuring entity, or else the party with the buyer or
// procuringEntity role.
func buyerOf(c map[string]any) (ref, party map[string]any) {
	ref = obj(c, "buyer")
	if ref == nil {
		ref = obj(obj(c, "tender"), "procuringEntity")
	}
	parties := objects(c["parties"])
	for _, p := range parties {
		if ref != nil && idOf(p) != "" && idOf(p) == idOf(ref) {
			return ref, p
		}
	}
	for _, role := range []string{"buyer", "procuringEntity"} {
		for _, p := range parties {
			if contains(strs(p["roles"]), role) {
				return ref, p
			}
		}
	}
	return ref, nil
}

// countryOf returns the country of the buyer's address, or of the one
// country all parties share.
func countryOf(c, buyer map[string]any) int {
	if n := country.Numeric(str(obj(buyer, "address"), "countryName")); n != 0 {
		return n
	}
	found := 0
	for _, p := range objects(c["parties"]) {
		n := country.Numeric(str(obj(p, "address"), "countryName"))
		if n != 0 && found != 0 && n != found {
			return 0
		}
		if n != 0 {
			found = n
		}
	}
	return found
}

// cpvOf returns the code of a CPV classification.
func cpvOf(cl map[string]any) string {
	if strings.HasPrefix(strings.ToUpper(str(cl, "scheme")), "CPV") {
		return str(cl, "id")
	}
	return ""
}

func identifier(party map[string]any) string {
	id := obj(party, "identifier")
	return firstNonEmpty(str(id, "id"), str(id, "legalName"))
}

func address(a map[string]any) string {
	var parts []string
	for _, k := range []string{"streetAddress", "locality", "region", "postalCode", "countryName"} {
		if v := strings.TrimSpace(str(a, k)); v != "" && v != "-" {
			parts = append(parts, v)
		}
	}
	return strings.Join(parts, ", ")
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

func money(v map[string]any) (float64, string) {
	return number(v["amount"]), str(v, "currency")
}

func number(v any) float64 {
	switch n := v.(type) {
	case json.Number:
		f, _ := n.Float64()
		return f
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
