package tools

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/docanalysis"
	"github.com/tenderbase/tenderbase/internal/docjobs"
	"github.com/tenderbase/tenderbase/internal/docjobs/docjobstest"
	"github.com/tenderbase/tenderbase/internal/sqlite"
)

// TestDocsAnalyze calls docs.analyze as a guru caller on real
// documentation, for one tender and for two side by side, and as the
// plans without it.
func TestDocsAnalyze(t *testing.T) {
	st, err := sqlite.Open(t.Context(), t.TempDir()+"/store.db", nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	docjobstest.Put(t, st, docjobstest.Docs(t, docjobstest.Auction))
	docjobstest.Put(t, st, docjobstest.Docs(t, docjobstest.WithScan))
	set := New(st, nil)
	set.SetAnalyses(docjobs.New(docjobs.Config{Store: st, Analyses: st, AnalyzerID: "rules",
		Analyze: func(_ context.Context, files []docanalysis.File) (docanalysis.Analysis, error) {
			return docanalysis.Analyze(files), nil
		}}))
	guru := asPlan(tenderbase.PlanGuru)

	out, err := call(t, set, guru, "docs.analyze", `{"purchase_number": "`+docjobstest.WithScan+`"}`)
	if err != nil {
		t.Fatal(err)
	}
	validateOutput(t, "docs.analyze", out)
	var one analyzeOutput
	if err := json.Unmarshal(out.Value, &one); err != nil || one.Analysis == nil || len(one.Analysis.Answers) == 0 ||
		len(one.Analysis.FilesWithoutText) != 1 || len(one.Analysis.Next) == 0 {
		t.Fatalf("one tender: %s", out.Value)
	}
	out, err = call(t, set, guru, "docs.analyze", `{"purchase_numbers": ["`+docjobstest.Auction+`", "`+docjobstest.WithScan+`"]}`)
	if err != nil {
		t.Fatal(err)
	}
	validateOutput(t, "docs.analyze", out)
	var two analyzeOutput
	if err := json.Unmarshal(out.Value, &two); err != nil || two.Comparison == nil || len(two.Comparison.Rows[0].Cells) != 2 ||
		!two.Comparison.Tenders[1].FromStore {
		t.Fatalf("comparison: %s", out.Value)
	}
	for _, c := range []struct{ args, want string }{
		{`{}`, "is required"},
		{`{"purchase_number": "1", "purchase_numbers": ["2", "3"]}`, "not both"},
		{`{"purchase_numbers": ["` + docjobstest.Auction + `"]}`, "2 to 5"},
		{`{"purchase_number": "0000000000000000000"}`, "no documentation"},
	} {
		if _, err := call(t, set, guru, "docs.analyze", c.args); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.args, err, c.want)
		}
	}
	for _, p := range []tenderbase.Plan{tenderbase.PlanFree, tenderbase.PlanStandard} {
		if _, err := call(t, set, asPlan(p), "docs.analyze", `{"purchase_number": "`+docjobstest.Auction+`"}`); tenderbase.ErrorCode(err) != tenderbase.EFORBIDDEN {
			t.Errorf("%s: %v", p, err)
		}
	}
}
