package export

import (
	"testing"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/demo"
)

// plainSeeds are fragments and texts that the fast paths of the XML writer
// take or leave: plain ones, and each thing that makes one not plain.
var plainSeeds = []string{
	"<a><b>1</b>text<c/></a>", "<a/><b/>", "plain text", "", "<a>x</a>", "<a.b-1>x</a.b-1>", "<_a/>",
	"<a><!-- note --></a>", "<a>", "<a></b>", "</a>", "<a>&nbsp;</a>", "<a>&amp;</a>", "<a>1 < 2</a>", "<a>2 > 1</a>",
	`<a x="1"/>`, "<a x/>", "<a >x</a >", "<ns2:a/>", "<1a/>", "<-a/>", "<a/ >", "<a>]]></a>", "<a>\x01</a>",
	"<a>\t\n\r</a>", "<a>\uFFFE</a>", "<a>\uFFFF</a>", "<a>\uFFFD</a>", "<a>\xff</a>", "<a>\U0001F600</a>", "<a>\uF000</a>",
	"<a><![CDATA[x]]></a>", "<a><?pi x?></a>", "<!DOCTYPE a><a/>", "<a></a></a>", "<", "<a", "</", "<a/", "a & b",
	`"quoted" text`, "\x00", "tab\there",
}

// demoTexts returns the XML fragments and the texts of the demo records.
func demoTexts(t testing.TB) []string {
	recs, err := demo.Records()
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, r := range recs {
		switch r := r.(type) {
		case *tenderbase.Complaint:
			texts = append(texts, r.ComplaintIndictedTextXML, r.Text, r.ComplaintIndictedText)
		case *tenderbase.FASCase:
			texts = append(texts, r.OrgXML, r.Text, r.Name)
		}
	}
	return texts
}

// FuzzPlainFragment checks that a fragment the fast check takes as plain
// and well formed, the tokenizer takes as well formed too.
func FuzzPlainFragment(f *testing.F) {
	for _, s := range append(plainSeeds, demoTexts(f)...) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if plainFragment(s) && !tokenized(s) {
			t.Errorf("plainFragment takes %q, which the tokenizer refuses", s)
		}
	})
}

// TestPlainFragments checks that the fast check takes the fragments of the
// demo records, as stored fragments look.
func TestPlainFragments(t *testing.T) {
	taken := 0
	for _, s := range demoTexts(t) {
		if len(s) > 0 && s[0] == '<' && plainFragment(s) {
			taken++
		}
	}
	if taken < 10 {
		t.Errorf("plainFragment took %d fragments of the demo records; want most of them", taken)
	}
}

// FuzzAppendEscaped checks that XML text and attribute values are escaped
// as rune by rune.
func FuzzAppendEscaped(f *testing.F) {
	for _, s := range append(plainSeeds, demoTexts(f)...) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, attr := range []bool{false, true} {
			if got, want := string(appendEscaped(nil, s, attr)), string(escapedByRune(s, attr)); got != want {
				t.Errorf("appendEscaped(%q, %v) = %q, want %q", s, attr, got, want)
			}
		}
	})
}

// escapedByRune escapes s a rune at a time, as the writer did before it
// copied runs of plain bytes at once.
func escapedByRune(s string, attr bool) []byte {
	var buf []byte
	for i := 0; i < len(s); {
		var size int
		buf, size = appendEscapedRune(buf, s[i:], attr)
		i += size
	}
	return buf
}
