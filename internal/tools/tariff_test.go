package tools

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tenderbase/tenderbase"
)

// tariffRecord is a record in a tool's output and the tariff fields it must
// hide from a free caller.
type tariffRecord struct {
	where  string
	object map[string]any
	fields []string
}

// tariffCase calls a tool with arguments whose results carry the tariff
// fields of the kinds the tool returns, and finds the records in its output.
type tariffCase struct {
	tool, args string
	records    func(v map[string]any) []tariffRecord
	// counted are the members of the result made from tariff fields,
	// which Restricted names beside the fields for a free caller.
	counted []string
}

var tariffCases = []tariffCase{
	{"ru.search", `{"query": "оказание | поставка | выполнение"}`, items(tenderbase.KindTender), nil},
	{"ru.detail", `{"id": "0162307330524391275"}`, itself(tenderbase.KindTender), nil},
	{"ru.izm", `{"tend_num": "0162307330524391275"}`, versions, []string{"timeline.participants", "timeline.winners"}},
	{"ru.contractByNum", `{"tend_num": "0162307330523677748"}`, winnersAndContracts, nil},
	{"docs.search", `{"query": "заказчик | контракт | закупки"}`, items(tenderbase.KindDoc), nil},
	{"contracts.search", `{"query": "оказание | поставка | выполнение"}`, items(tenderbase.KindContract), nil},
	{"contracts.detail", `{"id": "3160130329823257539"}`, itself(tenderbase.KindContract), nil},
	{"world.search", `{"query": "Schulverpflegung | school"}`, items(tenderbase.KindWorldTender), nil},
	{"world.detail", `{"id": "ocds:ocds-tbdemo-2025-773723"}`, itself(tenderbase.KindWorldTender), nil},
	{"contragent.byInn", `{"inn": "1601303298"}`, member("org", tenderbase.KindOrg), []string{"as_participant", "as_supplier", "complaints.as_supplier"}},
	{"torgi.search", `{"query": "оборудование | имущество"}`, items(tenderbase.KindLot), nil},
	{"torgi.detail", `{"id": "efrsb-17423037_1"}`, itself(tenderbase.KindLot), nil},
	{"rnp.search", `{"query": "общество | предприниматель"}`, items(tenderbase.KindUnfairSupplier), nil},
	{"rnp.detail", `{"id": "23003018"}`, itself(tenderbase.KindUnfairSupplier), nil},
	{"plans.search", `{"query": "поставка | оказание"}`, items(tenderbase.KindPlannedPurchase), nil},
	{"plans.detail", `{"id": "202306621491460001000001"}`, itself(tenderbase.KindPlannedPurchase), nil},
}

// TestTariffFields holds every tool to the plans: for every field that
// tenderbase.TariffFields lists for the kinds a tool returns, a free caller
// gets it present with null in every record and named in Restricted, and a
// paid caller gets a value in at least one record. contragent.contacts,
// which refuses free callers altogether, is TestErrors' business.
func TestTariffFields(t *testing.T) {
	covered := []string{"contragent.contacts"}
	for _, c := range tariffCases {
		covered = append(covered, c.tool)
		t.Run(c.tool, func(t *testing.T) {
			free, freeOut := tariffRecords(t, c, tenderbase.PlanFree)
			for _, p := range freeProblems(free, withoutCounted(withoutOrgInfo(t, c.tool, freeOut.Restricted, true), c.counted)) {
				t.Error(p)
			}
			for _, plan := range []tenderbase.Plan{tenderbase.PlanStandard, tenderbase.PlanGuru, tenderbase.PlanCorporate} {
				paid, paidOut := tariffRecords(t, c, plan)
				restricted := withoutOrgInfo(t, c.tool, paidOut.Restricted, !tenderbase.Plans[plan].OrgInfo)
				for _, p := range paidProblems(paid, restricted) {
					t.Errorf("%s: %s", plan, p)
				}
			}
		})
	}
	slices.Sort(covered)
	// The feed's changes name records without any of their fields; price
	// monitoring answers figures, and names of objects, which no plan hides;
	// red flags are refused to the free plan whole (TestFlagsRefusals);
	// aggregates and profiles are figures of paid plans alone; the subscriptions'
	// tools answer an account's own settings; the freshness answers dates
	// and counts of the sync; the analysis of documentation is refused to
	// free and standard whole (TestDocsAnalyze). What a mailing shows of
	// records is TestMatchesPlans' business.
	want := slices.DeleteFunc(slices.Clone(specTools), func(name string) bool {
		return name == "feed.changes" || name == "prices.monitor" || name == "ru.flags" || name == "analytics.aggregate" || name == "analytics.profile" ||
			strings.HasPrefix(name, "subscriptions.") || name == "data.freshness" || name == "docs.analyze"
	})
	slices.Sort(want)
	if diff := cmp.Diff(want, covered); diff != "" {
		t.Errorf("tools without a tariff case (-want +got):\n%s", diff)
	}
}

