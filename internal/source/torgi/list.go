package torgi

import (
	"fmt"
	"net/url"
	"path"
	"strings"

	"github.com/tenderbase/tenderbase"
)

// listObject is an entry of an open-data daily list (structure-20240401.json,
// "OpenDataList" version 3.1): the document's type, the registry number of
// the notice it belongs to, when it was published and where it is. The
// codes of the organizer, right holder, bidding type, ownership and regions
// (bidderOrgCode, rightHolderCode, biddTypeCode, ownershipFormsCode,
// subjectEstateCode, subjectRightHolderCode) are the notice's, which gives
// them in full, and are not read.
type listObject struct {
	DocumentType string `json:"documentType"`
	RegNum       string `json:"regNum"`
	PublishDate  string `json:"publishDate"`
	Href         string `json:"href"`
}

// listEvents are the types of list documents that change a notice's lots,
// as the list structure defines them, and the lot event each is read as.
var listEvents = map[string]string{
	"noticeCancel":     tenderbase.LotEventCancellation, // Отмена извещения
	"noticeAnnulment":  tenderbase.LotEventAnnulment,    // Информация о аннулировании результатов торгов
	"noticeStop":       tenderbase.LotEventStop,         // Уведомление о приостановке процедуры
	"noticeResumption": tenderbase.LotEventResumption,   // Уведомление о возобновление
}

// decodeList reads the entries of a daily list for cancellations,
// annulments, stops and resumptions as lot events: the entry names the
// notice (regNum), the document's type and when it was published, which is
// all the event needs; the document itself, whose content has no published
// shape, is not fetched (docs/torgi.md). The entries for notices and
// clarifications are addresses only, and a note says how many there were.
func decodeList(objects []listObject, emit func(line int, rec tenderbase.Record, err error) error) error {
	var notices, clarifications, others int
	for i, o := range objects {
		typ, ok := listEvents[o.DocumentType]
		switch {
		case o.DocumentType == "notice":
			notices++
		case o.DocumentType == "clarifications":
			clarifications++
		case !ok:
			others++
		default:
			e, err := o.event(typ)
			if err := emit(i+1, e, err); err != nil {
				return err
			}
		}
	}
	if notices+clarifications+others == 0 {
		return nil
	}
	return emit(0, nil, listNote(fmt.Sprintf("the list names %d notice(s), %d clarification(s) and %d document(s) of other types by address only: "+
		"download each notice (href) and import it; clarifications are not read", notices, clarifications, others)))
}

// event returns the entry as a lot event of type typ.
func (o listObject) event(typ string) (tenderbase.Record, error) {
	published := parseTime(o.PublishDate)
	if o.RegNum == "" || published.IsZero() {
		return nil, tenderbase.Errorf(tenderbase.EINVALID, "torgi.gov.ru list entry %s without regNum or publishDate", tenderbase.Quote(o.Href))
	}
	id := o.file()
	if id == "" {
		id = o.DocumentType + "_" + o.RegNum + "_" + o.PublishDate
	}
	return &tenderbase.LotEvent{
		ID: id, Source: tenderbase.LotSourceTorgi, Type: typ, Document: o.DocumentType,
		Number: strings.TrimPrefix(id, o.DocumentType+"_"+o.RegNum+"_"), Message: o.RegNum,
		PublishedAt: published, URL: o.Href,
	}, nil
}

// file returns the name the publisher gives the document, without .json:
// noticeCancel_<regNum>_<uuid>, the uuid being new for each document.
func (o listObject) file() string {
	u, err := url.Parse(o.Href)
	if err != nil || !strings.HasSuffix(u.Path, ".json") {
		return ""
	}
	return strings.TrimSuffix(path.Base(u.Path), ".json")
}

// listNote is a word about a list for the import's summary, not a rejection.
type listNote string

func (n listNote) Error() string { return string(n) }
func (listNote) FileNote() bool  { return true }
