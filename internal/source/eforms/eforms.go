// Package eforms reads TED eForms notices (UBL XML, eForms SDK 1.x): prior
// information notices (<PriorInformationNotice>), contract notices
// (<ContractNotice>) and contract award notices (<ContractAwardNotice>) of
// every subtype. A notice becomes a tenderbase.WorldTender in its own
// language, with the awards of its results (efac:NoticeResult, award.go)
// where it has them.
//
// eForms names the buyer once, in the organizations of its extension
// (efac:Organizations), and refers to it by id from cac:ContractingParty;
// texts may come in several languages, each with its languageID. The notice
// is read as a tree and asked by element name (xmlread.Node): subtypes share
// the names but not the places.
package eforms

import (
	"io"
	"strconv"
	"strings"
	"time"
	"unicode"

	"golang.org/x/text/language"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/country"
	"github.com/tenderbase/tenderbase/internal/source/xmlread"
)

// Format is eForms XML as a source format.
type Format struct{}

// Name returns the name of the format.
func (Format) Name() string { return "eForms XML" }

// WholeFiles reports that every file is one notice.
func (Format) WholeFiles() bool { return true }

// roots are the notice documents of eForms.
var roots = map[string]bool{"PriorInformationNotice": true, "ContractNotice": true, "ContractAwardNotice": true}

// Detect reports whether a file starting with prefix is an eForms notice:
// its root is one of the three notice documents, in a UBL namespace.
func (Format) Detect(prefix []byte) bool {
	root, err := xmlread.NextElement(xmlread.NewDecoder(strings.NewReader(string(prefix))))
	return err == nil && roots[root.Name.Local] && strings.Contains(root.Name.Space, "oasis:names:specification:ubl")
}

// Decode reads the notice of r.
func (Format) Decode(_ string, r io.Reader, emit func(line int, rec tenderbase.Record, err error) error) error {
	root, err := xmlread.ReadDocument(r)
	if err != nil {
		return emit(0, nil, tenderbase.Errorf(tenderbase.EINVALID, "eForms XML does not parse: %v", err))
	}
	w, err := notice(root)
	if err != nil {
		return emit(0, nil, err)
	}
	return emit(0, w, nil)
}

// notice maps a notice document.
func notice(root *xmlread.Node) (*tenderbase.WorldTender, error) {
	ext := root.Child("UBLExtensions", "UBLExtension", "ExtensionContent", "EformsExtension")
	if ext == nil {
		ext = root.Find("EformsExtension")
	}
	pub := ext.Child("Publication")
	pubID := pub.Child("NoticePublicationID").Text()
	id := cmpOr(pubID, root.Child("ID").Text())
	if id == "" {
		return nil, tenderbase.Errorf(tenderbase.EINVALID, "eForms notice has neither a publication id nor an id")
	}
	lang := root.Child("NoticeLanguageCode").Text()
	project := root.Child("ProcurementProject")
	w := &tenderbase.WorldTender{
		ID: "eforms:" + id, Source: "eforms", Language: iso639_1(lang),
		Title: oneLine(inLanguage(project.All("Name"), lang)), Description: inLanguage(project.All("Description"), lang),
		PublishedAt:   date(cmpOr(pub.Child("PublicationDate").Text(), root.Child("IssueDate").Text()), ""),
		NoticeType:    root.Child("NoticeTypeCode").Text(),
		ProcedureType: root.Child("TenderingProcess", "ProcedureCode").Text(),
		ContractType:  project.Child("ProcurementTypeCode").Text(),
		CPVCodes:      cpvCodes(project),
		URL:           tedPage(pubID),
	}
	if v := project.Child("RequestedTenderTotal", "EstimatedOverallContractAmount"); v != nil {
		w.Value, w.Currency = amount(v.Text()), v.Attr("currencyID")
	}
	buyer := organization(ext, root.Child("ContractingParty", "Party", "PartyIdentification", "ID").Text())
	w.Buyer, w.Country = party(buyer, lang), country.Numeric(buyer.Find("Country").Child("IdentificationCode").Text())
	readLots(w, root, lang)
	if profile := root.Child("ContractingParty", "BuyerProfileURI").Text(); w.URL == "" {
		w.URL = profile
	} else if profile != "" && !hasDocument(w.Documents, profile) {
		w.Documents = append(w.Documents, tenderbase.Attachment{URL: profile, Description: "buyer profile"})
	}
	readAwards(w, ext, lang)
	if w.Title == "" {
		return nil, tenderbase.Errorf(tenderbase.EINVALID, "eForms notice %s has no title", id)
	}
	return w, nil
}

