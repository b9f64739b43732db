package demo

import (
	"crypto/md5"
	"encoding/xml"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/tenderbase/tenderbase"
)

// The demo's bankruptcy lots as the arbitration managers' messages of
// fedresurs, in the shapes internal/source/efrsb reads (its testdata): an
// Auction <MessageData> per auction, a ChangeAuction for some, and a
// TradeResult for each auction that has passed. Each message is a file
// named by its number; the numbers grow with time, so that the files are
// read in the order they were published.

// FedresursBorn reports whether r comes in as fedresurs messages.
func FedresursBorn(r tenderbase.Record) bool {
	switch r := r.(type) {
	case *tenderbase.Lot:
		return r.Source == tenderbase.LotSourceFedresurs
	case *tenderbase.LotEvent:
		return r.Source == tenderbase.LotSourceFedresurs
	}
	return false
}

// WriteFedresurs returns the messages of the bankruptcy lots of recs.
func WriteFedresurs(recs []tenderbase.Record) ([]File, error) {
	var files []File
	auctions := map[string]*tenderbase.Lot{}
	for _, r := range recs {
		if l, ok := r.(*tenderbase.Lot); ok && FedresursBorn(l) {
			auctions[l.NoticeNumber] = l
		}
	}
	for _, r := range recs {
		if e, ok := r.(*tenderbase.LotEvent); ok && FedresursBorn(e) {
			l := auctions[e.Message]
			if l == nil {
				return nil, fmt.Errorf("lot event %s cancels message %s, of no demo auction", e.ID, e.Message)
			}
			files = append(files, cancelMessage(l, e))
			continue
		}
		if !FedresursBorn(r) {
			continue
		}
		l := r.(*tenderbase.Lot)
		files = append(files, auctionMessage(l))
		if c, ok := auctionChange(l); ok {
			files = append(files, changeMessage(l, c))
		}
		if l.Result != nil && l.Result.Outcome != tenderbase.LotCancelled {
			f, err := resultMessage(l)
			if err != nil {
				return nil, fmt.Errorf("lot %s: %w", l.ID, err)
			}
			files = append(files, f)
		}
	}
	return files, nil
}

// change is a ChangeAuction message: when it was published and by how
// much it put the auction off.
type change struct {
	Number    string
	Published time.Time
	Days      int
}

// auctionChange returns the change of l's auction, if its manager changed
// it: every third auction (by number) is put off by a week in a message
// five days after the announcement, unless that would fall after the
// demo's last day or after the applications closed.
func auctionChange(l *tenderbase.Lot) (change, bool) {
	n := atoi(l.NoticeNumber)
	p := l.PublishedAt.AddDate(0, 0, 5)
	c := change{Number: strconv.Itoa(n + 9500 + n%997), Published: time.Date(p.Year(), p.Month(), p.Day(), 10, 0, 0, 0, msk), Days: 7}
	ok := n%3 == 0 && !c.Published.After(lastDay) && c.Published.Before(l.BiddingEnd.AddDate(0, 0, -c.Days))
	return c, ok
}

// messageGUID is the GUID of the message with the number: the demo makes
// it of the number, so that a lot can name the page of its messages.
func messageGUID(number string) string {
	return fmt.Sprintf("%X", md5.Sum([]byte("fedresurs message "+number)))
}

// messageURL is the page of the message with the number, as the reader
// makes it of the message's GUID.
func messageURL(number string) string {
	return "https://fedresurs.ru/bankruptmessages/" + strings.ToLower(messageGUID(number))
}

// tradeTypes are the TradeType of each bidding form.
var tradeTypes = map[string]string{"Открытый аукцион": "OpenedAuction", "Публичное предложение": "PublicOffer"}

// auctionMessage returns the Auction message announcing l, with the dates
// it had before a change.
func auctionMessage(l *tenderbase.Lot) File {
	shift := 0
	if c, ok := auctionChange(l); ok {
		shift = c.Days
	}
	w := newMessage(l, l.NoticeNumber, l.PublishedAt, "Auction")
	w.open("Auction")
	auctionBody(w, l, shift, "Организатор торгов – конкурсный управляющий "+initials(l.Manager.Name)+" сообщает о проведении открытых торгов по продаже имущества должника: "+l.Debtor.Name+".")
	w.close("Auction")
	return w.file(l)
}

