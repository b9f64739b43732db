package tenderbase

import (
	"cmp"
	"encoding/json"
	"slices"
	"strings"
	"time"
	"unicode"
)

// WorldTender is a procurement notice from outside Russia: TED, eForms or an
// OCDS publisher. Texts are kept in the notice's own language.
type WorldTender struct {
	ID          string `json:"id"`                // source-qualified, e.g. "ted:352444-2021"
	Source      string `json:"source"`            // ted, eforms, ocds
	Country     int    `json:"country,omitempty"` // ISO 3166 numeric; absent when the notice does not tell
	Title       string `json:"title"`
	Description string `json:"description,omitempty"`
	Buyer       Party  `json:"buyer"` // RegNum holds the buyer's national id where published
	// Value is the value the notice states for the whole procurement: the
	// estimate of a contract notice (TED VAL_ESTIMATED_TOTAL, eForms
	// EstimatedOverallContractAmount, OCDS tender.value). An award notice's
	// total awarded is AwardedValue. A value published as 0 is kept with
	// its currency: a Currency without a Value (omitted in JSON as 0 is)
	// states an amount of 0, while a value not published has neither.
	Value    float64 `json:"value,omitempty"`
	Currency string  `json:"currency,omitempty"`
	// AwardedValue is the total of the contracts awarded, as the award
	// notice states it (TED VAL_TOTAL, eForms TotalAmount, the sum of OCDS
	// awards' values where one currency).
	AwardedValue    float64      `json:"awarded_value,omitempty"`
	AwardedCurrency string       `json:"awarded_currency,omitempty"`
	CPVCodes        []string     `json:"cpv_codes,omitempty"`
	PublishedAt     time.Time    `json:"published_at,omitzero"`
	Deadline        time.Time    `json:"deadline,omitzero"`  // for tenders or requests to participate
	Language        string       `json:"language,omitempty"` // ISO 639-1, lower case
	URL             string       `json:"url,omitempty"`
	NoticeType      string       `json:"notice_type,omitempty"`    // as published, e.g. "Contract notice", "cn-standard", "tender"
	ProcedureType   string       `json:"procedure_type,omitempty"` // as published, e.g. "Open procedure", "open"
	ContractType    string       `json:"contract_type,omitempty"`  // works, supplies, services
	Lots            []WorldLot   `json:"lots,omitempty"`
	Documents       []Attachment `json:"documents,omitempty"` // where the procurement documents are
	// Awards are the results of the procedure, a lot each where published
	// by lot: who won, at what value, out of how many tenders.
	Awards  []WorldAward `json:"awards,omitempty"`
	Updated time.Time    `json:"updated,omitzero"` // the date of the newest release merged (OCDS)
	// Stage is how far the procedure had gone in the newest version
	// merged, one of Stages (OCDS: the stage of the newest release's
	// tag); ReleaseID is that release's id. With Updated they order the
	// versions of one process, so that two of the same date merge alike
	// whichever is read first.
	Stage     string `json:"stage,omitempty"`
	ReleaseID string `json:"release_id,omitempty"`
}

// Stages are the stages of a procedure in the order they follow one
// another, as OCDS names them.
var Stages = []string{"planning", "tender", "award", "contract", "implementation"}

// CompareStages orders two stages as Stages does; a stage not in Stages
// ("" included) comes before every other.
func CompareStages(a, b string) int {
	return cmp.Compare(slices.Index(Stages, a), slices.Index(Stages, b))
}

// WorldLot is a lot of a world tender.
type WorldLot struct {
	ID          string   `json:"id,omitempty"`
	Title       string   `json:"title,omitempty"`
	Description string   `json:"description,omitempty"`
	CPVCodes    []string `json:"cpv_codes,omitempty"`
	Value       float64  `json:"value,omitempty"`
	Currency    string   `json:"currency,omitempty"`
}

