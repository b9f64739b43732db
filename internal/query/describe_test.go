package query

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

func TestDescribeExamplesParse(t *testing.T) {
	for _, op := range Describe().Operators {
		if _, err := Parse(op.ExampleMCP, MCP); err != nil {
			t.Errorf("%s: MCP example %q: %v", op.Name, op.ExampleMCP, err)
		}
		if _, err := Parse(op.ExampleKwords, Kwords); err != nil {
			t.Errorf("%s: kwords example %q: %v", op.Name, op.ExampleKwords, err)
		}
	}
}

// TestDocAgrees checks that docs/query-language.md lists every operator and
// example that Describe gives, so that the two do not drift apart.
func TestDocAgrees(t *testing.T) {
	doc, err := os.ReadFile("../../docs/query-language.md")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.ReplaceAll(string(doc), `\|`, "|") // unescape tables
	for _, op := range Describe().Operators {
		for _, s := range []string{op.Name, op.ExampleMCP, op.ExampleKwords} {
			if !strings.Contains(text, s) {
				t.Errorf("docs/query-language.md does not mention %q (operator %s)", s, op.Name)
			}
		}
	}
	for _, n := range Describe().Notes {
		if !strings.Contains(strings.ToLower(text), n.Topic) {
			t.Errorf("docs/query-language.md has no note on %q", n.Topic)
		}
	}
}

// TestDescribeLimits checks that GET /search/syntax states the limits the
// parser enforces.
func TestDescribeLimits(t *testing.T) {
	var limits string
	for _, n := range Describe().Notes {
		if n.Topic == "limits" {
			limits = n.Text
		}
	}
	want := fmt.Sprintf("at most %d characters, %d words and %d nested groups", MaxLength, MaxTerms, MaxDepth)
	if !strings.Contains(limits, want) {
		t.Errorf("the note on limits %q does not say %q", limits, want)
	}
}

// TestDescribeEngineOperators checks that GET /search/syntax names every
// other engine's operator word that the MCP syntax reads.
func TestDescribeEngineOperators(t *testing.T) {
	var mcp []string
	for _, op := range Describe().Operators {
		mcp = append(mcp, op.MCP)
	}
	all := strings.Join(mcp, " ")
	for word := range engineOperators {
		if !strings.Contains(all, word) {
			t.Errorf("no operator of Describe names %s in the MCP syntax: %q", word, all)
		}
	}
	if !strings.Contains(all, "-word") {
		t.Errorf("no operator of Describe names -word in the MCP syntax: %q", all)
	}
}
