package export

import (
	"math"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/query"
)

// The modes of the export (spec 4.5).
const (
	ModeFasEIS = "fasEIS" // complaints (2.1) and, with result=1, their results (2.2)
	ModeFas    = "fas"    // FAS cases (2.3)
)

// The modes of this service's own, whose answers are tables
// (internal/table) in JSON, CSV or XLSX rather than pages of records.
const (
	ModeAggregate = "aggregate" // analytics.aggregate: a search's matches in groups
	ModeFlags     = "flags"     // ru.flags: the red flags of a tender
)

// Modes lists the modes.
var Modes = []string{ModeFasEIS, ModeFas, ModeAggregate, ModeFlags}

// recordModes are the modes that page through records.
var recordModes = []string{ModeFasEIS, ModeFas}

// TableMode reports whether mode answers a table.
func TableMode(mode string) bool { return mode == ModeAggregate || mode == ModeFlags }

// Param is a query parameter of the export. The parser and the OpenAPI
// document both read this one table.
type Param struct {
	Name string
	// Modes lists the modes the parameter belongs to; nil means every mode.
	Modes []string
	// Lookup is the lookup (tenderbase.Lookup field) by which the parameter
	// selects the records of its mode, if it selects by one.
	Lookup  string
	Type    string // a JSON Schema type: "string" or "integer"
	Pattern string // a regular expression the value must match, if any
	Enum    []string
	// Search names the argument of the aggregate's search
	// (analytics.aggregate's "search") that the parameter gives; List
	// says that its value is a comma-separated list of whole numbers.
	Search string
	List   bool
	// MaxLength bounds the characters of a string; Maximum bounds an
	// integer. Every parameter has one of them or an Enum.
	MaxLength   int
	Maximum     int64
	Description string
}

// innPattern is what an INN looks like: 10 digits for an organization, 12
// for a person or an individual entrepreneur, or one digit less in its
// integer form (the spec types INNs as integers), which lost a leading zero.
const innPattern = `^\d{9,12}$`