// WorldAward is the result of a lot, or of the whole procedure, as an
// award notice (TED AWARD_CONTRACT, eForms LotResult and SettledContract,
// OCDS awards and contracts) publishes it.
type WorldAward struct {
	LotID string `json:"lot_id,omitempty"` // the lot's id as WorldLot.ID writes it; "" for the whole procedure
	// ContractID is the contract's number or id where published.
	ContractID string `json:"contract_id,omitempty"`
	Title      string `json:"title,omitempty"`
	// Awarded is false when the lot was not awarded (no tender, all
	// rejected, discontinued); Status says why, as published.
	Awarded bool          `json:"awarded"`
	Status  string        `json:"status,omitempty"`
	Winners []WorldWinner `json:"winners,omitempty"`
	// Value and Currency are the value awarded: the winning tender's or
	// the contract's total.
	Value    float64 `json:"value,omitempty"`
	Currency string  `json:"currency,omitempty"`
	// PreviousValue is the contract's value before the modification a
	// modification notice publishes (TED F20 VAL_TOTAL_BEFORE; Value is
	// then VAL_TOTAL_AFTER and Status "modified").
	PreviousValue float64 `json:"previous_value,omitempty"`
	// Estimated is the lot's estimate the award notice repeats, beside
	// the value awarded (TED VAL_ESTIMATED_TOTAL of the award).
	Estimated float64 `json:"estimated,omitempty"`
	// LowestTender and HighestTender are the range of the tenders
	// received, where published (TED VAL_RANGE_TOTAL, eForms).
	LowestTender  float64 `json:"lowest_tender,omitempty"`
	HighestTender float64 `json:"highest_tender,omitempty"`
	// TendersReceived is the number of tenders received, 0 where not
	// published; TendersSME those of small and medium enterprises.
	TendersReceived int `json:"tenders_received,omitempty"`
	TendersSME      int `json:"tenders_sme,omitempty"`
	// AwardDate is the date of the decision to award; ContractDate that of
	// the contract's conclusion (signature).
	AwardDate    time.Time `json:"award_date,omitzero"`
	ContractDate time.Time `json:"contract_date,omitzero"`
	// ContractEnd is the end of the contract's term where published: the
	// latest end of the award's contracts (OCDS contracts[].period), else
	// the term the award gives (OCDS awards[].contractPeriod).
	ContractEnd time.Time `json:"contract_end,omitzero"`
}

// WorldWinner is a contractor an award names.
type WorldWinner struct {
	Name string `json:"name"`
	// ID is the winner's national registration number as published (a
	// VAT or company number), IDScheme its scheme where published (OCDS
	// identifier.scheme, such as GB-COH).
	ID       string `json:"id,omitempty"`
	IDScheme string `json:"id_scheme,omitempty"`
	Country  int    `json:"country,omitempty"` // ISO 3166 numeric; 0 when not told
	Town     string `json:"town,omitempty"`
	// SME is set when the notice says the winner is a small or medium
	// enterprise; Size is the size as published (sme, large, micro...).
	SME  bool   `json:"sme,omitempty"`
	Size string `json:"size,omitempty"`
}

// LookupWinnerID is the lookup of a world tender by a winner's national
// id (WorldWinner.ID), as an EIS protocol is found by a participant's INN.
const LookupWinnerID = "winner_id"

// WinnerIDKey is a winner's id as its lookup holds it: its letters and
// digits, upper case, since notices write one VAT number as DE 811 128 135,
// DE811128135 or de-811128135. "" when it has none.
func WinnerIDKey(id string) string {
	var b strings.Builder
	for _, r := range id {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(unicode.ToUpper(r))
		}
	}
	return b.String()
}

func (w *WorldTender) Kind() Kind      { return KindWorldTender }
func (w *WorldTender) Key() string     { return w.ID }
func (w *WorldTender) Revision() int   { return 0 }
func (w *WorldTender) Date() time.Time { return w.PublishedAt }

// SearchText returns the title, description, buyer, CPV codes, the lots'
// titles and descriptions, and the winners' names, as texts of the award
// field that holds them (awards), so that a plan that hid awards would
// hide them too.
func (w *WorldTender) SearchText() []Text {
	ts := texts("title", w.Title, "description", w.Description, "buyer", w.Buyer.Name)
	for _, c := range w.CPVCodes {
		ts = append(ts, texts("cpv_codes", c)...)
	}
	for _, l := range w.Lots {
		ts = append(ts, texts("lots", l.Title, "lots", l.Description)...)
	}
	for _, a := range w.Awards {
		for _, win := range a.Winners {
			ts = append(ts, texts("awards", win.Name)...)
		}
	}
	return ts
}