// readLots takes the lots, their documents and the earliest submission
// deadline. A group of lots (an id of scheme LotsGroup, GLO-0001) is no lot
// of its own: it only gathers lots for their award criteria or for a
// tender for several lots.
func readLots(w *tenderbase.WorldTender, root *xmlread.Node, lang string) {
	for _, lot := range root.All("ProcurementProjectLot") {
		if isGroup(lot.Child("ID")) {
			continue
		}
		p := lot.Child("ProcurementProject")
		l := tenderbase.WorldLot{
			ID: lot.Child("ID").Text(), Title: oneLine(inLanguage(p.All("Name"), lang)),
			Description: inLanguage(p.All("Description"), lang), CPVCodes: cpvCodes(p),
		}
		if v := p.Child("RequestedTenderTotal", "EstimatedOverallContractAmount"); v != nil {
			l.Value, l.Currency = amount(v.Text()), v.Attr("currencyID")
		}
		w.Lots = append(w.Lots, l)
		deadline := lot.Child("TenderingProcess", "TenderSubmissionDeadlinePeriod")
		if t := date(deadline.Child("EndDate").Text(), deadline.Child("EndTime").Text()); !t.IsZero() && (w.Deadline.IsZero() || t.Before(w.Deadline)) {
			w.Deadline = t
		}
		for _, ref := range lot.Child("TenderingTerms").All("CallForTendersDocumentReference") {
			if u := ref.Child("Attachment", "ExternalReference", "URI").Text(); u != "" && !hasDocument(w.Documents, u) {
				w.Documents = append(w.Documents, tenderbase.Attachment{URL: u, Description: ref.Child("DocumentType").Text()})
			}
		}
	}
}

// organization returns the company of the organization with id id.
func organization(ext *xmlread.Node, id string) *xmlread.Node {
	for _, o := range ext.Child("Organizations").All("Organization") {
		c := o.Child("Company")
		if c.Child("PartyIdentification", "ID").Text() == id {
			return c
		}
	}
	return nil
}

func party(c *xmlread.Node, lang string) tenderbase.Party {
	addr := c.Child("PostalAddress")
	return tenderbase.Party{
		Name:    partyNames(c, lang),
		RegNum:  c.Child("PartyLegalEntity", "CompanyID").Text(),
		Address: joinNonEmpty(", ", addr.Child("StreetName").Text(), addr.Child("PostalZone").Text(), addr.Child("CityName").Text()),
	}
}

// partyNames returns the name of a company in the notice's language: each
// language comes in a cac:PartyName of its own, or several in one.
func partyNames(c *xmlread.Node, lang string) string {
	var names []*xmlread.Node
	for _, pn := range c.All("PartyName") {
		names = append(names, pn.All("Name")...)
	}
	return inLanguage(names, lang)
}

// isGroup reports whether the id of a cac:ProcurementProjectLot is that of a
// group of lots.
func isGroup(id *xmlread.Node) bool {
	return id.Attr("schemeName") == "LotsGroup" || strings.HasPrefix(id.Text(), "GLO-")
}