// changeMessage returns the ChangeAuction message that puts l's auction
// off.
func changeMessage(l *tenderbase.Lot, c change) File {
	w := newMessage(l, c.Number, c.Published, "ChangeAuction")
	w.open("ChangeAuction")
	auctionBody(w, l, 0, "Изменение сроков приёма заявок и даты проведения торгов.")
	w.leaf("IdChangedMessage", l.NoticeNumber)
	w.leaf("ChangeReason", "Перенос даты проведения торгов по требованию оператора электронной площадки")
	w.close("ChangeAuction")
	return w.file(l)
}

// auctionBody writes the elements of an Auction or a ChangeAuction, with
// the application and auction dates shift days earlier.
func auctionBody(w *messageWriter, l *tenderbase.Lot, shift int, text string) {
	w.leaf("Text", text)
	w.leaf("IsRepeat", "false")
	w.leaf("Date", moscow(l.AuctionDate.AddDate(0, 0, -shift)))
	w.leaf("TradeType", tradeTypes[l.BiddingForm])
	w.leaf("PriceType", "Public")
	w.open("Application")
	w.leaf("TimeBegin", moscow(l.BiddingStart))
	w.leaf("TimeEnd", moscow(l.BiddingEnd.AddDate(0, 0, -shift)))
	w.leaf("Rules", "Заявки на участие в торгах представляются оператору электронной площадки «"+l.Platform+"».")
	w.close("Application")
	w.leaf("TradeSite", l.Platform)
	w.open("LotTable")
	w.open("AuctionLot")
	w.leaf("Order", strconv.Itoa(l.LotNumber))
	w.leaf("StartPrice", decimal(l.StartPrice))
	if l.PriceStep == 0 {
		w.raw(`<Step xsi:nil="true" />`)
	} else {
		w.leaf("Step", percent(l.PriceStep, l.StartPrice))
	}
	w.leaf("Advance", percent(l.Deposit, l.StartPrice))
	w.leaf("Description", l.Description)
	w.leaf("AuctionStepUnit", "Percent")
	w.leaf("AdvanceStepUnit", "Percent")
	classifier(w, l)
	w.close("AuctionLot")
	w.close("LotTable")
	w.raw("<Participants />")
	w.raw("<AdditionalText />")
}

// cancelMessage returns the CancelAuctionTradeResult message e of the
// auction of l.
func cancelMessage(l *tenderbase.Lot, e *tenderbase.LotEvent) File {
	w := newMessage(l, e.Number, e.PublishedAt, e.Document)
	w.open(e.Document)
	w.leaf("Text", e.Reason)
	w.leaf("IdCanceledMessage", e.Message)
	w.close(e.Document)
	return w.file(l)
}

// resultMessage returns the TradeResult message reporting how l ended.
func resultMessage(l *tenderbase.Lot) (File, error) {
	number := l.Result.Message
	if l.Result.Document != "TradeResult" || number == "" {
		return File{}, fmt.Errorf("result reported by %s %q, not by a TradeResult", l.Result.Document, number)
	}
	w := newMessage(l, number, l.Result.PublishedAt, "TradeResult")
	w.open("TradeResult")
	w.leaf("Text", "Сообщение о результатах торгов по лоту "+strconv.Itoa(l.LotNumber)+".")
	w.leaf("IdAuctionMessage", l.NoticeNumber)
	w.open("LotTable")
	w.open("TradeResultLot")
	w.leaf("Order", strconv.Itoa(l.LotNumber))
	w.leaf("Description", l.Description)
	w.leaf("LotStatus", l.SourceStatus)
	if l.Result.Reason != "" {
		w.leaf("Basis", l.Result.Reason)
	}
	if p := l.Result.Winner; p.Name != "" {
		fio := strings.Fields(p.Name)
		w.open("Winner")
		w.open("ParticipantPerson")
		w.leaf("LastName", fio[0])
		w.leaf("FirstName", fio[1])
		w.leaf("MiddleName", strings.Join(fio[2:], " "))
		w.leaf("Address", p.Address)
		w.leaf("INN", p.INN)
		w.leaf("PriceOffer", decimal(l.Result.Price))
		w.close("ParticipantPerson")
		w.close("Winner")
	}
	classifier(w, l)
	w.close("TradeResultLot")
	w.close("LotTable")
	w.close("TradeResult")
	return w.file(l), nil
}

