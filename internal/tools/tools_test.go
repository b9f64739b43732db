package tools

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/jsonschema-go/jsonschema"

	"github.com/tenderbase/tenderbase"
)

// specTools are the tools of spec 4.2, in its order, and the feed.
var specTools = []string{
	"ru.search", "ru.detail", "ru.izm", "ru.contractByNum",
	"docs.search",
	// Beyond the spec: the analysis of a tender's documentation (issue 37).
	"docs.analyze",
	"contracts.search", "contracts.detail",
	"world.search", "world.detail",
	"contragent.byInn", "contragent.contacts",
	"torgi.search", "torgi.detail",
	"rnp.search", "rnp.detail",
	// Beyond the spec: positions of purchase plans.
	"plans.search", "plans.detail",
	// Beyond the spec: the feed of changes, to poll instead of searching.
	"feed.changes",
	// Beyond the spec's tools: the plans' price monitoring, red flags,
	// aggregates and mailings (spec part 8).
	"prices.monitor", "ru.flags", "analytics.aggregate", "analytics.profile",
	"subscriptions.create", "subscriptions.list", "subscriptions.delete",
	// Beyond the spec: how current the data is, before an empty answer is
	// trusted.
	"data.freshness",
}

// selfExplained are the arguments whose name, type, enum or pattern say
// all there is to say, and whose sibling (price_min, published_from) or
// the server's instructions (page, exact) say the rest: their schemas carry no
// description, since a model reads every tool's before its first call.
var selfExplained = []string{"ikz", "plan_number", "laws", "price_max", "published_to", "deadline_to", "ends_to", "customer_inn", "organizer_inn", "supplier_inn", "sort", "page", "exact"}

func TestList(t *testing.T) {
	var names []string
	for _, tool := range demoSet.List() {
		names = append(names, tool.Name)
		if tool.Title == "" || len(tool.Description) < 100 {
			t.Errorf("%s: title %q, description of %d bytes; a model needs both", tool.Name, tool.Title, len(tool.Description))
		}
		var in struct {
			Properties map[string]struct{ Description string }
		}
		if err := json.Unmarshal(tool.InputSchema, &in); err != nil {
			t.Fatal(err)
		}
		if len(in.Properties) > 1 && !strings.Contains(tool.Description, "Example: {") {
			t.Errorf("%s: the description has no example call", tool.Name)
		}
		for name, p := range in.Properties {
			if p.Description == "" && !slices.Contains(selfExplained, name) {
				t.Errorf("%s: the schema does not say what %s is", tool.Name, name)
			}
		}
		for _, schema := range []json.RawMessage{tool.InputSchema, tool.OutputSchema} {
			var s struct{ Type string }
			if err := json.Unmarshal(schema, &s); err != nil || s.Type != "object" {
				t.Errorf("%s: schema type %q (%v), want object", tool.Name, s.Type, err)
			}
		}
		if got, ok := demoSet.ByEndpoint(tool.Group, tool.Operation); !ok || got != tool {
			t.Errorf("ByEndpoint(%q, %q) does not find %s", tool.Group, tool.Operation, tool.Name)
		}
		if got, ok := demoSet.Lookup(tool.Name); !ok || got != tool {
			t.Errorf("Lookup(%q) does not find it", tool.Name)
		}
	}
	if diff := cmp.Diff(specTools, names); diff != "" {
		t.Errorf("tools (-spec +got):\n%s", diff)
	}
	if _, ok := demoSet.ByEndpoint("ru", "nothing"); ok {
		t.Error("ByEndpoint found a tool that does not exist")
	}
}

