package tenderbase

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// Kind names a type of record. It is the "kind" of the canonical NDJSON form.
type Kind string

// The kinds of record the service stores.
const (
	KindTender            Kind = "tender"
	KindDoc               Kind = "doc"
	KindContract          Kind = "contract"
	KindWorldTender       Kind = "world_tender"
	KindOrg               Kind = "org"
	KindLot               Kind = "lot"
	KindComplaint         Kind = "complaint"
	KindComplaintResult   Kind = "complaint_result"
	KindFASCase           Kind = "fas_case"
	KindProtocol          Kind = "protocol"
	KindTenderEvent       Kind = "tender_event"
	KindWithdrawal        Kind = "withdrawal"
	KindContractExecution Kind = "contract_execution"
	KindUnfairSupplier    Kind = "unfair_supplier"
	KindLotEvent          Kind = "lot_event"
	KindPlannedPurchase   Kind = "planned_purchase"
)

// Kinds lists every kind, in a fixed order.
var Kinds = []Kind{
	KindTender, KindDoc, KindContract, KindWorldTender, KindOrg, KindLot,
	KindComplaint, KindComplaintResult, KindFASCase, KindProtocol, KindTenderEvent,
	KindWithdrawal, KindContractExecution, KindUnfairSupplier, KindLotEvent, KindPlannedPurchase,
}

// Record is implemented by every domain record. The methods tell a store how
// to identify, order, index and look up a record; they are pure functions of
// the record's fields.
type Record interface {
	// Kind returns the record's kind.
	Kind() Kind
	// Key returns the record's identity within its kind. Two records with the
	// same kind and key are versions of one thing.
	Key() string
	// Revision returns the version number; a higher one replaces a lower one.
	Revision() int
	// Date returns the date that orders records newest first.
	Date() time.Time
	// SearchText returns the texts that full-text search sees, each with the
	// field of the canonical form it comes from, which decides who may match
	// it (OpenText, TariffText). A phrase never matches across two of them.
	// Nil for kinds not searched.
	SearchText() []Text
	// Flags returns the filter flags that apply, such as "r77" or "cr643".
	Flags() []string
	// Lookups returns the exact keys the record can be found by.
	Lookups() []Lookup
}

// Lookup is an exact key a record can be found by, such as its purchase number
// or the INN of its customer.
type Lookup struct {
	Field string `json:"field"`
	Value string `json:"value"`
}

// Lookup fields. Not every kind has every field; see each record's Lookups.
const (
	LookupPurchaseNumber     = "purchase_number"
	LookupCustomerINN        = "customer_inn"
	LookupOrganizerINN       = "organizer_inn"
	LookupSupplierINN        = "supplier_inn"
	LookupINN                = "inn"
	LookupOGRN               = "ogrn"
	LookupKPP                = "kpp" // an organization's KPP or one of its branches'
	LookupRegNumber          = "reg_number"
	LookupComplaintNumber    = "complaint_number"
	LookupComplaintID        = "complaint_id"
	LookupComplaintRegNumber = "complaint_reg_number"
	LookupNoticeNumber       = "notice_number"
	LookupRemoteID           = "remote_id"
	// LookupParticipantINN is, like LookupState, derived by the store: the
	// INNs the protocols of a tender name as participants (TenderStanding).
	LookupParticipantINN = "participant_inn"
	// LookupOKPD2 finds the records that hold an OKPD2 code by any prefix
	// of it that ends in a digit (CodePrefixes), so that a code prefix is
	// an exact key. Records carry it as flags (Lookup.Flag).
	LookupOKPD2 = "okpd2"
	// LookupCPV finds the records by every prefix of the significant
	// digits of a CPV code (CPVPrefixes). Records carry it as flags.
	LookupCPV = "cpv"
	// LookupOKDP finds the records that hold an OKDP (OK 004-93) code, the
	// classifier of 94-FZ and early 223-FZ records, by any prefix of its
	// digits (OKDPPrefixes): a class is the prefix before its trailing
	// zeros (OKDPPrefix). Records carry it as flags.
	LookupOKDP          = "okdp"
	LookupPlacingMethod = "placing_method" // the code, such as EA20
	LookupPlatform      = "platform"       // the electronic platform's code, such as ETP_SBAST
	// LookupPlanPosition finds a planned purchase by its position number
	// (PlannedPurchase.PositionNumber) and the notices published from it
	// (Tender.Plans); LookupIKZ does the same by the purchase's
	// identification code, LookupPlanNumber finds a plan's positions.
	LookupPlanPosition = "plan_position"
	LookupIKZ          = "ikz"
	LookupPlanNumber   = "plan_number"
	// LookupPlacerINN is who placed a tender: its organizer, or the
	// customer when the notice names no other organizer; the filter
	// organizer_inn of the search tools and the grouping by organizer
	// (ByOrganizer) both mean it.
	LookupPlacerINN = "placer_inn"
)

// Flag returns the flag that records carry for l when l's field is one
// records carry as flags, not as lookups: the prefixes of classification
// codes (LookupOKPD2, LookupCPV, LookupOKDP), and what the current version
// of a purchase plan says of a position (LookupPlanStatus,
// LookupPlannedPublish). A tender holds some twenty of them; as
// lookups they were four in five of a store's lookup rows, each a row in
// two indexes, where as flags a write adds one bit to a bitmap per batch
// and a store counts them from its bitmaps. Records hold the flags of
// their current version only, where lookups keep those of every version.
func (l Lookup) Flag() (string, bool) {
	switch l.Field {
	case LookupOKPD2:
		return codeFlag("ok", l.Value), true
	case LookupCPV:
		return codeFlag("cpv", l.Value), true
	case LookupOKDP:
		return codeFlag("okdp", l.Value), true
	case LookupPlanStatus:
		return codeFlag("pst", l.Value), true
	case LookupPlannedPublish:
		return codeFlag("ppub", l.Value), true
	}
	return "", false
}