// Params are the parameters of the export, in the order the documentation
// lists them.
var Params = []Param{
	{Name: "mode", Type: "string", Enum: Modes, Description: "fasEIS: complaints, or their results with result=1; fas: FAS cases."},
	{Name: "dtype", Type: "string", Enum: []string{"xml", "json", "csv", "xlsx"}, Description: "Format of the answer: xml (the default) or json; xlsx, a spreadsheet of the CSV's rows and columns with typed cells; csv with compat=tg only (errors of csv and xlsx come in JSON). mode=aggregate and mode=flags: json (the default), csv or xlsx."},
	{Name: "compat", Modes: recordModes, Type: "string", Enum: []string{string(CompatTG)}, Description: "tg: TenderGuru's api2.3 conventions: page counts from 1 (and X-Page too), dates are DD-MM-YYYY (the day in Moscow), a JSON answer begins with a {\"Total\": N} element, and dtype=csv may be asked for. Without it, the spec's."},
	{Name: "api_code", Type: "string", MaxLength: maxKeyLength, Description: "Access key; it may come in an Authorization: Bearer header instead. Without it the answer is the free view; a key that is unknown, revoked or suspended is refused (401)."},
	{Name: "page", Modes: recordModes, Type: "integer", Pattern: `^\d+$`, Maximum: MaxPage, Description: "Page number, from 0; from 1 with compat=tg."},
	{Name: "per_page", Modes: recordModes, Type: "integer", Pattern: `^\d+$`, Maximum: MaxPerPage, Description: "Records a page, from 1 to 1000 (default 100), lowered to the plan's row cap."},
	{Name: "fasCustomerInn", Modes: []string{ModeFasEIS}, Lookup: tenderbase.LookupCustomerINN, Type: "string", Pattern: innPattern, MaxLength: 12, Description: "Complaints against the customer with this INN (10 or 12 digits, or 9 or 11 in its integer form, left-padded with a zero)."},
	{Name: "fasSupplierInn", Modes: []string{ModeFasEIS}, Lookup: tenderbase.LookupSupplierINN, Type: "string", Pattern: innPattern, MaxLength: 12, Description: "Complaints lodged by the supplier with this INN (10 or 12 digits, or 9 or 11 in its integer form, left-padded with a zero)."},
	{Name: "tend_num", Modes: []string{ModeFasEIS, ModeFlags}, Lookup: tenderbase.LookupPurchaseNumber, Type: "string", Pattern: `^\d+$`, MaxLength: maxNumberLength, Description: "Complaints about the procurement with this number (digits); with mode=flags, required: the tender whose red flags are checked. A 44-FZ number in its integer form (12 to 18 digits) is left-padded with zeros to 19."},
	{Name: "complaint_regNumber", Modes: []string{ModeFasEIS}, Lookup: tenderbase.LookupRegNumber, Type: "string", MaxLength: maxIDLength, Description: "With tend_num: only the complaint with this registration number (regNum)."},
	{Name: "complaintID", Modes: []string{ModeFasEIS}, Lookup: tenderbase.LookupComplaintID, Type: "string", MaxLength: maxIDLength, Description: "Complaint ID in EIS. With result=1 selects the results of that complaint; alone, the complaint itself."},
	{Name: "result", Modes: []string{ModeFasEIS}, Type: "integer", Enum: []string{"1"}, Description: "1 together with complaintID: the check results of the complaint (records 2.2) instead of complaints."},
	{Name: "kwords", Modes: []string{ModeFas, ModeAggregate}, Lookup: tenderbase.LookupINN, Search: "query", Type: "string", MaxLength: query.MaxLength, Description: "Key phrase in the query language (spec 4.4, kwords syntax), or a participant's INN; with mode=aggregate, the words of the search, read as the search tools' query."},
	{Name: "id", Modes: []string{ModeFas}, Type: "integer", Pattern: `^\d+$`, Maximum: math.MaxInt64, Description: "Case id."},
	{Name: "resource", Modes: aggregateModes, Type: "string", Enum: []string{"ru", "contracts"}, Description: "Required: the records aggregated, ru (tenders) or contracts, as analytics.aggregate's resource."},
	{Name: "by", Modes: aggregateModes, Type: "string", Enum: dimensions(), Description: "Required: what the matches are grouped by."},
	{Name: "level", Modes: aggregateModes, Type: "integer", Pattern: `^\d+$`, Maximum: 9, Description: "With by=okpd2: the digits of the OKPD2 classes, 1 to 9; 2 by default."},
	{Name: "top", Modes: aggregateModes, Type: "integer", Pattern: `^\d+$`, Maximum: tenderbase.MaxTop, Description: "Groups listed, from 1 (10 by default), up to the plan's limit: standard 20, guru and corporate 100."},
	searchParam("exact", "boolean", "true: the words exactly as written (no synonyms, no corrections)."),
	searchList("regions", "Region codes, comma-separated: 77,50."),
	searchList("laws", "Laws, comma-separated: 44, 223 or 44,223."),
	searchParam("price_min", "integer", "Lowest price in roubles, included."),
	searchParam("price_max", "integer", "Highest price in roubles, included."),
	searchParam("published_from", "string", "Published on or after this day (Moscow time): 2026-12-01 or 01.12.2026."),
	searchParam("published_to", "string", "Published on or before this day (Moscow time), included."),
	searchParam("deadline_from", "string", "resource=ru: applications close on or after this day."),
	searchParam("deadline_to", "string", "resource=ru: applications close on or before this day, included."),
	searchParam("ends_from", "string", "resource=contracts: the term ends on or after this day."),
	searchParam("ends_to", "string", "resource=contracts: the term ends on or before this day, included."),
	searchParam("open", "boolean", "resource=ru, true: only tenders that take applications now."),
	searchParam("state", "string", "resource=ru: the tenders in this state: active, completed, cancelled or failed."),
	searchParam("okpd2", "string", "An OKPD2 code or its beginning: 43.91."),
	searchParam("customer_inn", "string", "The customer's INN."),
	searchParam("participant_inn", "string", "resource=ru: a participant's INN, as the protocols name it."),
	searchParam("supplier_inn", "string", "resource=contracts: the supplier's INN."),
	searchParam("placing_method", "string", "resource=ru: a placing method code such as EA20."),
	searchParam("platform", "string", "resource=ru: an electronic platform code such as ETP_SBAST."),
}

