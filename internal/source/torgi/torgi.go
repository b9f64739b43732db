// Package torgi reads the JSON that torgi.gov.ru (ГИС Торги) publishes: the
// lot cards of its public API, alone (/lotcards/{id}) or as a search page
// (/lotcards/search, {"content": [...]}), the notices of its open data
// ({"exportObject": {"structuredObject": {"notice": ...}}}), and the daily
// lists of the open data ({"listObjects": [...]}), whose entries for
// cancellations, annulments, stops and resumptions become lot events. Each lot becomes
// one tenderbase.Lot keyed <notice number>_<lot number>, as torgi.gov.ru
// keys its cards, so that a card and the notice of the same lot merge.
// docs/torgi.md says where each field comes from.
package torgi

import (
	"encoding/json"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/source/jsonread"
)

// Format is torgi.gov.ru JSON as a source format.
type Format struct{}

// Name returns the name of the format.
func (Format) Name() string { return "torgi.gov.ru JSON" }

// WholeFiles reports that the lots of a file are stored together.
func (Format) WholeFiles() bool { return true }

// Detect reports whether a file starting with prefix is a lot card, a
// search page of lot cards or an open-data document of torgi.gov.ru.
func (Format) Detect(prefix []byte) bool {
	m := jsonread.TopMembers(prefix, "noticeNumber", "lotNumber", "lotStatus", "content", "totalPages", "exportObject", "listObjects")
	has := func(name string) bool {
		for _, n := range m {
			if n == name {
				return true
			}
		}
		return false
	}
	return has("noticeNumber") && (has("lotNumber") || has("lotStatus")) ||
		has("content") && has("totalPages") || has("exportObject") || has("listObjects")
}

// Decode reads every lot of r.
func (Format) Decode(_ string, r io.Reader, emit func(line int, rec tenderbase.Record, err error) error) error {
	var doc struct {
		card
		Content      *[]json.RawMessage `json:"content"`
		ExportObject *exportObject      `json:"exportObject"`
		ListObjects  *[]listObject      `json:"listObjects"`
	}
	if err := json.NewDecoder(r).Decode(&doc); err != nil {
		return emit(0, nil, tenderbase.Errorf(tenderbase.EINVALID, "torgi.gov.ru JSON does not parse: %v", err))
	}
	switch {
	case doc.ListObjects != nil:
		return decodeList(*doc.ListObjects, emit)
	case doc.ExportObject != nil:
		return doc.ExportObject.decode(emit)
	case doc.Content != nil:
		for i, raw := range *doc.Content {
			var c card
			err := json.Unmarshal(raw, &c)
			var rec tenderbase.Record
			if err == nil {
				rec, err = c.lot()
			}
			if err := emit(i+1, rec, err); err != nil {
				return err
			}
		}
		return nil
	}
	rec, err := doc.card.lot()
	return emit(1, rec, err)
}

// codeName is a reference value: {"code": "EA", "name": "Электронный аукцион"}.
type codeName struct {
	Code string `json:"code"`
	Name string `json:"name"`
}

// card is a lot card of the public API, as the search gives it and as the
// detail adds to it.
type card struct {
	ID              string           `json:"id"`
	NoticeNumber    string           `json:"noticeNumber"`
	LotNumber       int              `json:"lotNumber"`
	LotStatus       string           `json:"lotStatus"`
	BiddType        codeName         `json:"biddType"`
	BiddForm        codeName         `json:"biddForm"`
	LotName         string           `json:"lotName"`
	LotDescription  string           `json:"lotDescription"`
	PriceMin        jsonread.Number  `json:"priceMin"`
	PriceMinExact   jsonread.Number  `json:"priceMinExact"`
	PriceFin        jsonread.Number  `json:"priceFin"`
	PriceFinExact   jsonread.Number  `json:"priceFinExact"`
	PriceStep       jsonread.Number  `json:"priceStep"`
	Deposit         jsonread.Number  `json:"deposit"`
	CurrencyCode    string           `json:"currencyCode"`
	BiddStartTime   string           `json:"biddStartTime"`
	BiddEndTime     string           `json:"biddEndTime"`
	AuctionStart    string           `json:"auctionStartDate"`
	CreateDate      string           `json:"createDate"`
	FirstPublished  string           `json:"noticeFirstVersionPublicationDate"`
	SubjectRFCode   string           `json:"subjectRFCode"`
	Category        codeName         `json:"category"`
	EtpCode         string           `json:"etpCode"`
	EstateAddress   string           `json:"estateAddress"`
	IsAnnulled      bool             `json:"isAnnulled"`
	IsStopped       bool             `json:"isStopped"`
	Characteristics []characteristic `json:"characteristics"`
	Attributes      []attribute      `json:"attributes"`
	LotAttachments  []attachment     `json:"lotAttachments"`
	NoticeAttach    []attachment     `json:"noticeAttachments"`
}

