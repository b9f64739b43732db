// Package efrsb reads the bankruptcy trade messages of fedresurs (ЕФРСБ):
// the messages of arbitration managers (<MessageData>, alone, in a SOAP-era
// <Messages> list, or as the content of a page of the REST service
// {"total", "pageData": [{"number", "type", "content"...}]}) and the
// BiddingInvitation of a trading platform. An auction's lots become
// tenderbase.Lot records keyed efrsb-<number of the Auction message>_<lot>;
// a ChangeAuction names the message it changes and a TradeResult the
// auction it reports on, so that all of them merge into the same lots.
// docs/torgi.md says where each element comes from and what is left out.
package efrsb

import (
	"bytes"
	"encoding/json"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/source/jsonread"
	"github.com/tenderbase/tenderbase/internal/source/xmlread"
)

// Format is fedresurs trade messages as a source format.
type Format struct{}

// Name returns the name of the format.
func (Format) Name() string { return "fedresurs (EFRSB) messages" }

// WholeFiles reports that the lots of a file are stored together.
func (Format) WholeFiles() bool { return true }

// roots are the root elements of the XML files this format reads.
var roots = map[string]bool{"MessageData": true, "Messages": true, "BiddingInvitation": true}

// Detect reports whether a file starting with prefix is a message, a list
// of messages, a platform's BiddingInvitation (alone or in its SOAP
// envelope), or a page of the REST service.
func (Format) Detect(prefix []byte) bool {
	if jsonread.IsObject(prefix) {
		return len(jsonread.TopMembers(prefix, "pageData")) > 0
	}
	root, err := xmlread.NextElement(xmlread.NewDecoder(bytes.NewReader(prefix)))
	if err != nil {
		return false
	}
	if root.Name.Local == "Envelope" {
		return bytes.Contains(prefix, []byte("BiddingInvitation")) || bytes.Contains(prefix, []byte("<MessageData"))
	}
	return roots[root.Name.Local]
}

// Decode reads every lot of r.
func (Format) Decode(_ string, r io.Reader, emit func(line int, rec tenderbase.Record, err error) error) error {
	data, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	if jsonread.IsObject(data) {
		return decodePage(data, emit)
	}
	root, err := xmlread.ReadDocument(bytes.NewReader(data))
	if err != nil {
		return emit(0, nil, tenderbase.Errorf(tenderbase.EINVALID, "fedresurs XML does not parse: %v", err))
	}
	msgs := messagesIn(root)
	if len(msgs) == 0 {
		return emit(0, nil, tenderbase.Errorf(tenderbase.EINVALID, "fedresurs XML <%s> holds no MessageData or BiddingInvitation", root.Name))
	}
	for i, m := range msgs {
		recs, err := recordsOf(m, envelope{})
		if err := emitRecords(i+1, recs, err, emit); err != nil {
			return err
		}
	}
	return nil
}

// messagesIn returns the messages of a document: the root itself, the
// MessageData of a list, or the message inside a SOAP envelope.
func messagesIn(root *xmlread.Node) []*xmlread.Node {
	switch root.Name {
	case "MessageData", "BiddingInvitation":
		return []*xmlread.Node{root}
	case "Messages":
		return root.All("MessageData")
	}
	var out []*xmlread.Node
	out = append(out, root.FindAll("MessageData")...)
	return append(out, root.FindAll("BiddingInvitation")...)
}

// emitRecords emits the lots or the event of the message at position (its
// place in the file, 1 for the first), or why it has none.
func emitRecords(position int, recs []tenderbase.Record, err error, emit func(int, tenderbase.Record, error) error) error {
	if err != nil {
		return emit(position, nil, err)
	}
	for _, l := range recs {
		if err := emit(position, l, nil); err != nil {
			return err
		}
	}
	return nil
}

// envelope is what the REST service says of a message beside its content:
// the REST-era content no longer carries its own number and date.
type envelope struct {
	GUID        string `json:"guid"`
	Number      string `json:"number"`
	DatePublish string `json:"datePublish"`
	Type        string `json:"type"`
	Content     string `json:"content"`
}

// decodePage reads a page of the REST service.
func decodePage(data []byte, emit func(int, tenderbase.Record, error) error) error {
	var page struct {
		Total    int               `json:"total"`
		PageData []json.RawMessage `json:"pageData"`
	}
	if err := json.Unmarshal(data, &page); err != nil {
		return emit(0, nil, tenderbase.Errorf(tenderbase.EINVALID, "fedresurs JSON does not parse: %v", err))
	}
	for i, raw := range page.PageData {
		e, err := decodeEnvelope(raw)
		var recs []tenderbase.Record
		if err == nil {
			recs, err = e.records()
		}
		if err := emitRecords(i+1, recs, err, emit); err != nil {
			return err
		}
	}
	return nil
}

