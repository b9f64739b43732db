package export

import (
	"strconv"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/jsonstring"
)

// ErrorDocument returns the body of an error answer in format f: in JSON
// {"error":{"code":...,"message":...}}, the body of every error of the
// service, and in XML <error code="...">message</error>. An error of a CSV
// or XLSX request is JSON (Format.ErrorFormat).
func ErrorDocument(f Format, code, message string) []byte {
	if f.ErrorFormat() == JSON {
		buf := append([]byte(`{"error":{"code":`), strconv.Quote(code)...)
		buf = append(buf, `,"message":`...)
		buf = jsonstring.Append(buf, message)
		return append(buf, "}}\n"...)
	}
	buf := append([]byte(xmlHeader), `<error code="`...)
	buf = appendXMLAttr(buf, code)
	buf = append(buf, `">`...)
	buf = appendXMLText(buf, message)
	return append(buf, "</error>\n"...)
}

// ContentType returns the media type of documents in format f.
func ContentType(f Format) string {
	switch f {
	case JSON:
		return "application/json; charset=utf-8"
	case CSV:
		return "text/csv; charset=utf-8"
	case XLSX:
		return "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
	}
	return "application/xml; charset=utf-8"
}

// KindOf returns the kind of record request q exports.
func KindOf(q Request) tenderbase.Kind {
	switch {
	case q.Mode == ModeFas:
		return tenderbase.KindFASCase
	case q.Result:
		return tenderbase.KindComplaintResult
	}
	return tenderbase.KindComplaint
}
