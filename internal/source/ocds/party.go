package ocds

import (
	"regexp"
	"strings"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/country"
)

// parties indexes the parties of a compiled release by id.
type parties map[string]map[string]any

func partiesOf(c map[string]any) parties {
	ps := parties{}
	for _, p := range objects(c["parties"]) {
		if id := idOf(p); id != "" {
			if _, seen := ps[id]; !seen {
				ps[id] = p
			}
		}
	}
	return ps
}

// organization returns the party an organization reference names, or the
// reference itself where it carries the organization's details, as OCDS
// 1.0 writes them in place (a name, an identifier, an address).
func (ps parties) organization(ref map[string]any) map[string]any {
	if p, ok := ps[idOf(ref)]; ok && idOf(ref) != "" {
		return p
	}
	if ref["identifier"] != nil || ref["address"] != nil {
		return ref
	}
	return nil
}

// buyerOf returns the buyer reference and the party it names: the buyer, or
// else the tender's procuring entity, or else the party with the buyer or
// procuringEntity role.
func buyerOf(c map[string]any, ps parties) (ref, party map[string]any) {
	ref = obj(c, "buyer")
	if ref == nil {
		ref = obj(obj(c, "tender"), "procuringEntity")
	}
	if p := ps.organization(ref); p != nil {
		return ref, p
	}
	for _, role := range []string{"buyer", "procuringEntity"} {
		for _, p := range objects(c["parties"]) {
			if contains(strs(p["roles"]), role) {
				return ref, p
			}
		}
	}
	return ref, nil
}

// buyer returns the buyer as a party: its name from the reference or the
// party (the party's name, its identifier's legal name, or their English
// versions name_en and legalName_en).
func buyer(ref, party map[string]any) tenderbase.Party {
	return tenderbase.Party{Name: orgName(ref, party), RegNum: identifierID(party), Address: address(obj(party, "address"))}
}

func orgName(ref, party map[string]any) string {
	id := obj(party, "identifier")
	return cleanText(firstNonEmpty(str(ref, "name"), str(party, "name"), str(id, "legalName"),
		str(ref, "name_en"), str(party, "name_en"), str(id, "legalName_en")))
}

// identifierID returns the id of a party's identifier, leaving out the
// placeholders publishers write for none ("null", "-").
func identifierID(party map[string]any) string {
	id := str(obj(party, "identifier"), "id")
	if strings.EqualFold(id, "null") || id == "-" {
		return ""
	}
	return id
}

// buyerCountry returns the buyer's country: its address's, else its
// identifier scheme's, else the one country all parties share, else that of
// the publisher of the ocid's prefix; 0 when none tells.
func buyerCountry(c, party map[string]any) int {
	if n := partyCountry(party); n != 0 {
		return n
	}
	found := 0
	for _, p := range objects(c["parties"]) {
		n := country.Numeric(str(obj(p, "address"), "countryName"))
		if n != 0 && found != 0 && n != found {
			found = -1
			break
		}
		if n != 0 {
			found = n
		}
	}
	if found > 0 {
		return found
	}
	return prefixCountry(str(c, "ocid"))
}

// partyCountry returns the country of a party's address, else the country
// its identifier's scheme is registered in; 0 when neither tells.
func partyCountry(party map[string]any) int {
	if n := country.Numeric(str(obj(party, "address"), "countryName")); n != 0 {
		return n
	}
	return schemeCountry(str(obj(party, "identifier"), "scheme"))
}

// orgIDScheme is a scheme of org-id.guide: an ISO 3166 alpha-2 code, a
// hyphen and a list's letters (GB-COH, UA-EDR, MX-RFC, GB-GOVUK-…). A
// scheme of digits after the prefix (MK-009KDH999, a Mexican buyer's own)
// is no org-id one and tells no country.
var orgIDScheme = regexp.MustCompile(`^([A-Z]{2})-[A-Z]+(-|$)`)

// schemeCountry returns the country of an org-id.guide scheme, 0 for
// others and for the prefixes that name no country (XI, XM…).
func schemeCountry(scheme string) int {
	m := orgIDScheme.FindStringSubmatch(strings.TrimSpace(scheme))
	if m == nil || m[1] == "UK" || m[1] == "EL" { // org-id writes GB and GR; UK-… and EL-… are not its lists
		return 0
	}
	return country.Numeric(m[1])
}

// winner returns the supplier an organization reference names.
func (ps parties) winner(ref map[string]any) tenderbase.WorldWinner {
	p := ps.organization(ref)
	scale := str(obj(p, "details"), "scale")
	return tenderbase.WorldWinner{
		Name: orgName(ref, p), ID: identifierID(p), IDScheme: str(obj(p, "identifier"), "scheme"),
		Country: partyCountry(p), Town: str(obj(p, "address"), "locality"),
		Size: scale, SME: scale == "sme" || scale == "micro",
	}
}

// winners returns the suppliers of an award or contract: an array of
// references, or one reference where a publisher writes an object.
func (ps parties) winners(v any) []tenderbase.WorldWinner {
	refs := objects(v)
	if m, ok := v.(map[string]any); ok {
		refs = []map[string]any{m}
	}
	var out []tenderbase.WorldWinner
	for _, ref := range refs {
		if w := ps.winner(ref); w.Name != "" || w.ID != "" {
			out = append(out, w)
		}
	}
	return out
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