// codeFlag returns the flag of a code prefix: one word of letters and
// digits, as a full-text index takes a flag. A code of digits and dots
// reads as itself with x for each dot ("43.91" is "ok43x91"); any other is
// written in hex after an h, so that no two codes share a flag.
func codeFlag(name, code string) string {
	if strings.Trim(code, "0123456789.") == "" {
		return name + strings.ReplaceAll(code, ".", "x")
	}
	return name + "h" + hex.EncodeToString([]byte(code))
}

// maxCodeBytes bounds a classification code that gets flags: OKPD2 codes
// have 12 characters and CPV codes 10, and every prefix of a longer text
// would be a flag as long, a count that grows with its square.
const maxCodeBytes = 64

// codeFlags returns the flags of the prefixes of codes, as field's
// lookups, once each. A text longer than any code gets none.
func codeFlags(field string, codes []string, prefixes func(string) []string) []string {
	var flags []string
	for _, c := range codes {
		if len(c) > maxCodeBytes {
			continue
		}
		for _, p := range prefixes(c) {
			f, _ := Lookup{Field: field, Value: p}.Flag()
			flags = append(flags, f)
		}
	}
	return distinct(flags)
}

// NewRecord returns a pointer to a zero record of kind k, ready to be decoded
// into, or an EINVALID error for an unknown kind.
func NewRecord(k Kind) (Record, error) {
	switch k {
	case KindTender:
		return &Tender{}, nil
	case KindDoc:
		return &Doc{}, nil
	case KindContract:
		return &Contract{}, nil
	case KindWorldTender:
		return &WorldTender{}, nil
	case KindOrg:
		return &Org{}, nil
	case KindLot:
		return &Lot{}, nil
	case KindComplaint:
		return &Complaint{}, nil
	case KindComplaintResult:
		return &ComplaintResult{}, nil
	case KindFASCase:
		return &FASCase{}, nil
	case KindProtocol:
		return &Protocol{}, nil
	case KindTenderEvent:
		return &TenderEvent{}, nil
	case KindWithdrawal:
		return &Withdrawal{}, nil
	case KindContractExecution:
		return &ContractExecution{}, nil
	case KindUnfairSupplier:
		return &UnfairSupplier{}, nil
	case KindLotEvent:
		return &LotEvent{}, nil
	case KindPlannedPurchase:
		return &PlannedPurchase{}, nil
	}
	return nil, Errorf(EINVALID, "unknown record kind %s (known: tender, doc, contract, world_tender, org, lot, complaint, complaint_result, fas_case, protocol, tender_event, withdrawal, contract_execution, unfair_supplier, lot_event, planned_purchase)", Quote(string(k)))
}

// Envelope is one line of the canonical NDJSON form:
// {"kind": "tender", "record": {...}}.
type Envelope struct {
	Kind   Kind            `json:"kind"`
	Record json.RawMessage `json:"record"`
}

// DecodeRecord decodes the canonical JSON of a record of kind k. Unknown
// fields are an error, so a typo in a hand-written file does not pass
// silently. A record without a key is an error too.
func DecodeRecord(k Kind, data []byte) (Record, error) {
	r, err := NewRecord(k)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(r); err != nil {
		return nil, Errorf(EINVALID, "%s record: %s", k, DescribeJSONError(err))
	}
	if r.Key() == "" {
		return nil, Errorf(EINVALID, "%s record has no key (%s)", k, keyFieldOf(k))
	}
	return r, nil
}

// DecodeEnvelope decodes one NDJSON line into a record.
func DecodeEnvelope(line []byte) (Record, error) {
	env, err := ReadEnvelope(line)
	if err != nil {
		return nil, err
	}
	return DecodeRecord(env.Kind, env.Record)
}

// ReadEnvelope reads the kind and the undecoded record of one NDJSON line.
func ReadEnvelope(line []byte) (Envelope, error) {
	var env Envelope
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&env); err != nil {
		return env, Errorf(EINVALID, "not a record line: %s", DescribeJSONError(err))
	}
	if env.Kind == "" {
		return env, Errorf(EINVALID, `record line has no "kind"`)
	}
	if len(env.Record) == 0 || string(env.Record) == "null" {
		return env, Errorf(EINVALID, `record line has no "record"`)
	}
	return env, nil
}

// EncodeEnvelope returns the canonical NDJSON line of r, without the newline.
// <, > and & are written as they are, so that the XML fields stay readable.
func EncodeEnvelope(r Record) ([]byte, error) {
	body, err := MarshalRecord(r)
	if err != nil {
		return nil, err
	}
	return marshalPlain(Envelope{Kind: r.Kind(), Record: body})
}

// MarshalRecord returns the canonical JSON of r, with <, > and & unescaped.
func MarshalRecord(r Record) ([]byte, error) {
	body, err := marshalPlain(r)
	if err != nil {
		return nil, fmt.Errorf("encode %s %s: %w", r.Kind(), r.Key(), err)
	}
	return body, nil
}

func marshalPlain(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

func keyFieldOf(k Kind) string {
	switch k {
	case KindTender:
		return "purchase_number"
	case KindContract:
		return "reg_number"
	case KindOrg:
		return "inn"
	case KindComplaint:
		return "complaintNumber"
	case KindComplaintResult:
		return "checkResultNumber or regNumber"
	case KindFASCase:
		return "id"
	case KindUnfairSupplier:
		return "registry_number"
	case KindPlannedPurchase:
		return "position_number"
	}
	return "id"
}
