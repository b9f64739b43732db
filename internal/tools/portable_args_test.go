package tools

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tenderbase/tenderbase"
)

// otherFormArgs are arguments of each kind the decoder takes in the other
// form: a string, an integer and an array of integers.
type otherFormArgs struct {
	ID      string `json:"id,omitempty"`
	Page    int    `json:"page,omitempty"`
	Regions []int  `json:"regions,omitempty"`
}

// TestOtherForms checks the decoder on each form of each kind of argument:
// what it takes, and that what it refuses says which forms it takes.
func TestOtherForms(t *testing.T) {
	fields := argFieldsOf[otherFormArgs]()
	for _, c := range []struct {
		args string
		want otherFormArgs
		err  string
	}{
		// A string argument: a number of digits alone is its digits, up to
		// 2^53-1; past that a client may already have rounded it.
		{args: `{"id": 7707083893}`, want: otherFormArgs{ID: "7707083893"}},
		{args: `{"id": 0}`, want: otherFormArgs{ID: "0"}},
		{args: `{"id": 9007199254740991}`, want: otherFormArgs{ID: "9007199254740991"}},
		{args: `{"id": "7707083893"}`, want: otherFormArgs{ID: "7707083893"}},
		{args: `{"id": 9007199254740992}`, err: `argument "id" must be a string: the number 9007199254740992 is past 9007199254740991 (2^53-1), the largest integer a JSON number keeps exactly in every client; send it in quotes`},
		{args: `{"id": 3160130329823257539}`, err: `argument "id" must be a string: the number 3160130329823257539 is past 9007199254740991 (2^53-1), the largest integer a JSON number keeps exactly in every client; send it in quotes`},
		{args: `{"id": 123456789012345678901234567890}`, err: `argument "id" must be a string: the number of 30 digits is past 9007199254740991 (2^53-1), the largest integer a JSON number keeps exactly in every client; send it in quotes`},
		{args: `{"id": 1e10}`, err: `argument "id" must be a string, or a number of digits alone, got a number 1e10`},
		{args: `{"id": 1E3}`, err: `argument "id" must be a string, or a number of digits alone, got a number 1E3`},
		{args: `{"id": 7.5}`, err: `argument "id" must be a string, or a number of digits alone, got a number 7.5`},
		{args: `{"id": 10.0}`, err: `argument "id" must be a string, or a number of digits alone, got a number 10.0`},
		{args: `{"id": -7}`, err: `argument "id" must be a string, or a number of digits alone, got a number -7`},
		{args: `{"id": true}`, err: `argument "id" must be a string, or a number of digits alone, got a boolean true`},
		{args: `{"id": ["7"]}`, err: `argument "id" must be a string, or a number of digits alone, got an array ["7"]`},
		// An integer argument: a string of digits alone is its number.
		{args: `{"page": "77"}`, want: otherFormArgs{Page: 77}},
		{args: `{"page": "007"}`, want: otherFormArgs{Page: 7}},
		{args: `{"page": "0"}`, want: otherFormArgs{Page: 0}},
		{args: `{"page": 77}`, want: otherFormArgs{Page: 77}},
		{args: `{"page": "7.5"}`, err: `argument "page" must be an integer, or a string of digits alone, got a string "7.5"`},
		{args: `{"page": "-1"}`, err: `argument "page" must be an integer, or a string of digits alone, got a string "-1"`},
		{args: `{"page": " 7"}`, err: `argument "page" must be an integer, or a string of digits alone, got a string " 7"`},
		{args: `{"page": ""}`, err: `argument "page" must be an integer, or a string of digits alone, got a string ""`},
		{args: `{"page": "1e3"}`, err: `argument "page" must be an integer, or a string of digits alone, got a string "1e3"`},
		{args: `{"page": "٣"}`, err: `argument "page" must be an integer, or a string of digits alone, got a string "٣"`},
		{args: `{"page": "99999999999999999999"}`, err: `argument "page" must be an integer, or a string of digits alone, got a string`},
		{args: `{"page": 7.5}`, err: `argument "page" must be an integer, or a string of digits alone, got a number 7.5`},
		// An array of integers: each item as an integer argument.
		{args: `{"regions": ["77", 50]}`, want: otherFormArgs{Regions: []int{77, 50}}},
		{args: `{"regions": ["07"]}`, want: otherFormArgs{Regions: []int{7}}},
		{args: `{"regions": [77, "5x"]}`, err: `argument "regions" must be an array of integers, or of strings of digits alone, got an array [77, "5x"]`},
		{args: `{"regions": "77"}`, err: `argument "regions" must be an array of integers, or of strings of digits alone, got a string "77"`},
		{args: `{"regions": [[77]]}`, err: `argument "regions" must be an array of integers, or of strings of digits alone, got an array [[77]]`},
		// Null is still absence, in any form.
		{args: `{"id": null, "page": null, "regions": null}`, want: otherFormArgs{}},
	} {
		var got otherFormArgs
		err := fields.decode(json.RawMessage(c.args), &got)
		switch {
		case c.err != "":
			if err == nil || err.Error() != c.err {
				t.Errorf("%s: got %v (%+v), want the error %s", c.args, err, got, c.err)
			}
		case err != nil:
			t.Errorf("%s: %v", c.args, err)
		default:
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("%s (-want +got):\n%s", c.args, diff)
			}
		}
	}
}

// TestOtherFormsEveryTool checks that every tool answers the same to its
// good arguments in the other form: every string of digits as a number
// (where it is exact), every integer and every array of integers as strings
// of digits. The decoder does this in one place, for every argument of
// every tool; this holds it there.
func TestOtherFormsEveryTool(t *testing.T) {
	ctx := asPlan(tenderbase.PlanStandard)
	for _, tool := range demoSet.List() {
		args, ok := goodArgs[tool.Name]
		if !ok {
			t.Errorf("%s has no good arguments", tool.Name)
			continue
		}
		other, changed := otherForm(t, args)
		if !changed || tool.Effect != Reads {
			// A tool that changes what the server keeps answers anew each
			// time; TestSubscriptionArgumentForms holds its other forms.
			continue
		}
		want, err := call(t, demoSet, ctx, tool.Name, args)
		if err != nil {
			t.Fatalf("%s %s: %v", tool.Name, args, err)
		}
		got, err := call(t, demoSet, ctx, tool.Name, other)
		if err != nil {
			t.Errorf("%s %s: %v", tool.Name, other, err)
			continue
		}
		if string(got.Value) != string(want.Value) {
			t.Errorf("%s %s answers otherwise than %s", tool.Name, other, args)
		}
	}
}

// otherForm rewrites JSON arguments in the other form of each scalar, and
// says whether any changed.
func otherForm(t *testing.T, args string) (string, bool) {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(args))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		t.Fatal(err)
	}
	changed := false
	var flip func(v any) any
	flip = func(v any) any {
		switch v := v.(type) {
		case json.Number:
			changed = true
			return v.String()
		case string:
			if n, err := strconv.ParseUint(v, 10, 64); err == nil && n <= maxExactInteger && v == strconv.FormatUint(n, 10) {
				changed = true
				return json.Number(v)
			}
		case []any:
			for i := range v {
				v[i] = flip(v[i])
			}
		}
		return v
	}
	for k, v := range m {
		if k != "filters" {
			m[k] = flip(v)
		}
	}
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return string(out), changed
}