func TestInputSchemas(t *testing.T) {
	for _, c := range []struct {
		tool, property string
		want           string // a fragment of the property's schema
	}{
		{"ru.search", "page", `"minimum":0`},
		{"ru.search", "regions", `"items":{"type":"integer","minimum":1,"maximum":99}`},
		{"world.search", "countries", `"items":{"type":"integer","minimum":1,"maximum":999}`},
		{"contragent.byInn", "inn", `"pattern":"^\\d{10}(\\d{2})?$"`},
		{"ru.detail", "id", `Purchase number`},
		{"contracts.detail", "id", `Registry number`},
		{"contracts.search", "sort", `"enum":["newest","price_asc","price_desc","ends","relevance"]`},
	} {
		var s struct {
			Properties           map[string]json.RawMessage
			Required             []string
			AdditionalProperties json.RawMessage
		}
		tool, _ := demoSet.Lookup(c.tool)
		if err := json.Unmarshal(tool.InputSchema, &s); err != nil {
			t.Fatal(err)
		}
		if p := string(s.Properties[c.property]); !strings.Contains(p, c.want) {
			t.Errorf("%s %s: schema %s lacks %s", c.tool, c.property, p, c.want)
		}
		if !strings.Contains(string(s.Properties[c.property]), `"description"`) && !slices.Contains(selfExplained, c.property) {
			t.Errorf("%s %s: no description", c.tool, c.property)
		}
		if string(s.AdditionalProperties) != "false" {
			t.Errorf("%s: additionalProperties %s, want false", c.tool, s.AdditionalProperties)
		}
		// A search lists the newest records without a query; every other
		// tool needs its key.
		if want := 1; strings.HasSuffix(c.tool, ".search") && len(s.Required) != 0 || !strings.HasSuffix(c.tool, ".search") && len(s.Required) != want {
			t.Errorf("%s: required %v", c.tool, s.Required)
		}
	}
}

// goodArgs are arguments every tool accepts, from the demo data.
var goodArgs = map[string]string{
	"ru.search":           `{"query": "охраны", "regions": [16], "page": 0}`,
	"ru.detail":           `{"id": "0162307330524391275"}`,
	"ru.izm":              `{"tend_num": "0162307330524391275"}`,
	"ru.contractByNum":    `{"tend_num": "0162307330523677748"}`,
	"docs.search":         `{"query": "0662149146023646546"}`,
	"docs.analyze":        `{"purchase_number": "0662149146023646546"}`,
	"contracts.search":    `{"query": "уборка", "filters": {"fz44": 1}}`,
	"contracts.detail":    `{"id": "3160130329823257539"}`,
	"world.search":        `{"query": "Schulverpflegung", "countries": [40]}`,
	"world.detail":        `{"id": "ted:800461-2024"}`,
	"contragent.byInn":    `{"inn": "1601303298"}`,
	"contragent.contacts": `{"inn": "1601303298"}`,
	"torgi.search":        `{"query": "оборудование", "regions": [74]}`,
	"torgi.detail":        `{"id": "efrsb-17423037_1"}`,
	"rnp.search":          `{"query": "АкваХимРеагент", "filters": {"fz44": 1}}`,
	"rnp.detail":          `{"id": "23003018"}`,
	"plans.search":        `{"query": "оказание услуг", "publish_in": "2023", "regions": [63, 77]}`,
	"plans.detail":        `{"id": "202306621491460001000001"}`,
	"feed.changes":        `{"resource": "fas", "limit": 3}`,
	"prices.monitor":      `{"okpd2": "26.20"}`,
	"ru.flags":            `{"tend_num": "0362064093423626283"}`,
	"analytics.aggregate": `{"resource": "ru", "search": {"query": "поставка"}, "by": "region", "top": 3}`,
	"analytics.profile":   `{"inn": "2320884627", "role": "supplier", "top": 3}`,
	"subscriptions.create": `{"name": "Кровля", "resource": "ru", "search": {"query": "ремонт кровли", "regions": [77]}, ` +
		`"schedule": "daily", "hour": 9, "recipients": ["buyer@example.com"]}`,
	"subscriptions.list":   `{}`,
	"subscriptions.delete": `{"id": "s_00000000"}`,
	"data.freshness":       `{}`,
}

