package tools

import (
	"bytes"
	"slices"
	"testing"

	"github.com/tenderbase/tenderbase"
)

// TestAnswerForms checks that a search asked for one form of its answer
// gives that form as the answer with both gives it, and the same hidden
// fields, for a plan that hides some and one that hides none.
func TestAnswerForms(t *testing.T) {
	for _, plan := range []tenderbase.Plan{tenderbase.PlanFree, tenderbase.PlanGuru} {
		for _, c := range []struct{ tool, args string }{
			{"ru.search", `{"query": "поставка"}`},
			{"docs.search", `{"query": "контракт"}`},
			{"contracts.search", `{"query": "поставка"}`},
			{"ru.search", `{"query": "нетакогословавовсе"}`},
		} {
			both, err := call(t, demoSet, asPlan(plan), c.tool, c.args)
			if err != nil {
				t.Fatal(err)
			}
			whole, err := call(t, demoSet, WithForm(asPlan(plan), WholeForm), c.tool, c.args)
			if err != nil {
				t.Fatal(err)
			}
			brief, err := call(t, demoSet, WithForm(asPlan(plan), BriefForm), c.tool, c.args)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(whole.Value, both.Value) || whole.Summary != nil || whole.Text != "" {
				t.Errorf("%s %s %s, whole: not the whole form of both", plan, c.tool, c.args)
			}
			if !bytes.Equal(brief.Summary, both.Summary) || brief.Text != both.Text || brief.Value != nil {
				t.Errorf("%s %s %s, brief: not the brief form of both", plan, c.tool, c.args)
			}
			for _, o := range []Output{whole, brief} {
				if !slices.Equal(o.Restricted, both.Restricted) {
					t.Errorf("%s %s %s: restricted %v, want %v", plan, c.tool, c.args, o.Restricted, both.Restricted)
				}
			}
		}
	}
}