// tedPage returns the address of the notice on TED, from its publication
// id: 00309890-2023 is https://ted.europa.eu/en/notice/-/detail/309890-2023,
// the number written without the zeros eForms pads it with, as TED's own
// links and search API write it. An id of another form gives "".
func tedPage(pubID string) string {
	num, year, ok := strings.Cut(pubID, "-")
	num = strings.TrimLeft(num, "0")
	if !ok || num == "" || len(year) != 4 || !digits(num) || !digits(year) {
		return ""
	}
	return "https://ted.europa.eu/en/notice/-/detail/" + num + "-" + year
}

func digits(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return r < '0' || r > '9' }) < 0
}

// oneLine returns a title without the line breaks and indentation its
// source wraps it in: a run of white space holding a line break or a tab
// becomes one space; spaces alone are kept as published.
func oneLine(s string) string {
	if !strings.ContainsAny(s, "\n\r\t") {
		return s
	}
	var b strings.Builder
	for s != "" {
		i := strings.IndexFunc(s, unicode.IsSpace)
		if i < 0 {
			b.WriteString(s)
			break
		}
		b.WriteString(s[:i])
		s = s[i:]
		j := strings.IndexFunc(s, func(r rune) bool { return !unicode.IsSpace(r) })
		if j < 0 {
			j = len(s)
		}
		if run := s[:j]; strings.ContainsAny(run, "\n\r\t") {
			b.WriteByte(' ')
		} else {
			b.WriteString(run)
		}
		s = s[j:]
	}
	return b.String()
}

// cpvCodes returns the main and additional CPV codes of a project.
func cpvCodes(project *xmlread.Node) []string {
	var out []string
	for _, el := range append(project.All("MainCommodityClassification"), project.All("AdditionalCommodityClassification")...) {
		code := el.Child("ItemClassificationCode")
		if c := code.Text(); c != "" && code.Attr("listName") == "cpv" && !contains(out, c) {
			out = append(out, c)
		}
	}
	return out
}

// inLanguage returns the text in the notice's language, or the first.
func inLanguage(texts []*xmlread.Node, lang string) string {
	for _, t := range texts {
		if t.Attr("languageID") == lang {
			return t.Text()
		}
	}
	if len(texts) > 0 {
		return texts[0].Text()
	}
	return ""
}

// iso639_1 turns eForms' ISO 639-2 code (ENG) into ISO 639-1 (en).
func iso639_1(code string) string {
	base, err := language.ParseBase(strings.ToLower(code))
	if err != nil {
		return strings.ToLower(code)
	}
	return base.String()
}

// date reads an eForms date and time, each with its zone: "2023-07-11+02:00"
// and "16:00:00+02:00", or "2023-05-25Z".
func date(d, t string) time.Time {
	if d == "" {
		return time.Time{}
	}
	day, zone := splitZone(d)
	clock := "00:00:00"
	if t != "" {
		clock, zone = splitZone(t)
	}
	v, err := time.Parse("2006-01-02T15:04:05Z07:00", day+"T"+clock+zone)
	if err != nil {
		return time.Time{}
	}
	return v
}

// splitZone cuts "2023-07-11+02:00" into "2023-07-11" and "+02:00"; no zone
// is UTC.
func splitZone(s string) (string, string) {
	if strings.HasSuffix(s, "Z") {
		return strings.TrimSuffix(s, "Z"), "Z"
	}
	if i := strings.LastIndexAny(s, "+-"); i >= 8 || (i > 0 && strings.Count(s, ":") >= 2 && i > 5) {
		return s[:i], s[i:]
	}
	return s, "Z"
}

func amount(s string) float64 {
	v, _ := strconv.ParseFloat(strings.TrimSpace(s), 64)
	return v
}

func hasDocument(docs []tenderbase.Attachment, url string) bool {
	for _, d := range docs {
		if d.URL == url {
			return true
		}
	}
	return false
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func joinNonEmpty(sep string, parts ...string) string {
	var out []string
	for _, p := range parts {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, sep)
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