// aggregateModes are the modes of the aggregate's parameters.
var aggregateModes = []string{ModeAggregate}

// maxSearchValue bounds the characters of a search argument: dates,
// codes, INNs and lists of region codes stay well below it.
const maxSearchValue = 400

// searchParam returns the parameter of mode=aggregate that gives the
// search argument of its name, of a JSON Schema type.
func searchParam(name, typ, description string) Param {
	p := Param{Name: name, Modes: aggregateModes, Search: name, Type: typ, MaxLength: maxSearchValue, Description: description}
	switch typ {
	case "boolean":
		p.Type, p.Enum, p.MaxLength = "string", []string{"true", "false", "1", "0"}, 0
	case "integer":
		p.Pattern, p.MaxLength, p.Maximum = `^\d+$`, 0, math.MaxInt64
	}
	return p
}

// searchList returns the parameter of mode=aggregate that gives a search
// argument listing whole numbers.
func searchList(name, description string) Param {
	return Param{Name: name, Modes: aggregateModes, Search: name, List: true, Type: "string", Pattern: `^\d+(,\d+)*$`,
		MaxLength: maxSearchValue, Description: description}
}

// dimensions returns the names of the groupings.
func dimensions() []string {
	out := make([]string, len(tenderbase.Dimensions))
	for i, d := range tenderbase.Dimensions {
		out[i] = string(d)
	}
	return out
}

// Bounds of string values, in characters. A key's secret is 46 characters
// (the Bearer header takes up to 256 too); a procurement number is 19
// digits; registration numbers and EIS ids stay well below 64.
const (
	maxKeyLength    = 256
	maxNumberLength = 32
	maxIDLength     = 64
)

// checkLengths refuses a value longer than its parameter's MaxLength,
// saying how long it is and never echoing it.
func checkLengths(values url.Values) error {
	for _, p := range Params {
		if n := utf8.RuneCountInString(values.Get(p.Name)); p.MaxLength > 0 && n > p.MaxLength {
			return tenderbase.Errorf(tenderbase.EINVALID, "%s is %d characters long; the limit is %d", p.Name, n, p.MaxLength)
		}
	}
	return nil
}

// kindOfMode returns the kind of record mode selects.
func kindOfMode(mode string) tenderbase.Kind {
	if mode == ModeFas {
		return tenderbase.KindFASCase
	}
	return tenderbase.KindComplaint
}

// PaidOnly reports whether the parameter selects by a field that only paid
// plans see (tenderbase.LookupFields, TariffFields), so that a free caller
// is refused it.
func (p Param) PaidOnly() bool {
	if p.Lookup == "" || p.Modes == nil {
		return false
	}
	k := kindOfMode(p.Modes[0])
	return tenderbase.PlanFree.Hides(k, tenderbase.LookupFields[k][p.Lookup])
}

// lookupParams returns the names of the parameters by the lookups they
// select by, for the error that refuses one.
func lookupParams() map[string]string {
	out := map[string]string{}
	for _, p := range Params {
		if p.Lookup != "" {
			out[p.Lookup] = p.Name
		}
	}
	return out
}

// paramNamed returns the parameter called name.
func paramNamed(name string) (Param, bool) {
	for _, p := range Params {
		if p.Name == name {
			return p, true
		}
	}
	return Param{}, false
}

// ModeList names the modes of the parameter: mode=fasEIS or mode=fas.
func (p Param) ModeList() string {
	names := make([]string, len(p.Modes))
	for i, m := range p.Modes {
		names[i] = "mode=" + m
	}
	return strings.Join(names, " or ")
}

// belongsTo reports whether the parameter is one of mode's.
func (p Param) belongsTo(mode string) bool {
	if p.Modes == nil {
		return true
	}
	for _, m := range p.Modes {
		if m == mode {
			return true
		}
	}
	return false
}

// namesOf returns the names of the parameters of mode, or of every
// parameter when mode is "".
func namesOf(mode string) string {
	var names []string
	for _, p := range Params {
		if mode == "" || p.belongsTo(mode) {
			names = append(names, p.Name)
		}
	}
	return strings.Join(names, ", ")
}
