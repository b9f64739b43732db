package tenderbase

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"
)

// Plan is a tariff plan. It decides which fields a caller sees, how many rows
// one query may page through, how many keys an account may hold and how fast
// a key may call.
type Plan string

// The plans of the offer (spec part 8).
const (
	PlanFree      Plan = "free"
	PlanStandard  Plan = "standard"
	PlanGuru      Plan = "guru"
	PlanCorporate Plan = "corporate"
)

// PlanLimits are the constants of a plan.
type PlanLimits struct {
	// Seats is how many active keys one account on this plan may hold.
	Seats int
	// RowCap is how many rows of one query a caller may page through (the
	// offer's "online report rows"); 0 means no cap.
	RowCap int
	// RatePerMinute and Burst are the default rate limit of a key: a steady
	// rate and how many requests may come at once. The offer states no
	// numbers; these protect the service and can be raised per key.
	RatePerMinute int
	Burst         int
	// Contacts says whether the plan may read organization contacts.
	Contacts bool
	// PriceMonitoring says whether the plan may watch unit prices
	// (prices.monitor).
	PriceMonitoring bool
	// AggregateTop is how many groups one aggregate may list
	// (analytics.aggregate); 0: the plan has no aggregates.
	AggregateTop int
	// OrgInfo says whether the cards of tenders and contracts carry what
	// the registers tell of their organizations.
	OrgInfo bool
	// DocumentAnalysis says whether the plan gets the MCP prompts that
	// bring a tender's documentation to the client's model (the offer's
	// "online analysis of documentation").
	DocumentAnalysis bool
	// AnalysesPerMonth is how many analyses of documentation the service
	// makes for one account in a calendar month (UTC), by the tool
	// docs.analyze and the HTTP jobs together; an analysis served again
	// from the store, its documentation unchanged, is not counted.
	AnalysesPerMonth int
	// Subscriptions is how many saved searches with mailings one account
	// may hold.
	Subscriptions int
	// MailEvery is the shortest time between two mailings of one
	// subscription on the published schedule; 0 mails at every round of
	// the mailer.
	MailEvery time.Duration
	// DigestMailing says whether the plan's subscriptions may mail daily
	// or weekly digests (the offer's "daily mailing").
	DigestMailing bool
	// WinnersMailing says whether the plan's subscriptions may report the
	// winners of their tenders and of watched INNs.
	WinnersMailing bool
	// Branches says whether the plan groups subscriptions by branch.
	Branches bool
}

// Plans holds the constants of every plan in one table. Free has no seat
// count in the offer; it gets one key per account. The offer's mailings
// are: new tenders for free (one subscription, at most hourly), daily and
// weekly mailings from standard, winners from guru, branches for
// corporate; it states no counts, and these keep one account's mail
// within what a person reads.
var Plans = map[Plan]PlanLimits{
	PlanFree: {Seats: 1, RowCap: 30, RatePerMinute: 30, Burst: 10,
		Subscriptions: 1, MailEvery: time.Hour},
	PlanStandard: {Seats: 2, RowCap: 500, RatePerMinute: 120, Burst: 30, Contacts: true, PriceMonitoring: true, AggregateTop: 20,
		Subscriptions: 10, DigestMailing: true},
	PlanGuru: {Seats: 4, RowCap: 1000, RatePerMinute: 300, Burst: 60, Contacts: true, PriceMonitoring: true, AggregateTop: 100, OrgInfo: true, DocumentAnalysis: true, AnalysesPerMonth: 100,
		Subscriptions: 30, DigestMailing: true, WinnersMailing: true},
	PlanCorporate: {Seats: 30, RowCap: 0, RatePerMinute: 1200, Burst: 200, Contacts: true, PriceMonitoring: true, AggregateTop: 100, OrgInfo: true, DocumentAnalysis: true, AnalysesPerMonth: 1000,
		Subscriptions: 300, DigestMailing: true, WinnersMailing: true, Branches: true},
}

// PlanNames lists the plans from the cheapest.
var PlanNames = []Plan{PlanFree, PlanStandard, PlanGuru, PlanCorporate}

// ParsePlan returns the plan named s, or an EINVALID error listing the plans.
func ParsePlan(s string) (Plan, error) {
	p := Plan(strings.ToLower(strings.TrimSpace(s)))
	if _, ok := Plans[p]; !ok {
		names := make([]string, len(PlanNames))
		for i, n := range PlanNames {
			names[i] = string(n)
		}
		return "", Errorf(EINVALID, "unknown plan %s (plans: %s)", Quote(s), strings.Join(names, ", "))
	}
	return p, nil
}