// TestTariffCheckFails shows that the checks of TestTariffFields fail on
// outputs that break the rule: a paid output shown to a free caller, and a
// free output shown to a paid one.
func TestTariffCheckFails(t *testing.T) {
	for _, c := range tariffCases {
		free, freeOut := tariffRecords(t, c, tenderbase.PlanFree)
		paid, paidOut := tariffRecords(t, c, tenderbase.PlanStandard)
		if !hasTariffFields(free) {
			continue
		}
		if len(freeProblems(paid, withoutCounted(paidOut.Restricted, c.counted))) == 0 {
			t.Errorf("%s: the free check passes a paid output", c.tool)
		}
		if len(paidProblems(free, freeOut.Restricted)) == 0 {
			t.Errorf("%s: the paid check passes a free output", c.tool)
		}
	}
}

// tariffRecords calls the tool of c as plan and returns the records of its
// output; there must be some, or the checks would pass on nothing.
func tariffRecords(t *testing.T, c tariffCase, plan tenderbase.Plan) ([]tariffRecord, Output) {
	t.Helper()
	out, v := mustCall(t, asPlan(plan), c.tool, c.args)
	validateOutput(t, c.tool, out)
	recs := c.records(v)
	if len(recs) == 0 {
		t.Fatalf("%s %s returns no records", c.tool, c.args)
	}
	return recs, out
}

// withoutCounted returns restricted without the counted members, which
// must all be in it.
// orgInfo are the members of a card that tell what the registers hold of
// its organizations, which the plans with OrgInfo alone see.
var orgInfo = map[string][]string{
	"ru.detail":        {"customer_org"},
	"contracts.detail": {"customer_org", "supplier_orgs"},
}

// withoutOrgInfo returns restricted without the tool's orgInfo members,
// checking that it names them exactly when hidden says they are.
func withoutOrgInfo(t *testing.T, tool string, restricted []string, hidden bool) []string {
	t.Helper()
	members := orgInfo[tool]
	out := slices.DeleteFunc(slices.Clone(restricted), func(f string) bool { return slices.Contains(members, f) })
	if named := len(restricted) - len(out); hidden && named != len(members) || !hidden && named != 0 {
		t.Errorf("%s: Restricted %v, hidden organization information %v: %v", tool, restricted, members, hidden)
	}
	return out
}

func withoutCounted(restricted, counted []string) []string {
	out := slices.DeleteFunc(slices.Clone(restricted), func(f string) bool { return slices.Contains(counted, f) })
	if len(out)+len(counted) != len(restricted) {
		return append(out, "(not every count made from tariff fields)")
	}
	return out
}

