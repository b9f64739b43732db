package tools

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/golden"
)

var (
	recordedAt = regexp.MustCompile(`"at": "[^"]*"`)
	// A subscription is drawn its id and secret, and says when it was made.
	subscriptionDrawn = regexp.MustCompile(`"(s_[0-9a-f]{8}|whsec_[0-9a-f]{64})"`)
	subscriptionMade  = regexp.MustCompile(`"(created_at|last_round)": "[^"]*"`)
)

// TestGolden calls every tool with goodArgs as a caller without a key and as
// a standard caller, checks each output against the tool's output schema,
// and compares both with testdata/<tool>.golden: the value, and of a search
// its summary and text, which MCP answers. Run with -update to rewrite the
// files after a deliberate change.
func TestGolden(t *testing.T) {
	for _, tool := range demoSet.List() {
		t.Run(tool.Name, func(t *testing.T) {
			var b strings.Builder
			fmt.Fprintf(&b, "%s %s\n", tool.Name, goodArgs[tool.Name])
			for _, plan := range []tenderbase.Plan{tenderbase.PlanFree, tenderbase.PlanStandard} {
				ctx := asPlan(plan)
				if plan != tenderbase.PlanFree {
					// Each tool sees an account of its own: what one
					// subscribes, another does not list.
					ctx = asAccount(plan, "golden-"+tool.Name)
				}
				out, err := call(t, demoSet, ctx, tool.Name, goodArgs[tool.Name])
				fmt.Fprintf(&b, "\n== %s ==\n", plan)
				if err != nil {
					fmt.Fprintf(&b, "error %s: %v\n", errorCode(err), err)
					continue
				}
				validateOutput(t, tool.Name, out)
				fmt.Fprintf(&b, "restricted: %s\n%s\n", strings.Join(out.Restricted, ", "), indent(t, out.Value))
				if out.Summary != nil {
					fmt.Fprintf(&b, "\n-- summary --\n%s\n\n-- text --\n%s\n", indent(t, out.Summary), out.Text)
				}
			}
			// The feed says when the demo was stored: at every run anew.
			got := recordedAt.ReplaceAllString(b.String(), `"at": "(when stored)"`)
			got = subscriptionDrawn.ReplaceAllString(got, `"(drawn)"`)
			got = subscriptionMade.ReplaceAllString(got, `"$1": "(when made)"`)
			golden.Check(t, filepath.Join("testdata", tool.Name+".golden"), got)
		})
	}
}

func indent(t *testing.T, v json.RawMessage) string {
	t.Helper()
	var buf bytes.Buffer
	if err := json.Indent(&buf, v, "", "  "); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}