// Paid reports whether the plan is a paid one; paid plans see tariff fields.
func (p Plan) Paid() bool { return p != PlanFree && p != "" }

// TariffFields lists, for each kind, the JSON fields of its canonical form
// that only paid plans see. For complaints, results and cases they are the
// fields the spec marks "tariff"; for the other kinds they follow what the
// offer sells to paid plans: contacts, winners and organization details, and
// the documentation itself.
var TariffFields = map[Kind][]string{
	KindTender:   {"contact", "participants"},
	KindDoc:      {"url", "text"},
	KindContract: {"suppliers"},
	KindOrg:      {"head", "head_position", "contacts"},
	// A world tender's awards name its winners, as protocols do.
	KindWorldTender: {"awards"},
	KindProtocol:    {"participants"},
	KindComplaint: {
		"registration_inn", "registration_kpp", "purchaseNumber", "supplierInn",
		"text", "link",
	},
	KindComplaintResult: {
		"subject_INN", "subject_KPP", "subject_OKPO", "subject_address",
		"purchaseNumber", "decisionText", "attachment_fileName",
		"attachment_docDescription", "attachment_docNumber", "attachment_url",
		"complaintResult", "printForm_url", "prescriptionNumber",
		"prescriptionDate", "prescriptionText", "prescription_attachment_fileName",
		"prescription_attachment_docDescription", "prescription_attachment_docNumber",
		"prescription_attachment_url",
	},
	KindFASCase: {"attachment", "text", "link"},
}

// HiddenFields returns the fields of kind k that plan p does not see, in a
// fixed order; nil when it sees them all.
func HiddenFields(k Kind, p Plan) []string {
	if p.Paid() {
		return nil
	}
	return slices.Clone(TariffFields[k])
}

// Hides reports whether plan p does not see field of records of kind k.
func (p Plan) Hides(k Kind, field string) bool {
	return !p.Paid() && slices.Contains(TariffFields[k], field)
}

// PaidPlans names the plans that see every field: "standard, guru,
// corporate".
func PaidPlans() string {
	var ps []string
	for _, p := range PlanNames {
		if p.Paid() {
			ps = append(ps, string(p))
		}
	}
	return strings.Join(ps, ", ")
}

// LookupFields says, for each kind, which field of its canonical form each
// of its lookups (Record.Lookups) reads. A plan that does not see the field
// may not look records up by it: the answer would tell what the field
// holds. It is the one table Restrict decides lookups by.
var LookupFields = map[Kind]map[string]string{
	KindTender: {
		LookupPurchaseNumber: "purchase_number", LookupCustomerINN: "customer", LookupOrganizerINN: "organizer", LookupPlacerINN: "organizer", LookupState: "status",
		LookupParticipantINN: "participants", LookupOKPD2: "lots", LookupOKDP: "lots", LookupPlacingMethod: "placing_method_code", LookupPlatform: "etp",
		LookupPlanPosition: "plans", LookupIKZ: "plans",
	},
	KindDoc: {LookupPurchaseNumber: "purchase_number", LookupCustomerINN: "customer"},
	KindContract: {
		LookupRegNumber: "reg_number", LookupPurchaseNumber: "purchase_number",
		LookupCustomerINN: "customer", LookupSupplierINN: "suppliers", LookupOKPD2: "objects", LookupOKDP: "objects",
	},
	KindWorldTender: {LookupCPV: "cpv_codes", LookupWinnerID: "awards"},
	KindOrg:         {LookupINN: "inn", LookupOGRN: "ogrn", LookupKPP: "kpp"},
	KindLot:         {LookupNoticeNumber: "notice_number", LookupINN: "debtor", LookupOrganizerINN: "organizer", LookupMessage: "result"},
	KindLotEvent:    {LookupMessage: "message"},
	KindComplaint: {
		LookupComplaintNumber: "complaintNumber", LookupComplaintID: "complaintID",
		LookupRegNumber: "regNum", LookupPurchaseNumber: "purchaseNumber",
		LookupSupplierINN: "supplierInn", LookupCustomerINN: "customerInn",
	},
	KindComplaintResult: {
		LookupComplaintID: "complaintID", LookupComplaintNumber: "complaintNumber",
		LookupComplaintRegNumber: "complaint_regNumber", LookupPurchaseNumber: "purchaseNumber",
		LookupRegNumber: "regNumber", LookupCustomerINN: "owner_INN",
	},
	KindFASCase:           {LookupRemoteID: "remote_id", LookupINN: "orgXML"},
	KindProtocol:          {LookupPurchaseNumber: "purchase_number", LookupSupplierINN: "participants"},
	KindTenderEvent:       {LookupPurchaseNumber: "purchase_number"},
	KindContractExecution: {LookupRegNumber: "reg_number"},
	KindUnfairSupplier:    {LookupINN: "supplier", LookupCustomerINN: "customer", LookupPurchaseNumber: "purchase", LookupRegNumber: "contract"},
	KindPlannedPurchase: {
		LookupPlanPosition: "position_number", LookupPlanNumber: "plan_number", LookupIKZ: "ikz",
		LookupCustomerINN: "customer", LookupOrganizerINN: "owner", LookupPlacingMethod: "placing_method_code", LookupOKPD2: "objects",
		LookupPlanStatus: "status", LookupPlannedPublish: "publish_year",
	},
}

