package query

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/golden"
)

// parseCases are parsed in the syntax named before the colon; the golden file
// testdata/parse.golden holds the tree or the error of each.
var parseCases = []string{
	// Words, AND, OR in both syntaxes.
	"mcp: поставка",
	"mcp: Поставка БУМАГИ",
	"mcp: поставка & бумаги",
	"mcp: поставка&бумаги",
	"kwords: поставка бумаги",
	"kwords: поставка & бумаги",
	"mcp: бумага | картридж",
	"kwords: бумага|картридж",
	"mcp: a & b & c",
	"mcp: (a & b) & c",
	"mcp: a | (b | c)",
	// Precedence.
	"mcp: a b | c",
	"mcp: a & b | c & d",
	"kwords: a | b c",
	"mcp: a (b | c)",
	"kwords: (бумага | картридж) поставка",
	"mcp: !a b | c",
	// Exclusion of a word, a phrase, a group.
	"mcp: ремонт & !дорог",
	"kwords: ремонт !дорог",
	"kwords: ремонт ! дорог",
	"mcp: a & !(b | c)",
	"kwords: a !\"b c\"",
	"mcp: !a b",
	"mcp: a !!b",
	"mcp: a !(!b c)",
	"kwords: a (b !c)",
	"kwords: a | c !b",
	// Phrases and exact forms.
	"mcp: \"поставка бумаги\"",
	"kwords: \"Поставка  бумаги для офиса\"",
	"mcp: \"поставка\"",
	"mcp: =поставки",
	"kwords: =Поставки товаров",
	"mcp: \"=поставки товаров\"",
	"mcp: \"=оказание =услуг\"",
	"kwords: =поставки & \"=оказание услуг\"",
	"mcp: \"a | b ( c\"",
	"mcp: поставка !\"=поставки товаров\"",
	// ё and е.
	"mcp: ёлка",
	"kwords: ЁЛКИ | елка",
	"mcp: =ёлки",
	// Hyphenated words, numbers, codes.
	"mcp: медико-санитарной",
	"kwords: 44-ФЗ",
	"mcp: =медико-санитарной",
	"kwords: 21.20.10",
	"mcp: 0373200041520000828",
	"kwords: 7707083893 | 500100732259",
	"mcp: covid-19",
	"mcp: a=b",
	"kwords: -ремонт",
	"mcp: поставка -ремонт",
	"mcp: поставка --ремонт",
	"mcp: температура -5",
	// Other engines' operators: operators in the MCP syntax, words in kwords.
	"mcp: бумага OR картридж",
	"kwords: бумага OR картридж",
	"mcp: бумага AND картридж NOT тонер",
	"kwords: бумага AND картридж NOT тонер",
	"mcp: бумага or картридж",
	"mcp: бумага \"OR\" картридж",
	"mcp: a OR",
	"mcp: бумага ИЛИ картридж",
	"mcp: бумага НЕ картридж",
	"mcp: постав*",
	"kwords: =постав* | бумаг?",
	// Look-alike capitals alone, letters and digits, numbers.
	"mcp: OOO",
	"mcp: =OOO Вектор",
	"mcp: OOO-AO",
	"mcp: \"OOO VECTOR\"",
	"mcp: A4",
	"mcp: бумага А4",
	"mcp: 10кг",
	"mcp: 10 кг",
	"mcp: 5000",
	"mcp: 5 000",
	"kwords: 1 000 000 | 5 000,50",
	"mcp: =5 000 шт",
	"mcp: \"=5 000 шт\"",
	"mcp: \"цена 5 000\"",
	"mcp: 7707083893 000",
	"mcp: 2020 2021",
	"mcp: 5 №000",
	// English.
	"mcp: construction supplies",
	// Errors.
	"mcp: ",
	"kwords:    ",
	"mcp: \"поставка",
	"mcp: a \"b\" \"c",
	"mcp: (a",
	"mcp: a)",
	"kwords: ((a) | b",
	"mcp: (a | b))",
	"mcp: (",
	"mcp: ()",
	"kwords: a ( ) b",
	"mcp: \"\"",
	"kwords: a \" - \"",
	"mcp: | a",
	"mcp: a |",
	"mcp: a & | b",
	"mcp: & a",
	"kwords: a &",
	"mcp: !",
	"mcp: a !",
	"mcp: (a | )",
	"mcp: a (| b)",
	"mcp: !a",
	"kwords: !a !b",
	"mcp: !(a | b)",
	"mcp: a | !b",
	"kwords: a | !b !c",
	"mcp: a !(!b | c)",
	"mcp: a (!b !c)",
	"mcp: -",
	"mcp: a ---",
	"mcp: школа № 12",
	"kwords: школа — «лицей»",
	"mcp: \"OOO Вектор\" стали", // Latin capitals beside a Cyrillic word; a homograph
	"mcp: \"=OOO Вектор\"",
	"mcp: =",
	"mcp: a = b",
	"mcp: !!a",
}