// freeProblems checks what a free caller got: every tariff field present and
// null, and Restricted naming exactly those fields.
func freeProblems(recs []tariffRecord, restricted []string) []string {
	var problems, hidden []string
	for _, r := range recs {
		for _, f := range r.fields {
			v, present := r.object[f]
			switch {
			case !present:
				problems = append(problems, fmt.Sprintf("%s: tariff field %s is missing; it must be present with null", r.where, f))
			case v != nil:
				problems = append(problems, fmt.Sprintf("%s: tariff field %s has a value for a free caller: %v", r.where, f, v))
			}
			hidden = append(hidden, f)
		}
	}
	slices.Sort(hidden)
	hidden = slices.Compact(hidden)
	if !slices.Equal(hidden, restricted) {
		problems = append(problems, fmt.Sprintf("Restricted is %v, want %v", restricted, hidden))
	}
	return problems
}

// paidProblems checks what a paid caller got: a value for every tariff field
// in at least one record, and nothing restricted.
func paidProblems(recs []tariffRecord, restricted []string) []string {
	var problems []string
	if len(restricted) > 0 {
		problems = append(problems, fmt.Sprintf("Restricted is %v for a paid caller", restricted))
	}
	var fields []string
	for _, r := range recs {
		fields = append(fields, r.fields...)
	}
	slices.Sort(fields)
	for _, f := range slices.Compact(fields) {
		if !slices.ContainsFunc(recs, func(r tariffRecord) bool { return r.object[f] != nil }) {
			problems = append(problems, fmt.Sprintf("no record carries a value for tariff field %s", f))
		}
	}
	return problems
}

func hasTariffFields(recs []tariffRecord) bool {
	return slices.ContainsFunc(recs, func(r tariffRecord) bool { return len(r.fields) > 0 })
}

// items finds the records of kind k in a search result.
func items(k tenderbase.Kind) func(map[string]any) []tariffRecord {
	return func(v map[string]any) []tariffRecord {
		return list(v["items"], "items", k)
	}
}

// itself takes the output as one record of kind k.
func itself(k tenderbase.Kind) func(map[string]any) []tariffRecord {
	return func(v map[string]any) []tariffRecord {
		return []tariffRecord{{where: "the record", object: v, fields: tenderbase.TariffFields[k]}}
	}
}

// member finds one record of kind k under name.
func member(name string, k tenderbase.Kind) func(map[string]any) []tariffRecord {
	return func(v map[string]any) []tariffRecord {
		obj, _ := v[name].(map[string]any)
		if obj == nil {
			return nil
		}
		return []tariffRecord{{where: name, object: obj, fields: tenderbase.TariffFields[k]}}
	}
}

// versions finds the tender records of ru.izm.
func versions(v map[string]any) []tariffRecord {
	var recs []tariffRecord
	vs, _ := v["versions"].([]any)
	for i, ver := range vs {
		obj, _ := ver.(map[string]any)
		rec, _ := obj["record"].(map[string]any)
		recs = append(recs, tariffRecord{where: fmt.Sprintf("versions[%d].record", i), object: rec, fields: tenderbase.TariffFields[tenderbase.KindTender]})
	}
	return recs
}

// winnersAndContracts finds the contracts and protocols of
// ru.contractByNum, and its winners: the tender's tariff field participants
// under another name.
func winnersAndContracts(v map[string]any) []tariffRecord {
	recs := list(v["contracts"], "contracts", tenderbase.KindContract)
	recs = append(recs, list(v["protocols"], "protocols", tenderbase.KindProtocol)...)
	if slices.Contains(tenderbase.TariffFields[tenderbase.KindTender], "participants") {
		recs = append(recs, tariffRecord{where: "the result", object: v, fields: []string{winnersField}})
	}
	return recs
}

func list(v any, name string, k tenderbase.Kind) []tariffRecord {
	var recs []tariffRecord
	vs, _ := v.([]any)
	for i, item := range vs {
		obj, _ := item.(map[string]any)
		recs = append(recs, tariffRecord{where: fmt.Sprintf("%s[%d]", name, i), object: obj, fields: tenderbase.TariffFields[k]})
	}
	return recs
}
