package export

import (
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/query"
)

// Format is the format of an export document.
type Format int

// The formats, by the dtype parameter.
const (
	XML Format = iota // the default
	JSON
	CSV  // with compat=tg only: the spec's formats are xml and json
	XLSX // a spreadsheet, with either conventions
)

// Paging of the export. MaxPage keeps page × per_page far from
// overflowing; no plan pages that far.
const (
	DefaultPerPage = 100
	MaxPerPage     = tenderbase.MaxPageSize
	MaxPage        = 1_000_000
)

// Request is an export request, checked.
type Request struct {
	Mode    string
	Format  Format
	Compat  Compat
	APICode string // "" for none
	Page    int    // from 0, whatever page the conventions call the first
	PerPage int    // 0: DefaultPerPage

	// mode=fasEIS
	CustomerINN, SupplierINN string
	TendNum, ComplaintRegNum string
	ComplaintID              string
	Result                   bool // result records of the complaint ComplaintID

	// mode=fas
	Kwords tenderbase.Query // nil: every case
	INN    string           // kwords that is an INN alone: the cases it takes part in
	ID     int64            // 0: none

	// mode=aggregate: the arguments of analytics.aggregate, Search those
	// of its search tool (mode=flags takes TendNum).
	Resource, By string
	Level, Top   int
	Search       map[string]any
}

// ParseQuery splits a raw query string into its parameters as
// url.ParseQuery does, but refuses, with an EINVALID error naming it, a pair
// that url.ParseQuery would drop: one that is not URL-encoded (kwords=%zz)
// or that holds a semicolon (mode=fas;dtype=json, which servers once took
// for a separator). A request that runs without a parameter its caller gave
// answers another question than the one asked. The values of the pairs read
// before the bad one come back with the error, so that it can still be
// written in the format dtype asks for.
func ParseQuery(raw string) (url.Values, error) {
	values := url.Values{}
	for pair := range strings.SplitSeq(raw, "&") {
		if pair == "" {
			continue
		}
		if strings.Contains(pair, ";") {
			return values, tenderbase.Errorf(tenderbase.EINVALID,
				"the query string pair %s holds a semicolon: separate parameters with & (and send a semicolon in a value as %%3B)", tenderbase.Quote(pair))
		}
		rawName, rawValue, _ := strings.Cut(pair, "=")
		name, err1 := url.QueryUnescape(rawName)
		value, err2 := url.QueryUnescape(rawValue)
		if err1 != nil || err2 != nil {
			return values, tenderbase.Errorf(tenderbase.EINVALID,
				"the query string pair %s is not URL-encoded: a %% must be followed by two hex digits (%%25 is a %% itself)", tenderbase.Quote(pair))
		}
		values[name] = append(values[name], value)
	}
	return values, nil
}

// FormatOf returns the format dtype asks for: XML when it is absent or
// empty, JSON for the modes that answer a table (TableMode), which have
// no XML. A dtype that is none of xml, json, csv and xlsx, or given twice, is an
// EINVALID error, to be written in JSON. Whether csv goes with the
// conventions asked for is Parse's to check.
func FormatOf(values url.Values) (Format, error) {
	if n := len(values["dtype"]); n > 1 {
		return JSON, repeated("dtype", n)
	}
	mode, _ := modeOf(values.Get("mode"))
	dtype := strings.ToLower(values.Get("dtype"))
	switch {
	case TableMode(mode) && dtype == "":
		return JSON, nil
	case TableMode(mode) && dtype == "xml":
		return JSON, tenderbase.Errorf(tenderbase.EINVALID, "mode=%s answers a table: dtype json (the default), csv or xlsx, not xml", mode)
	}
	switch dtype {
	case "", "xml":
		return XML, nil
	case "json":
		return JSON, nil
	case "csv":
		return CSV, nil
	case "xlsx":
		return XLSX, nil
	}
	if TableMode(mode) {
		return JSON, tenderbase.Errorf(tenderbase.EINVALID, "unknown dtype %s: mode=%s answers json (the default), csv or xlsx", tenderbase.Quote(values.Get("dtype")), mode)
	}
	return JSON, tenderbase.Errorf(tenderbase.EINVALID, "unknown dtype %s: the formats are xml (the default), json, xlsx and, with compat=tg, csv",
		tenderbase.Quote(values.Get("dtype")))
}

// ErrorFormat returns the format an error is written in when f was asked
// for: CSV and XLSX have no shape for an error, so their errors are JSON,
// the format of every other error of the service.
func (f Format) ErrorFormat() Format {
	if f == CSV || f == XLSX {
		return JSON
	}
	return f
}