// Restrict returns s as a caller on plan p may run it. Every tool and the
// export run a caller's searches through it, so that what a plan hides is
// hidden everywhere: its query matches only the text of the fields p sees
// (OpenTextOnly), and a lookup that reads a field p does not see is
// refused with an EFORBIDDEN error rather than answered. The error names
// the lookup as the caller gave it, params[lookup field] (a parameter
// name), or by its field when params has none.
func (p Plan) Restrict(s Search, params map[string]string) (Search, error) {
	for _, l := range s.Where {
		field, ok := LookupFields[s.Kind][l.Field]
		if !ok {
			return Search{}, Errorf(EINVALID, "records of kind %s have no lookup %s", s.Kind, l.Field)
		}
		if p.Hides(s.Kind, field) {
			name := cmp.Or(params[l.Field], l.Field)
			return Search{}, Errorf(EFORBIDDEN,
				"%s selects %s records by their field %s, which only paid plans see (%s); your plan is %s",
				name, s.Kind, field, PaidPlans(), p)
		}
	}
	s.OpenTextOnly = len(HiddenFields(s.Kind, p)) > 0
	return s, nil
}

// OpenText returns the texts of r that every plan may match: those of the
// fields no plan hides.
func OpenText(r Record) []string { return textsOf(r, false) }

// TariffText returns the texts of r that only paid plans may match: those
// of its tariff fields.
func TariffText(r Record) []string { return textsOf(r, true) }

// MatchedText returns the texts of r a search matches: the open ones, and
// the tariff ones too unless openOnly (Search.OpenTextOnly) is set.
func MatchedText(r Record, openOnly bool) []string {
	if openOnly {
		return OpenText(r)
	}
	return append(OpenText(r), TariffText(r)...)
}

// textsOf returns the texts of r's tariff fields, or of its other fields.
func textsOf(r Record, tariff bool) []string {
	var out []string
	for _, t := range r.SearchText() {
		if slices.Contains(TariffFields[r.Kind()], t.Field) == tariff {
			out = append(out, t.Value)
		}
	}
	return out
}

// Masked returns the canonical JSON of r as plan p may see it: every hidden
// field present with the value null, so that the record's shape never
// changes, and the list of the fields hidden.
func Masked(r Record, p Plan) (json.RawMessage, []string, error) {
	body, err := MarshalRecord(r)
	if err != nil {
		return nil, nil, err
	}
	hidden := HiddenFields(r.Kind(), p)
	if len(hidden) == 0 {
		return body, nil, nil
	}
	masked, err := nullFields(body, hidden)
	if err != nil {
		return nil, nil, fmt.Errorf("mask %s %s: %w", r.Kind(), r.Key(), err)
	}
	return masked, hidden, nil
}

// nullFields rewrites a JSON object with the named fields set to null, in
// the object's own field order; a named field the object lacks (left out as
// empty) is appended, so that every hidden field is present.
func nullFields(object []byte, names []string) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(object))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, fmt.Errorf("not a JSON object")
	}
	var out bytes.Buffer
	out.WriteByte('{')
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		name, _ := tok.(string)
		var value json.RawMessage
		if err := dec.Decode(&value); err != nil {
			return nil, err
		}
		if slices.Contains(names, name) {
			value, seen[name] = json.RawMessage("null"), true
		}
		writeMember(&out, name, value)
	}
	for _, name := range names {
		if !seen[name] {
			writeMember(&out, name, json.RawMessage("null"))
		}
	}
	out.WriteByte('}')
	return out.Bytes(), nil
}

func writeMember(out *bytes.Buffer, name string, value json.RawMessage) {
	if out.Len() > 1 {
		out.WriteByte(',')
	}
	key, _ := marshalPlain(name)
	out.Write(key)
	out.WriteByte(':')
	out.Write(value)
}
