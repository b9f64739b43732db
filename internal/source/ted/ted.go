// Package ted reads the notices of TED, the EU's Tenders Electronic Daily, in
// its XML export format R2.0.9 (<TED_EXPORT>): every standard form F01-F25
// and the older R2.0.8 forms some notices still carry. A notice becomes a
// tenderbase.WorldTender in its original language.
//
// The coded data section (<CODED_DATA_SECTION>) is the same for every form
// and gives the country, language, dates, CPV codes, values and the notice's
// kind; the form in the original language (<FORM_SECTION>) gives the buyer,
// the title, the description, the lots and the documents' address. Forms
// differ in where they put these, so the form is read as a tree and asked by
// element name (internal/source/xmlread.Node).
package ted

import (
	"cmp"
	"io"
	"strings"
	"time"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/country"
	"github.com/tenderbase/tenderbase/internal/source/xmlread"
)

// Format is TED XML as a source format.
type Format struct{}

// Name returns the name of the format.
func (Format) Name() string { return "TED XML" }

// WholeFiles reports that every file is one notice.
func (Format) WholeFiles() bool { return true }

// Detect reports whether a file starting with prefix is a TED export: its
// root is <TED_EXPORT>.
func (Format) Detect(prefix []byte) bool {
	root, err := xmlread.NextElement(xmlread.NewDecoder(strings.NewReader(string(prefix))))
	return err == nil && root.Name.Local == "TED_EXPORT"
}

// Decode reads the notice of r.
func (Format) Decode(_ string, r io.Reader, emit func(line int, rec tenderbase.Record, err error) error) error {
	root, err := xmlread.ReadDocument(r)
	if err != nil {
		return emit(0, nil, tenderbase.Errorf(tenderbase.EINVALID, "TED XML does not parse: %v", err))
	}
	w, err := notice(root)
	if err != nil {
		return emit(0, nil, err)
	}
	return emit(0, w, nil)
}

// notice maps a <TED_EXPORT>.
func notice(root *xmlread.Node) (*tenderbase.WorldTender, error) {
	id := root.Attr("DOC_ID")
	if id == "" {
		return nil, tenderbase.Errorf(tenderbase.EINVALID, "TED notice has no DOC_ID")
	}
	coded := root.Child("CODED_DATA_SECTION")
	data, codif := coded.Child("NOTICE_DATA"), coded.Child("CODIF_DATA")
	lang := data.Child("LG_ORIG").Text()
	iso := data.Child("ISO_COUNTRY").Attr("VALUE")
	form := originalForm(root.Child("FORM_SECTION"), lang)
	w := &tenderbase.WorldTender{
		ID: "ted:" + id, Source: "ted", Country: country.Numeric(iso),
		Language:      strings.ToLower(lang),
		PublishedAt:   day(coded.Child("REF_OJS", "DATE_PUB").Text(), nil),
		Deadline:      day(codif.Child("DT_DATE_FOR_SUBMISSION").Text(), Zone(iso, buyerNUTS(data, form))),
		NoticeType:    codif.Child("TD_DOCUMENT_TYPE").Text(),
		ProcedureType: codif.Child("PR_PROC").Text(),
		ContractType:  strings.ToLower(codif.Child("NC_CONTRACT_NATURE").Text()),
		URL:           documentURI(data, lang),
	}
	for _, cpv := range data.All("ORIGINAL_CPV") {
		w.CPVCodes = appendOnce(w.CPVCodes, cpv.Attr("CODE"))
	}
	readForm(w, form)
	w.Awards = awards(form)
	codedValues(w, data)
	formValues(w, form)
	if w.Title == "" {
		w.Title = translatedTitle(root, lang)
	}
	if w.Title == "" {
		return nil, tenderbase.Errorf(tenderbase.EINVALID, "TED notice %s has no title", id)
	}
	if corrected := correctedNotice(form, data); corrected != "" {
		amend(w, id, corrected)
	}
	return w, nil
}

// codedValues reads the values of the coded data: R2.0.9's VALUES/VALUE,
// by TYPE the estimate (ESTIMATED_TOTAL) or the total awarded
// (PROCUREMENT_TOTAL), and R2.0.8's VALUES_LIST, whose GLOBAL value is the
// total awarded in a notice of awards and the estimate in any other.
func codedValues(w *tenderbase.WorldTender, data *xmlread.Node) {
	for _, v := range data.Child("VALUES").All("VALUE") {
		switch v.Attr("TYPE") {
		case "ESTIMATED_TOTAL":
			setValue(&w.Value, &w.Currency, v)
		case "PROCUREMENT_TOTAL":
			setValue(&w.AwardedValue, &w.AwardedCurrency, v)
		}
	}
	for _, vs := range data.Child("VALUES_LIST").All("VALUES") {
		v := vs.Child("SINGLE_VALUE", "VALUE")
		if vs.Attr("TYPE") != "GLOBAL" || v == nil {
			continue // the CONTRACT values repeat the awards'
		}
		if len(w.Awards) > 0 {
			setValue(&w.AwardedValue, &w.AwardedCurrency, v)
		} else {
			setValue(&w.Value, &w.Currency, v)
		}
	}
}