// badArgs are arguments that do not fit a tool's schema, by what is wrong.
var badArgs = []struct {
	what, tool, args string
}{
	{"not an object", "ru.search", `[]`},
	{"not an object", "ru.detail", `"0162307330524391275"`},
	{"not an object", "contragent.byInn", `7712137030`},
	{"not JSON", "ru.search", `{"query": }`},
	{"missing", "ru.detail", `null`},
	{"missing", "world.detail", `{"id": null}`},
	{"missing", "ru.detail", `{}`},
	{"missing", "ru.izm", `{"id": "0162307330524391275"}`},
	{"missing", "contragent.byInn", `{}`},
	{"empty", "ru.detail", `{"id": ""}`},
	{"empty", "ru.contractByNum", `{"tend_num": ""}`},
	{"unknown", "ru.search", `{"query": "охраны", "region": [16]}`},
	{"unknown", "world.search", `{"query": "school", "regions": [77]}`},
	{"unknown", "torgi.detail", `{"id": "efrsb-17423037_1", "page": 0}`},
	{"unknown", "contragent.contacts", `{"inn": "1601303298", "INN": "1601303298"}`},
	{"wrong type", "ru.search", `{"query": 4.2}`},
	{"wrong type", "ru.search", `{"query": "охраны", "regions": 16}`},
	{"wrong type", "ru.search", `{"query": "охраны", "regions": ["16a"]}`},
	{"wrong type", "ru.search", `{"query": "охраны", "page": "1.5"}`},
	{"wrong type", "ru.search", `{"query": "охраны", "page": 1.5}`},
	{"wrong type", "ru.search", `{"query": "охраны", "filters": ["r16"]}`},
	{"wrong type", "docs.search", `{"query": ["a", "b"]}`},
	{"wrong type", "world.search", `{"query": "school", "countries": [true]}`},
	{"wrong type", "contracts.detail", `{"id": 3160130329823257539}`},
	{"wrong type", "ru.izm", `{"tend_num": true}`},
	{"wrong type", "contragent.byInn", `{"inn": 1601303298.5}`},
	{"wrong type", "contragent.byInn", `{"inn": -1601303298}`},
	{"negative page", "ru.search", `{"query": "охраны", "page": -1}`},
	{"negative page", "torgi.search", `{"query": "оборудование", "page": -20}`},
	{"page too far", "contracts.search", `{"query": "уборка", "page": 1000001}`},
	{"region out of range", "ru.search", `{"query": "охраны", "regions": [0]}`},
	{"region out of range", "docs.search", `{"query": "охраны", "regions": [16, 100]}`},
	{"country out of range", "world.search", `{"query": "school", "countries": [1000]}`},
}

func TestArguments(t *testing.T) {
	ctx := asPlan(tenderbase.PlanStandard)
	for _, c := range badArgs {
		t.Run(c.what+"/"+c.tool, func(t *testing.T) {
			_, err := call(t, demoSet, ctx, c.tool, c.args)
			if errorCode(err) != "argument" {
				t.Fatalf("%s: got %v (%s), want an argument error", c.args, err, errorCode(err))
			}
			t.Log(err)
			// The schema a client reads must reject what the tool rejects.
			if validateArgs(t, c.tool, c.args) == nil && c.what != "not JSON" && c.what != "missing" {
				t.Errorf("%s: the input schema accepts what the tool rejects", c.args)
			}
		})
	}
	for tool, args := range goodArgs {
		if err := validateArgs(t, tool, args); err != nil {
			t.Errorf("%s %s: the input schema rejects good arguments: %v", tool, args, err)
		}
		if found, _ := demoSet.Lookup(tool); found.Effect != Reads || tool == "docs.analyze" {
			continue // called on a store of their own by subscriptions_test.go and analyze_test.go
		}
		if _, err := call(t, demoSet, ctx, tool, args); err != nil {
			t.Errorf("%s %s: %v", tool, args, err)
		}
	}
}

func TestArgumentMessages(t *testing.T) {
	for _, c := range []struct{ tool, args, want string }{
		{"ru.search", `[]`, "the arguments must be a JSON object, got an array"},
		{"ru.detail", `{}`, `argument "id" is required (a string)`},
		{"ru.search", `{"query": "a", "region": [16]}`, `unknown argument "region"; this tool takes query, exact, regions, laws, price_min, price_max, ` +
			`published_from, published_to, deadline_from, deadline_to, open, state, okpd2, customer_inn, organizer_inn, participant_inn, placing_method, platform, sort, page, cursor, filters`},
		{"docs.search", `{"price_min": 5}`, `unknown argument "price_min"; this tool takes query, exact, regions, published_from, published_to, customer_inn, sort, page, cursor, filters`},
		{"ru.search", `{"query": "a", "page": "1.5"}`, `argument "page" must be an integer, or a string of digits alone, got a string "1.5"`},
		{"ru.search", `{"query": "a", "regions": ["16", "x"]}`, `argument "regions" must be an array of integers, or of strings of digits alone, got an array ["16", "x"]`},
		{"ru.search", `{"query": "a", "page": -1}`, `argument "page" must be from 0 to 1000000 (pages count from 0), got -1`},
		{"ru.search", `{"query": "a", "regions": [100]}`, `argument "regions" holds codes from 1 to 99, got 100`},
		{"contragent.byInn", `{"inn": 1601303298.5}`, `argument "inn" must be a string, or a number of digits alone, got a number 1601303298.5`},
		{"contracts.detail", `{"id": 3160130329823257539}`, `argument "id" must be a string: the number 3160130329823257539 is past 9007199254740991 (2^53-1), the largest integer a JSON number keeps exactly in every client; send it in quotes`},
		{"ru.search", `{"query": "a", "query": "b"}`, `member "/query" is given twice; give each member of a JSON object once`},
		{"ru.search", `{"query": "a", "filters": {"r77": 1, "r\u0037\u0037": 1}}`, `member "/filters/r77" is given twice; give each member of a JSON object once`},
	} {
		_, err := call(t, demoSet, asPlan(tenderbase.PlanFree), c.tool, c.args)
		if err == nil || err.Error() != c.want {
			t.Errorf("%s %s: got %v, want %s", c.tool, c.args, err, c.want)
		}
	}
}