// characteristic is a characteristic of what a lot sells. The lot card
// gives its unit as unit, the open-data notice as OKEI.
type characteristic struct {
	Code  string          `json:"code"`
	Name  string          `json:"name"`
	Value json.RawMessage `json:"characteristicValue"`
	Unit  *unit           `json:"unit"`
	OKEI  *unit           `json:"OKEI"`
}

type unit struct {
	Name   string `json:"name"`
	Symbol string `json:"symbol"`
}

// attribute is a dynamic attribute of a lot card: its code says what the
// law of the bidding asks (DA_owner_EA(229): the owner of seized property).
type attribute struct {
	Code     string          `json:"code"`
	FullName string          `json:"fullName"`
	Value    json.RawMessage `json:"value"`
}

// attachment is a file of a lot or a notice.
type attachment struct {
	FileID   string `json:"fileId"`
	FileName string `json:"fileName"`
	FileSize int64  `json:"fileSize"`
	TypeName string `json:"attachmentTypeName"`
}

// fileStore is where torgi.gov.ru serves the files a card names.
const fileStore = "https://torgi.gov.ru/new/file-store/v1/"

// lot returns the lot the card describes.
func (c *card) lot() (*tenderbase.Lot, error) {
	if c.NoticeNumber == "" || c.LotNumber == 0 {
		return nil, tenderbase.Errorf(tenderbase.EINVALID, "torgi.gov.ru lot card %s has no noticeNumber or lotNumber", tenderbase.Quote(c.ID))
	}
	l := &tenderbase.Lot{
		ID:           lotID(c.NoticeNumber, c.LotNumber),
		Source:       tenderbase.LotSourceTorgi,
		NoticeNumber: c.NoticeNumber,
		LotNumber:    c.LotNumber,
		Title:        clean(c.LotName),
		Description:  clean(c.LotDescription),
		Category:     clean(c.Category.Name),
		CategoryCode: c.Category.Code,
		BiddingType:  c.BiddType.Code,
		BiddingForm:  clean(c.BiddForm.Name),
		SourceStatus: c.LotStatus,
		Status:       state(c.LotStatus, c.IsAnnulled),
		Suspended:    c.IsStopped && state(c.LotStatus, c.IsAnnulled) == tenderbase.TenderActive,
		Region:       region(c.SubjectRFCode),
		Address:      clean(c.EstateAddress),
		StartPrice:   float64(first(c.PriceMinExact, c.PriceMin)),
		Deposit:      float64(c.Deposit),
		PriceStep:    float64(c.PriceStep),
		Currency:     currency(c.CurrencyCode),
		Platform:     c.EtpCode,
		Properties:   properties(c.Characteristics),
		Attachments:  attachments(append(append([]attachment(nil), c.LotAttachments...), c.NoticeAttach...)),
		PublishedAt:  parseTime(first(c.FirstPublished, c.CreateDate)),
		BiddingStart: parseTime(c.BiddStartTime),
		BiddingEnd:   parseTime(c.BiddEndTime),
		AuctionDate:  parseTime(c.AuctionStart),
		URL:          "https://torgi.gov.ru/new/public/lots/lot/" + lotID(c.NoticeNumber, c.LotNumber),
	}
	if l.Description == l.Title {
		l.Description = ""
	}
	if l.Title == "" {
		l.Title = l.Description
	}
	for _, a := range c.Attributes {
		// The owner of seized property (229-FZ) is named in words only.
		if strings.HasPrefix(a.Code, "DA_owner_") {
			l.Debtor.Name = clean(text(a.Value))
		}
	}
	l.Result = result(c.LotStatus, float64(first(c.PriceFinExact, c.PriceFin)))
	return l, nil
}

// lotID is the id torgi.gov.ru gives a lot card.
func lotID(notice string, lot int) string { return notice + "_" + strconv.Itoa(lot) }