// Parse checks the query parameters of an export request. A parameter with
// an empty value counts as absent. Every error is EINVALID and names the
// parameter: an unknown or repeated parameter, a missing or unknown mode, a
// parameter of the other mode, or a value that does not fit.
func Parse(values url.Values) (Request, error) {
	var q Request
	var err error
	if q.Format, err = FormatOf(values); err != nil {
		return Request{}, err
	}
	if err := checkNames(values); err != nil {
		return Request{}, err
	}
	if err := checkUTF8(values); err != nil {
		return Request{}, err
	}
	if err := checkLengths(values); err != nil {
		return Request{}, err
	}
	if q.Mode, err = modeOf(values.Get("mode")); err != nil {
		return Request{}, err
	}
	if err := checkModeParams(values, q.Mode); err != nil {
		return Request{}, err
	}
	if err := q.parseCompat(values.Get("compat")); err != nil {
		return Request{}, err
	}
	q.APICode = values.Get("api_code")
	if err := q.parsePaging(values); err != nil {
		return Request{}, err
	}
	switch q.Mode {
	case ModeFas:
		return q, q.parseFas(values)
	case ModeAggregate:
		return q, q.parseAggregate(values)
	case ModeFlags:
		return q, q.parseFlags(values)
	}
	return q, q.parseFasEIS(values)
}

// checkNames refuses unknown parameters, naming them all, and then
// repeated ones, whose names are known and so short.
func checkNames(values url.Values) error {
	names := slices.Sorted(func(yield func(string) bool) {
		for name := range values {
			if !yield(name) {
				return
			}
		}
	})
	var unknown []string
	for _, name := range names {
		if _, ok := paramNamed(name); !ok {
			unknown = append(unknown, unknownName(name))
		}
	}
	if len(unknown) > 0 {
		return tenderbase.Errorf(tenderbase.EINVALID, "unknown parameter%s %s; the parameters are %s",
			plural(len(unknown)), strings.Join(unknown, ", "), namesOf(""))
	}
	for _, name := range names {
		if n := len(values[name]); n > 1 {
			return repeated(name, n)
		}
	}
	return nil
}

// unknownName quotes an unknown parameter's name, with the parameter it
// differs from only in case, if any.
func unknownName(name string) string {
	for _, p := range Params {
		if strings.EqualFold(p.Name, name) {
			return fmt.Sprintf("%s (did you mean %s?)", tenderbase.Quote(name), p.Name)
		}
	}
	return tenderbase.Quote(name)
}

// checkUTF8 refuses a value that is not UTF-8 text, which no record holds
// and no query can mean. The names are known by now.
func checkUTF8(values url.Values) error {
	for _, p := range Params {
		if v := values.Get(p.Name); !utf8.ValidString(v) {
			return tenderbase.Errorf(tenderbase.EINVALID, "parameter %s is not valid UTF-8 text", p.Name)
		}
	}
	return nil
}