// Some clients send a string of digits as a JSON number (the Inspector CLI
// does); one short enough to be exact is taken as its digits.
func TestDigitsSentAsANumber(t *testing.T) {
	ctx := asPlan(tenderbase.PlanStandard)
	asString, err := call(t, demoSet, ctx, "contragent.byInn", `{"inn": "1601303298"}`)
	if err != nil {
		t.Fatalf("inn as a string: %v", err)
	}
	asNumber, err := call(t, demoSet, ctx, "contragent.byInn", `{"inn": 1601303298}`)
	if err != nil {
		t.Fatalf("inn as a number: %v", err)
	}
	if string(asNumber.Value) != string(asString.Value) {
		t.Errorf("inn as a number gives another answer:\n%s\nwant\n%s", asNumber.Value, asString.Value)
	}
}

// Null stands for an absent optional argument, and surrounding space in an
// id is not part of it.
func TestArgumentsLenient(t *testing.T) {
	for _, c := range []struct{ tool, args string }{
		{"ru.search", `{"query": "охраны", "regions": null, "page": null, "filters": null}`},
		{"ru.detail", `{"id": " 0162307330524391275 "}`},
		{"contragent.byInn", `{"inn": "1601303298\n"}`},
	} {
		if _, err := call(t, demoSet, asPlan(tenderbase.PlanFree), c.tool, c.args); err != nil {
			t.Errorf("%s %s: %v", c.tool, c.args, err)
		}
	}
}

func TestErrors(t *testing.T) {
	paid := tenderbase.PlanStandard
	for _, c := range []struct {
		plan       tenderbase.Plan
		tool, args string
		code       string
		message    string // a fragment of the message
	}{
		{paid, "ru.search", `{"filters": {"price1": "много"}}`, tenderbase.EINVALID, `filter "price1" takes a price in roubles`},
		{paid, "ru.search", `{"query": "охраны & "}`, tenderbase.EINVALID, "character"},
		{paid, "docs.search", `{"query": "\"договор"}`, tenderbase.EINVALID, "quote"},
		{paid, "ru.search", `{"query": "охраны", "filters": {"x1": 1}}`, tenderbase.EINVALID, `unknown filter "x1"`},
		{paid, "ru.search", `{"query": "охраны", "filters": {"r16": 2}}`, tenderbase.EINVALID, `filter "r16"`},
		{paid, "ru.search", `{"query": "охраны", "filters": {"cr276": 1}}`, tenderbase.EINVALID, `filter "cr276" does not apply to ru.search`},
		{paid, "world.search", `{"query": "school", "filters": {"r77": 1}}`, tenderbase.EINVALID, `its filters are cr<country code>`},
		{paid, "torgi.search", `{"query": "оборудование", "filters": {"fz44": 1}}`, tenderbase.EINVALID, `"fz44" does not apply`},
		{paid, "ru.detail", `{"id": "0373200041599999999"}`, tenderbase.ENOTFOUND, "no tender with purchase number \"0373200041599999999\"; find tenders with ru.search"},
		{paid, "ru.izm", `{"tend_num": "0373200041599999999"}`, tenderbase.ENOTFOUND, "0373200041599999999"},
		{paid, "ru.contractByNum", `{"tend_num": "0373200041599999999"}`, tenderbase.ENOTFOUND, "no tender, protocol or contract"},
		{paid, "contracts.detail", `{"id": "3000"}`, tenderbase.ENOTFOUND, "no contract with registry number \"3000\""},
		{paid, "world.detail", `{"id": "800461-2024"}`, tenderbase.ENOTFOUND, "ted:800461-2024"},
		{paid, "torgi.detail", `{"id": "99"}`, tenderbase.ENOTFOUND, "no lot with id \"99\""},
		{paid, "torgi.detail", `{"id": "17423037"}`, tenderbase.ENOTFOUND, "notice 17423037 has 1 lot(s): efrsb-17423037_1"},
		{paid, "contragent.byInn", `{"inn": "7700000000"}`, tenderbase.ENOTFOUND, "nothing is known of INN 7700000000"},
		{paid, "contragent.byInn", `{"inn": "77000000001"}`, tenderbase.EINVALID, "10 digits"},
		{paid, "contragent.byInn", `{"inn": "ООО Ромашка"}`, tenderbase.EINVALID, "is not an INN"},
		{paid, "contragent.contacts", `{"inn": "7700000000"}`, tenderbase.ENOTFOUND, "7700000000"},
		{paid, "contragent.contacts", `{"inn": "770"}`, tenderbase.EINVALID, "is not an INN"},
		{tenderbase.PlanFree, "contragent.contacts", `{"inn": "1601303298"}`, tenderbase.EFORBIDDEN, "paid plan (standard, guru, corporate); your plan is free"},
	} {
		_, err := call(t, demoSet, asPlan(c.plan), c.tool, c.args)
		if got := errorCode(err); got != c.code {
			t.Errorf("%s %s: got %v (%s), want %s", c.tool, c.args, err, got, c.code)
			continue
		}
		if !strings.Contains(err.Error(), c.message) {
			t.Errorf("%s %s: message %q lacks %q", c.tool, c.args, err, c.message)
		}
	}
}