// state returns the tender state of a lot status of torgi.gov.ru.
func state(status string, annulled bool) string {
	if annulled {
		return tenderbase.TenderCancelled
	}
	switch status {
	case "PUBLISHED", "APPLICATIONS_SUBMISSION", "DETERMINING_WINNER":
		return tenderbase.TenderActive
	case "SUCCEED":
		return tenderbase.TenderCompleted
	case "FAILED":
		return tenderbase.TenderFailed
	case "CANCELED", "ANNULLED":
		return tenderbase.TenderCancelled
	}
	return ""
}

// result returns how a finished lot ended, or nil while it runs.
func result(status string, price float64) *tenderbase.LotResult {
	switch status {
	case "SUCCEED":
		return &tenderbase.LotResult{Outcome: tenderbase.LotSold, Price: price}
	case "FAILED":
		return &tenderbase.LotResult{Outcome: tenderbase.LotFailed}
	case "CANCELED", "ANNULLED":
		return &tenderbase.LotResult{Outcome: tenderbase.LotCancelled}
	}
	return nil
}

// properties returns the characteristics that have a value.
func properties(cs []characteristic) []tenderbase.LotProperty {
	var out []tenderbase.LotProperty
	for _, c := range cs {
		v := clean(text(c.Value))
		if v == "" {
			continue
		}
		p := tenderbase.LotProperty{Code: c.Code, Name: clean(c.Name), Value: v}
		for _, u := range []*unit{c.Unit, c.OKEI} {
			if u != nil && p.Unit == "" {
				p.Unit = first(u.Symbol, u.Name)
			}
		}
		out = append(out, p)
	}
	return out
}

// text returns a value as words: a string, a number, a {code, name} or a
// list of them (a multiselect) joined by "; ".
func text(raw json.RawMessage) string {
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var f float64
	if json.Unmarshal(raw, &f) == nil {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	var cn codeName
	if json.Unmarshal(raw, &cn) == nil && cn.Name != "" {
		return cn.Name
	}
	var list []json.RawMessage
	if json.Unmarshal(raw, &list) == nil {
		parts := make([]string, 0, len(list))
		for _, item := range list {
			if t := text(item); t != "" {
				parts = append(parts, t)
			}
		}
		return strings.Join(parts, "; ")
	}
	return ""
}

// attachments returns the files with their addresses in the file store.
func attachments(as []attachment) []tenderbase.Attachment {
	var out []tenderbase.Attachment
	for _, a := range as {
		if a.FileID == "" {
			continue
		}
		out = append(out, tenderbase.Attachment{FileName: a.FileName, Description: strings.TrimSpace(a.TypeName),
			URL: fileStore + a.FileID, Size: a.FileSize})
	}
	return out
}

// region returns the region code of a subject of the Russian Federation,
// or 0.
func region(code string) int {
	n, err := strconv.Atoi(strings.TrimSpace(code))
	if err != nil || n <= 0 || n > 99 {
		return 0
	}
	return n
}

// currency returns the ISO 4217 letters of a currency torgi.gov.ru gives by
// its number; the rouble is nearly every lot's.
func currency(code string) string {
	switch code {
	case "643", "":
		return "RUB"
	case "840":
		return "USD"
	case "978":
		return "EUR"
	}
	return code
}

// timeLayouts are the forms torgi.gov.ru writes times in: with a Z, with
// milliseconds and an offset, or a bare date.
var timeLayouts = []string{time.RFC3339Nano, "2006-01-02T15:04:05.000-07:00", "2006-01-02T15:04:05.000Z0700", "2006-01-02T15:04:05", "2006-01-02"}

// parseTime reads a time, or returns zero for one it cannot read.
func parseTime(s string) time.Time {
	s = strings.TrimSpace(s)
	for _, layout := range timeLayouts {
		if t, err := time.Parse(layout, s); err == nil {
			return t
		}
	}
	return time.Time{}
}

// clean trims s and folds its runs of white space.
func clean(s string) string { return strings.Join(strings.Fields(s), " ") }

// first returns the first of values that is not zero.
func first[T comparable](values ...T) T {
	var zero T
	for _, v := range values {
		if v != zero {
			return v
		}
	}
	return zero
}

// errNoLots is the error of a notice without lots.
func errNoLots(number string) error {
	return tenderbase.Errorf(tenderbase.EINVALID, "torgi.gov.ru notice %s has no lots", tenderbase.Quote(number))
}