func classifier(w *messageWriter, l *tenderbase.Lot) {
	w.open("ClassifierCollection")
	w.open("AuctionLotClassifier")
	w.leaf("Code", l.CategoryCode)
	w.leaf("Name", l.Category)
	w.close("AuctionLotClassifier")
	w.close("ClassifierCollection")
}

// messageWriter writes a <MessageData>, indented, element by element:
// its xsi:type and xsi:nil attributes are plainer written than declared.
type messageWriter struct {
	b       strings.Builder
	depth   int
	number  string
	publish time.Time
}

// newMessage starts the message number of type kind about l, published
// at: its number, case, publisher, and the opening of its body.
func newMessage(l *tenderbase.Lot, number string, at time.Time, kind string) *messageWriter {
	w := &messageWriter{number: number, publish: at}
	w.b.WriteString(xml.Header)
	w.raw(`<MessageData xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">`)
	w.depth++
	w.leaf("Id", number)
	w.leaf("Number", number)
	w.leaf("CaseNumber", l.CaseNumber)
	w.raw(`<Publisher xsi:type="Publisher.ArbitrManager.v2">`)
	w.depth++
	fio := strings.Fields(l.Manager.Name)
	w.open("Fio")
	w.leaf("LastName", fio[0])
	w.leaf("FirstName", fio[1])
	w.leaf("MiddleName", strings.Join(fio[2:], " "))
	w.close("Fio")
	w.leaf("Inn", l.Manager.INN)
	w.leaf("CorrespondenceAddress", l.Manager.Address)
	w.leaf("Email", l.Manager.Contact.Email)
	w.close("Publisher")
	w.raw(`<MessageInfo MessageType="` + kind + `">`)
	w.depth++
	return w
}

// file closes the body and ends the message with its debtor, date and
// GUID.
func (w *messageWriter) file(l *tenderbase.Lot) File {
	w.close("MessageInfo")
	w.raw(`<Bankrupt xsi:type="Bankrupt.Company.v2">`)
	w.depth++
	w.open("Category")
	w.leaf("Code", "SimpleOrganization")
	w.leaf("Description", "Обычная организация")
	w.close("Category")
	w.leaf("Name", l.Debtor.Name)
	w.leaf("Ogrn", l.Debtor.OGRN)
	w.leaf("Inn", l.Debtor.INN)
	w.leaf("Address", l.Debtor.Address)
	w.close("Bankrupt")
	w.leaf("PublishDate", moscow(w.publish))
	w.leaf("MessageGUID", messageGUID(w.number))
	w.close("MessageData")
	return File{Name: w.number + ".xml", Data: []byte(w.b.String())}
}

func (w *messageWriter) raw(s string) {
	w.b.WriteString(strings.Repeat("  ", w.depth))
	w.b.WriteString(s)
	w.b.WriteByte('\n')
}

func (w *messageWriter) open(name string) {
	w.raw("<" + name + ">")
	w.depth++
}

func (w *messageWriter) close(name string) {
	w.depth--
	w.raw("</" + name + ">")
}

func (w *messageWriter) leaf(name, text string) {
	var esc strings.Builder
	xml.EscapeText(&esc, []byte(text)) // a strings.Builder does not fail
	w.raw("<" + name + ">" + esc.String() + "</" + name + ">")
}

// moscow writes a time as fedresurs does: Moscow time, without a zone.
func moscow(t time.Time) string { return t.In(msk).Format("2006-01-02T15:04:05") }

// decimal writes an amount with kopecks.
func decimal(x float64) string { return strconv.FormatFloat(x, 'f', 2, 64) }

// percent writes part as a percentage of whole, as AdvanceStepUnit and
// AuctionStepUnit Percent ask.
func percent(part, whole float64) string {
	return strconv.FormatFloat(float64(int64(part/whole*10000+0.5))/100, 'f', -1, 64)
}