// validateArgs validates arguments against a tool's input schema.
func validateArgs(t *testing.T, tool, args string) error {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(args), &v); err != nil {
		return err
	}
	return resolved(t, tool, true).Validate(v)
}

// validateOutput checks what MCP answers of an output against the tool's
// output schema, and the whole page of a search tool, which its debug
// endpoint answers, against the schema of whole records.
func validateOutput(t *testing.T, tool string, out Output) {
	t.Helper()
	validateJSON(t, tool, out.Structured(), resolved(t, tool, false))
	if out.Summary == nil {
		return
	}
	tl, _ := demoSet.Lookup(tool)
	if tl.ValueSchema == nil {
		t.Fatalf("%s answers a summary, but has no schema of its whole value", tool)
	}
	validateJSON(t, tool+" (whole records)", out.Value, resolve(t, tool, tl.ValueSchema))
}

func validateJSON(t *testing.T, what string, body json.RawMessage, schema *jsonschema.Resolved) {
	t.Helper()
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		t.Fatalf("%s: output is no JSON: %v", what, err)
	}
	if err := schema.Validate(v); err != nil {
		t.Errorf("%s: output does not fit the output schema: %v", what, err)
	}
}

func resolved(t *testing.T, name string, input bool) *jsonschema.Resolved {
	t.Helper()
	tool, ok := demoSet.Lookup(name)
	if !ok {
		t.Fatalf("no tool %s", name)
	}
	raw := tool.OutputSchema
	if input {
		raw = tool.InputSchema
	}
	return resolve(t, name, raw)
}

func resolve(t *testing.T, name string, raw json.RawMessage) *jsonschema.Resolved {
	t.Helper()
	var s jsonschema.Schema
	if err := json.Unmarshal(raw, &s); err != nil {
		t.Fatalf("%s schema: %v", name, err)
	}
	rs, err := s.Resolve(nil)
	if err != nil {
		t.Fatalf("%s schema: %v", name, err)
	}
	return rs
}

// TestStatusAndStateTold checks that the tools that give a tender both its
// notice's status and its derived state say which is which: side by side,
// status active and state completed read as a contradiction.
func TestStatusAndStateTold(t *testing.T) {
	tool, _ := demoSet.Lookup("ru.detail")
	for _, want := range []string{"status is the notice's as published", "state is where the tender stands now", "trust state"} {
		if !strings.Contains(tool.Description, want) {
			t.Errorf("ru.detail's description does not say %q: %s", want, tool.Description)
		}
	}
}