// formValues takes from the form the values the coded data lack: the
// estimate (VAL_ESTIMATED_TOTAL) and the total awarded (R2.0.9 VAL_TOTAL,
// R2.0.8 TOTAL_FINAL_VALUE) of the whole procurement.
func formValues(w *tenderbase.WorldTender, form *xmlread.Node) {
	object := form.Find("OBJECT_CONTRACT")
	if v := object.Child("VAL_ESTIMATED_TOTAL"); v != nil {
		setValue(&w.Value, &w.Currency, v)
	}
	if v := object.Child("VAL_TOTAL"); v != nil {
		setValue(&w.AwardedValue, &w.AwardedCurrency, v)
	}
	if c := form.Find("TOTAL_FINAL_VALUE").Child("COSTS_RANGE_AND_CURRENCY_WITH_VAT_RATE"); c != nil && w.AwardedValue == 0 {
		w.AwardedValue, w.AwardedCurrency = cost(c)
	}
}

// setValue sets an amount and its currency from v unless one is set.
func setValue(value *float64, currency *string, v *xmlread.Node) {
	if *value == 0 {
		*value, *currency = priced(v)
	}
}

// buyerNUTS returns the NUTS code of the buyer's region: the coded data's
// CA_CE_NUTS (R2.0.9), else the one of the buyer's address in the form.
func buyerNUTS(data, form *xmlread.Node) string {
	if c := data.Find("CA_CE_NUTS").Attr("CODE"); c != "" {
		return c
	}
	return form.Find("ADDRESS_CONTRACTING_BODY").Find("NUTS").Attr("CODE")
}

// originalForm returns the form in the notice's original language: the one
// marked ORIGINAL, or in language lang, or the first.
func originalForm(section *xmlread.Node, lang string) *xmlread.Node {
	var first *xmlread.Node
	for _, f := range section.Children {
		if f.Attr("LG") == "" && f.Attr("CATEGORY") == "" {
			continue // NOTICE_UUID and the like
		}
		if first == nil {
			first = f
		}
		if f.Attr("CATEGORY") == "ORIGINAL" || (lang != "" && f.Attr("LG") == lang) {
			return f
		}
	}
	return first
}

// readForm takes the buyer, title, description, lots and documents from the
// form.
func readForm(w *tenderbase.WorldTender, form *xmlread.Node) {
	body := form.Find("ADDRESS_CONTRACTING_BODY")
	if body == nil {
		body = form // the R2.0.8 forms nest the address deeper: the first OFFICIALNAME is the buyer's
	}
	w.Buyer = tenderbase.Party{
		Name:    body.Find("OFFICIALNAME").Line(),
		RegNum:  nationalID(body.Find("NATIONALID").Text()),
		Address: joinNonEmpty(", ", body.Find("ADDRESS").Line(), body.Find("POSTAL_CODE").Text(), body.Find("TOWN").Line()),
	}
	object := form.Find("OBJECT_CONTRACT")
	w.Title = object.Child("TITLE").Line()
	if w.Title == "" {
		w.Title = form.Find("TITLE_CONTRACT").Line()
	}
	w.Description = object.Child("SHORT_DESCR").Paragraphs()
	if w.Description == "" {
		w.Description = form.Find("SHORT_CONTRACT_DESCRIPTION").Paragraphs() // R2.0.8
	}
	if u := form.Find("URL_DOCUMENT").Text(); u != "" {
		w.Documents = append(w.Documents, tenderbase.Attachment{URL: u, Description: "procurement documents"})
	}
	w.Lots = lots(object)
}

// lots reads the <OBJECT_DESCR>s of a notice divided into lots; a notice of
// one object without a lot number has no lots of its own.
func lots(object *xmlread.Node) []tenderbase.WorldLot {
	descrs := object.All("OBJECT_DESCR")
	if len(descrs) == 1 && descrs[0].Child("LOT_NO") == nil {
		return nil
	}
	var out []tenderbase.WorldLot
	for _, d := range descrs {
		l := tenderbase.WorldLot{
			ID: cmp.Or(d.Child("LOT_NO").Text(), d.Attr("ITEM")), Title: d.Child("TITLE").Line(),
			Description: d.Child("SHORT_DESCR").Paragraphs(),
		}
		for _, c := range d.FindAll("CPV_CODE") {
			l.CPVCodes = appendOnce(l.CPVCodes, c.Attr("CODE"))
		}
		if v := d.Child("VAL_OBJECT"); v != nil {
			l.Value, l.Currency = priced(v)
		}
		out = append(out, l)
	}
	return out
}

// documentURI returns the notice's address on TED in its original language.
func documentURI(data *xmlread.Node, lang string) string {
	uris := data.Child("URI_LIST").All("URI_DOC")
	for _, u := range uris {
		if u.Attr("LG") == lang {
			return u.Text()
		}
	}
	if len(uris) > 0 {
		return uris[0].Text()
	}
	return ""
}

// translatedTitle returns the title the translation section gives in lang,
// for forms whose own title is elsewhere.
func translatedTitle(root *xmlread.Node, lang string) string {
	for _, t := range root.Child("TRANSLATION_SECTION", "ML_TITLES").All("ML_TI_DOC") {
		if t.Attr("LG") == lang {
			return t.Child("TI_TEXT").Line()
		}
	}
	return ""
}

// nationalID drops the placeholders buyers write for "none".
func nationalID(id string) string {
	switch strings.ToUpper(id) {
	case "N/A", "NA", "-", "0":
		return ""
	}
	return id
}

// day reads TED's dates, 20210713 or "20210811 10:00", given without a
// zone: the buyer's local time, read in loc where the buyer's zone is
// known, else kept as that clock time in UTC.
func day(s string, loc *time.Location) time.Time {
	if loc == nil {
		loc = time.UTC
	}
	for _, layout := range []string{"20060102 15:04", "20060102"} {
		if t, err := time.ParseInLocation(layout, s, loc); err == nil {
			return t
		}
	}
	return time.Time{}
}

func appendOnce(list []string, s string) []string {
	if s == "" {
		return list
	}
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
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