// decodeEnvelope reads an item of pageData. The service's sources spell
// its members in more than one case (bankruptGUID, bankruptGuid), so they
// are matched regardless of case, as encoding/json does.
func decodeEnvelope(raw json.RawMessage) (envelope, error) {
	var e envelope
	if err := json.Unmarshal(raw, &e); err != nil {
		return e, tenderbase.Errorf(tenderbase.EINVALID, "fedresurs message does not parse: %v", err)
	}
	return e, nil
}

// records reads the content of a message of the REST service.
func (e envelope) records() ([]tenderbase.Record, error) {
	if strings.TrimSpace(e.Content) == "" {
		return nil, tenderbase.Errorf(tenderbase.EINVALID,
			"fedresurs message %s (%s) has no content: ask the service with includeContent=true", tenderbase.Quote(e.Number), e.Type)
	}
	root, err := xmlread.ReadDocument(strings.NewReader(e.Content))
	if err != nil {
		return nil, tenderbase.Errorf(tenderbase.EINVALID, "content of fedresurs message %s does not parse: %v", tenderbase.Quote(e.Number), err)
	}
	msgs := messagesIn(root)
	if len(msgs) == 0 {
		return nil, tenderbase.Errorf(tenderbase.EINVALID, "content of fedresurs message %s is <%s>, not a MessageData or BiddingInvitation", tenderbase.Quote(e.Number), root.Name)
	}
	return recordsOf(msgs[0], e)
}

// recordsOf reads the lots or the event of a message, a manager's or a
// platform's; e is its REST envelope, empty for one read from an XML file.
func recordsOf(m *xmlread.Node, e envelope) ([]tenderbase.Record, error) {
	if m.Name == "BiddingInvitation" {
		return records(invitation(m))
	}
	return message(m, e)
}

// lotKey is the key of lot order of the auction announced by message
// number.
func lotKey(number string, order int) string {
	return "efrsb-" + number + "_" + strconv.Itoa(order)
}

// messageURL is the page of a message on fedresurs.ru: by its GUID, which
// the REST service and the SOAP-era messages give.
func messageURL(guid string) string {
	if guid == "" {
		return ""
	}
	return "https://fedresurs.ru/bankruptmessages/" + strings.ToLower(guid)
}

// timeLayouts are the forms fedresurs writes times in: without a zone
// (Moscow time), with fractions, or with an offset.
var timeLayouts = []string{"2006-01-02T15:04:05.999999999", time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02"}

// parseTime reads a time; one without a zone is Moscow time.
func parseTime(s string) time.Time {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}
	}
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t
	}
	for _, layout := range timeLayouts {
		if t, err := time.ParseInLocation(layout, s, tenderbase.Moscow); err == nil {
			return t
		}
	}
	return time.Time{}
}

// number reads a decimal as published ("1464682.87", "1 464 682,87"); nil
// and empty values are 0.
func number(s string) float64 {
	s = strings.NewReplacer(" ", "", "\u00a0", "", ",", ".").Replace(strings.TrimSpace(s))
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0
	}
	return f
}

// clean trims s and folds its runs of white space.
func clean(s string) string { return strings.Join(strings.Fields(s), " ") }

// firstOf returns the first of values that is not empty.
func firstOf(values ...string) string {
	for _, v := range values {
		if v = clean(v); v != "" {
			return v
		}
	}
	return ""
}

// personName joins a person's names.
func personName(last, first, middle string) string {
	return clean(last + " " + first + " " + middle)
}

// regionOfINN returns the region an INN was issued in: its first two
// digits are the code of the tax office's region.
func regionOfINN(inn string) int {
	if len(inn) != 10 && len(inn) != 12 {
		return 0
	}
	n, err := strconv.Atoi(inn[:2])
	if err != nil || n <= 0 || n > 99 {
		return 0
	}
	return n
}

// title returns the first words of a lot's description as its title: the
// messages give a description only, often of several paragraphs.
func title(description string) string {
	const max = 300
	if len([]rune(description)) <= max {
		return description
	}
	r := []rune(description)[:max]
	if i := strings.LastIndex(string(r), " "); i > 0 {
		return string(r)[:i] + "…"
	}
	return string(r) + "…"
}