// limitCases are too long to show in the golden file; it names them.
var limitCases = []struct{ name, text string }{
	{"1001 characters", strings.Repeat("а ", 500) + "б"},
	{"1000 characters", strings.Repeat("а", MaxLength)},
	{"33 nested groups", strings.Repeat("(", MaxDepth+1) + "a" + strings.Repeat(")", MaxDepth+1)},
	{"32 nested groups", strings.Repeat("(", MaxDepth) + "a" + strings.Repeat(")", MaxDepth)},
	{"33 nested exclusions", "a " + strings.Repeat("!(b ", MaxDepth+1) + "c" + strings.Repeat(")", MaxDepth+1)},
	{"1000 exclamation marks", strings.Repeat("!", 998) + "a"},
	{"100 words", strings.TrimSpace(strings.Repeat("a ", MaxTerms))},
	{"101 words", strings.Repeat("a ", MaxTerms) + "b"},
	{"101 words in a phrase", "a \"" + strings.Repeat("b ", MaxTerms) + "\""},
	{"101 parts of codes", strings.Repeat("21.20.10.11 | ", 25) + "21"},
	{"600 words", strings.Repeat("a ", 600)},
	{"invalid UTF-8", "поставка \xff"},
}

func TestParseGolden(t *testing.T) {
	var b strings.Builder
	for _, c := range parseCases {
		syntax, text := splitCase(t, c)
		fmt.Fprintf(&b, "%s\n%s\n\n", c, render(text, syntax))
	}
	for _, c := range limitCases {
		got := render(c.text, MCP)
		if len(got) > 200 {
			got = got[:200] + "..."
		}
		fmt.Fprintf(&b, "mcp: <%s>\n%s\n\n", c.name, got)
	}
	golden.Check(t, filepath.Join("testdata", "parse.golden"), b.String())
}

// readOnlyByMCP are the texts of parseCases that the syntaxes read
// apart: the MCP syntax reads other engines' operators, kwords keeps them
// words.
var readOnlyByMCP = []string{
	"-ремонт", "поставка -ремонт", "поставка --ремонт", "бумага OR картридж", "бумага AND картридж NOT тонер", "a OR",
}

// TestSyntaxesAgree checks that the two syntaxes read the same text the
// same way, but for other engines' operators.
func TestSyntaxesAgree(t *testing.T) {
	for _, c := range parseCases {
		_, text := splitCase(t, c)
		if slices.Contains(readOnlyByMCP, text) {
			continue
		}
		m, k := renderTree(text, MCP), renderTree(text, Kwords)
		k = strings.ReplaceAll(k, "kwords", "query")
		if diff := cmp.Diff(m, k); diff != "" {
			t.Errorf("%q: MCP and kwords differ (-mcp +kwords):\n%s", text, diff)
		}
	}
}

func splitCase(t *testing.T, c string) (Syntax, string) {
	t.Helper()
	name, text, ok := strings.Cut(c, ": ")
	if !ok {
		name, text = strings.TrimSuffix(c, ":"), ""
	}
	switch name {
	case "mcp":
		return MCP, text
	case "kwords":
		return Kwords, text
	}
	t.Fatalf("case %q: unknown syntax %q", c, name)
	return 0, ""
}

// render returns the tree or the error of text, and its hints.
func render(text string, s Syntax) string {
	out := renderTree(text, s)
	if _, hints, err := ParseWithHints(text, s); err == nil {
		for _, h := range hints {
			out += "\nhint: " + h
		}
	}
	return out
}

func renderTree(text string, s Syntax) string {
	q, err := Parse(text, s)
	if err != nil {
		return fmt.Sprintf("error: %s [%s]", err, tenderbase.ErrorCode(err))
	}
	return Format(q)
}