func repeated(name string, n int) error {
	return tenderbase.Errorf(tenderbase.EINVALID, "parameter %s is given %d times; give it once", name, n)
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func modeOf(v string) (string, error) {
	for _, m := range Modes {
		if strings.EqualFold(v, m) {
			return m, nil
		}
	}
	if v == "" {
		return "", tenderbase.Errorf(tenderbase.EINVALID, "mode is required: fasEIS (complaints and their results), fas (FAS cases), aggregate (a search in groups) or flags (a tender's red flags)")
	}
	return "", tenderbase.Errorf(tenderbase.EINVALID, "unknown mode %s: the modes are fasEIS, fas, aggregate and flags", tenderbase.Quote(v))
}

// checkModeParams refuses a parameter of the other mode.
func checkModeParams(values url.Values, mode string) error {
	for _, p := range Params {
		if values.Get(p.Name) != "" && !p.belongsTo(mode) {
			return tenderbase.Errorf(tenderbase.EINVALID, "%s is a parameter of %s, not of mode=%s; the parameters of mode=%s are %s",
				p.Name, p.ModeList(), mode, mode, namesOf(mode))
		}
	}
	return nil
}

// parseCompat reads the conventions the request asks for and refuses
// dtype=csv without TenderGuru's: the spec's formats are xml and json.
func (q *Request) parseCompat(v string) error {
	var err error
	if q.Compat, err = compatOf(v); err != nil {
		return err
	}
	if q.Format == CSV && q.Compat != CompatTG && !TableMode(q.Mode) {
		return tenderbase.Errorf(tenderbase.EINVALID,
			"dtype=csv is one of TenderGuru's conventions: add compat=tg, or ask for xml or json, the spec's formats")
	}
	return nil
}

// parsePaging reads page as the conventions number pages and keeps it
// from 0. Under TenderGuru's a page=0 is refused rather than read as the
// first page: its caller counts from 0, and would get the first page twice
// and miss the last.
func (q *Request) parsePaging(values url.Values) error {
	first := q.Compat.FirstPage()
	if first == 1 && values.Get("page") == "0" {
		return tenderbase.Errorf(tenderbase.EINVALID, "pages count from 1 with compat=tg: page=1 is the first page, got \"0\"")
	}
	page, err := number(values, "page", first, MaxPage)
	if err != nil {
		return err
	}
	q.Page = max(0, page-first) // an absent page is 0: the first
	q.PerPage, err = number(values, "per_page", 1, MaxPerPage)
	return err
}

// number returns the whole number of parameter name, 0 when absent, or an
// error when it is not a number from lo to hi.
func number(values url.Values, name string, lo, hi int) (int, error) {
	v := values.Get(name)
	if v == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || !digits.MatchString(v) || n < lo || (hi >= 0 && n > hi) {
		if hi < 0 {
			return 0, tenderbase.Errorf(tenderbase.EINVALID, "%s must be a whole number from %d, got %s", name, lo, tenderbase.Quote(v))
		}
		return 0, tenderbase.Errorf(tenderbase.EINVALID, "%s must be a whole number from %d to %d, got %s", name, lo, hi, tenderbase.Quote(v))
	}
	return n, nil
}

var (
	digits = regexp.MustCompile(`^\d+$`)
	inn    = regexp.MustCompile(innPattern)
)

// innParam returns the INN the parameter name gives, in its string form of
// 10 or 12 digits or its integer form, which lost a leading zero.
func innParam(values url.Values, name string) (string, error) {
	v := values.Get(name)
	padded, ok := tenderbase.PadINN(v)
	if v != "" && (!inn.MatchString(v) || !ok) {
		return "", tenderbase.Errorf(tenderbase.EINVALID, "%s must be an INN of 10 or 12 digits (9 or 11 in its integer form), got %s", name, tenderbase.Quote(v))
	}
	return padded, nil
}

func (q *Request) parseFasEIS(values url.Values) error {
	var err error
	if q.CustomerINN, err = innParam(values, "fasCustomerInn"); err != nil {
		return err
	}
	if q.SupplierINN, err = innParam(values, "fasSupplierInn"); err != nil {
		return err
	}
	q.TendNum, q.ComplaintRegNum = values.Get("tend_num"), values.Get("complaint_regNumber")
	padded, ok := tenderbase.PadPurchaseNumber(q.TendNum)
	switch {
	case q.TendNum != "" && !digits.MatchString(q.TendNum):
		return tenderbase.Errorf(tenderbase.EINVALID, "tend_num must be a procurement number of digits, got %s", tenderbase.Quote(q.TendNum))
	case q.TendNum != "" && !ok:
		return tenderbase.Errorf(tenderbase.EINVALID, "tend_num must be a procurement number of up to 19 digits, got %s", tenderbase.Quote(q.TendNum))
	case q.ComplaintRegNum != "" && q.TendNum == "":
		return tenderbase.Errorf(tenderbase.EINVALID, "complaint_regNumber narrows the complaints of a procurement: give tend_num too")
	}
	q.TendNum = padded
	q.ComplaintID = values.Get("complaintID")
	return q.parseResult(values.Get("result"))
}

// parseResult checks result, which selects the results of one complaint and
// so takes complaintID and no other filter.
func (q *Request) parseResult(v string) error {
	switch {
	case v == "":
		return nil
	case v != "1":
		return tenderbase.Errorf(tenderbase.EINVALID, "result takes only the value 1 (the results of the complaint complaintID), got %s", tenderbase.Quote(v))
	case q.ComplaintID == "":
		return tenderbase.Errorf(tenderbase.EINVALID, "result=1 needs complaintID: the results of which complaint?")
	case q.CustomerINN != "" || q.SupplierINN != "" || q.TendNum != "":
		return tenderbase.Errorf(tenderbase.EINVALID, "result=1 takes the complaint by complaintID alone; leave out fasCustomerInn, fasSupplierInn and tend_num")
	}
	q.Result = true
	return nil
}

func (q *Request) parseFas(values url.Values) error {
	kwords, id := values.Get("kwords"), values.Get("id")
	if kwords != "" && id != "" {
		return tenderbase.Errorf(tenderbase.EINVALID, "give kwords or id, not both")
	}
	if id != "" {
		n, err := strconv.ParseInt(id, 10, 64)
		if err != nil || !digits.MatchString(id) || n <= 0 {
			return tenderbase.Errorf(tenderbase.EINVALID, "id must be a case id, a whole number from 1, got %s", tenderbase.Quote(id))
		}
		q.ID = n
	}
	if inn.MatchString(kwords) {
		q.INN = kwords
		return nil
	}
	if kwords != "" {
		var err error
		if q.Kwords, err = query.Parse(kwords, query.Kwords); err != nil {
			return err
		}
	}
	return nil
}
