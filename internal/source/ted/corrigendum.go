package ted

import (
	"regexp"
	"strings"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/source/xmlread"
)

// ojsNumber is a notice's number in the Official Journal, 2022/S 098-267307:
// the year and the number that make its DOC_ID, 267307-2022.
var ojsNumber = regexp.MustCompile(`^(\d{4})/S \d+-(\d+)$`)

// correctedNotice returns the DOC_ID of the notice a corrigendum (form F14)
// corrects, from its NOTICE_DATA/REF_NOTICE/NO_DOC_OJS; "" for any other
// notice, or a corrigendum whose reference is not an OJ number.
func correctedNotice(form, data *xmlread.Node) string {
	if form == nil || !strings.HasPrefix(form.Name, "F14") {
		return ""
	}
	m := ojsNumber.FindStringSubmatch(data.Child("REF_NOTICE", "NO_DOC_OJS").Text())
	if m == nil {
		return ""
	}
	return m[2] + "-" + m[1]
}

// amend turns the corrigendum w, published as notice id, into a version of
// the notice it corrects: keyed by that notice's id, speaking as of the
// corrigendum's publication, so that WorldTender.Merge lets it give what it
// restates (title, description, buyer, the deadline as corrected) and keeps
// the rest from the notice. It leaves out what it states only in part or
// about itself: its kind ("Additional information"), the CPV codes (only
// the main one is repeated), lots, values and documents.
func amend(w *tenderbase.WorldTender, id, corrected string) {
	w.ID = "ted:" + corrected
	w.URL = strings.Replace(w.URL, ":"+id+":", ":"+corrected+":", 1)
	w.Updated = w.PublishedAt
	w.NoticeType = ""
	w.CPVCodes, w.Lots, w.Documents = nil, nil, nil
	w.Value, w.Currency, w.AwardedValue, w.AwardedCurrency = 0, "", 0, ""
}
