package xmlread

import (
	"strings"
	"testing"
)

func TestMixedContent(t *testing.T) {
	tests := []struct {
		xml                  string
		content, paras, line string
	}{
		{`<P>33 000 m<FT TYPE="SUP">2</FT> d'aménagement</P>`, "33 000 m2 d'aménagement", "33 000 m2 d'aménagement", "33 000 m2 d'aménagement"},
		{`<T><P>n<FT TYPE="SUP">o</FT> 2016-360</P><P>  second </P></T>`, "n" + "o 2016-360  second ", "no 2016-360\nsecond", "no 2016-360 second"},
		{"<T>\n   <P>Title broken\n      over lines</P>\n</T>", "\n   Title broken\n      over lines\n", "Title broken\nover lines", "Title broken over lines"},
		{`<T><FT TYPE="BOLD">all</FT></T>`, "all", "all", "all"},
	}
	for _, tt := range tests {
		n, err := ReadDocument(strings.NewReader(tt.xml))
		if err != nil {
			t.Fatal(err)
		}
		if got := n.Content(); got != tt.content {
			t.Errorf("Content(%s) = %q, want %q", tt.xml, got, tt.content)
		}
		if got := n.Paragraphs(); got != tt.paras {
			t.Errorf("Paragraphs(%s) = %q, want %q", tt.xml, got, tt.paras)
		}
		if got := n.Line(); got != tt.line {
			t.Errorf("Line(%s) = %q, want %q", tt.xml, got, tt.line)
		}
	}
}