// Flags returns the country flag and the flags of the prefixes of the CPV
// codes of the tender and its lots (LookupCPV).
func (w *WorldTender) Flags() []string {
	var f []string
	if w.Country > 0 {
		f = append(f, CountryFlag(w.Country))
	}
	codes := slices.Clone(w.CPVCodes)
	for _, l := range w.Lots {
		codes = append(codes, l.CPVCodes...)
	}
	return append(f, codeFlags(LookupCPV, codes, CPVPrefixes)...)
}

// Lookups returns the national id of every winner of its awards; the
// tender is found by its CPV codes through its flags.
func (w *WorldTender) Lookups() []Lookup {
	var ls []Lookup
	for _, a := range w.Awards {
		for _, win := range a.Winners {
			ls = append(ls, lookups(LookupWinnerID, WinnerIDKey(win.ID))...)
		}
	}
	return ls
}

// Merge joins w with the stored version of the same notice or process, as
// OCDS merges releases: the newer one (by Updated, else PublishedAt; for
// the same date the later Stage, then the greater ReleaseID) gives every
// field it has, the older fills those it lacks, and the first publication
// date is kept. So a release of a process imported after a later one
// changes nothing the later one said, and two versions merge alike in
// either order.
func (w *WorldTender) Merge(stored Record) Record {
	old, ok := stored.(*WorldTender)
	if !ok {
		return w
	}
	newer, older := w, old
	if compareVersions(old, w) > 0 {
		newer, older = old, w
	}
	m := *newer
	m.fillFrom(older)
	return &m
}

// compareVersions orders two versions of one world tender, oldest first.
// Versions alike in date, stage and release id are ordered by their
// content, so that even then the merge does not depend on which came
// first.
func compareVersions(a, b *WorldTender) int {
	if c := a.stamp().Compare(b.stamp()); c != 0 {
		return c
	}
	if c := CompareStages(a.Stage, b.Stage); c != 0 {
		return c
	}
	if c := strings.Compare(a.ReleaseID, b.ReleaseID); c != 0 {
		return c
	}
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return strings.Compare(string(ja), string(jb))
}

// stamp is the date a version of a world tender speaks as of.
func (w *WorldTender) stamp() time.Time {
	if !w.Updated.IsZero() {
		return w.Updated
	}
	return w.PublishedAt
}

// fillFrom takes from o each field w lacks.
func (w *WorldTender) fillFrom(o *WorldTender) {
	for _, f := range []struct {
		dst *string
		src string
	}{
		{&w.Source, o.Source}, {&w.Title, o.Title}, {&w.Description, o.Description}, {&w.Language, o.Language},
		{&w.URL, o.URL}, {&w.NoticeType, o.NoticeType}, {&w.ProcedureType, o.ProcedureType}, {&w.ContractType, o.ContractType},
	} {
		if *f.dst == "" {
			*f.dst = f.src
		}
	}
	if w.Country == 0 {
		w.Country = o.Country
	}
	if w.Value == 0 && w.Currency == "" { // a value of 0 with its currency is a value stated
		w.Value, w.Currency = o.Value, o.Currency
	}
	if w.AwardedValue == 0 && w.AwardedCurrency == "" {
		w.AwardedValue, w.AwardedCurrency = o.AwardedValue, o.AwardedCurrency
	}
	if w.Awards == nil {
		w.Awards = o.Awards
	}
	w.Buyer = w.Buyer.FillFrom(o.Buyer)
	if w.CPVCodes == nil {
		w.CPVCodes = o.CPVCodes
	}
	if w.Lots == nil {
		w.Lots = o.Lots
	}
	if w.Documents == nil {
		w.Documents = o.Documents
	}
	if w.Deadline.IsZero() {
		w.Deadline = o.Deadline
	}
	if w.PublishedAt.IsZero() || (!o.PublishedAt.IsZero() && o.PublishedAt.Before(w.PublishedAt)) {
		w.PublishedAt = o.PublishedAt
	}
	if o.Updated.After(w.Updated) {
		w.Updated = o.Updated
	}
}
