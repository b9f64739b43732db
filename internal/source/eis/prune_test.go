package eis

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestPrune prunes small documents of a kind the package reads,
// contractCancel (regNum, cancelDate...), in which signature and extra are
// read by no wire struct.
func TestPrune(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{{
		name: "an element no wire struct maps leaves its line breaks in the tag before it",
		in:   "<contractCancel>\n<regNum>1</regNum>\n<signature>QUJD\nREVG\n</signature>\n</contractCancel>",
		want: "<contractCancel\n><regNum>1</regNum\n\n\n\n></contractCancel>",
	}, {
		name: "the prolog, the root's attributes and what follows the root are kept",
		in:   "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!-- a comment -->\n<contractCancel schemeVersion=\"14.1\"><regNum>1</regNum></contractCancel>\n<!-- after --> ",
		want: "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!-- a comment -->\n<contractCancel schemeVersion=\"14.1\"><regNum>1</regNum></contractCancel>\n<!-- after --> ",
	}, {
		name: "white space between kept elements goes but for its line breaks; other text stays",
		in:   "<contractCancel>\r\n    <regNum>1</regNum> text \n\t<cancelDate>2024-01-02</cancelDate>\n</contractCancel>",
		want: "<contractCancel\n><regNum>1</regNum> text \n\t<cancelDate>2024-01-02</cancelDate\n></contractCancel>",
	}, {
		name: "line breaks go before the \"/>\" of a self-closing tag",
		in:   "<contractCancel><regNum a=\"/\"/>\n<signature\n/>\n</contractCancel>",
		want: "<contractCancel><regNum a=\"/\"\n\n\n/></contractCancel>",
	}, {
		name: "line breaks after a comment stay in place",
		in:   "<contractCancel><!-- c -->\n  <regNum>1</regNum></contractCancel>",
		want: "<contractCancel><!-- c -->\n<regNum>1</regNum></contractCancel>",
	}, {
		name: "an element read whole is kept whole, with what it holds",
		in:   "<contractCancel><documentBase> a <b>bold</b> <!-- c --> base </documentBase></contractCancel>",
		want: "<contractCancel><documentBase> a <b>bold</b> <!-- c --> base </documentBase></contractCancel>",
	}, {
		name: "names match by local name, whatever the prefix",
		in:   `<ns2:export xmlns:ns2="http://zakupki.gov.ru/oos/export/1" xmlns:oos="http://zakupki.gov.ru/oos/types/1"><ns2:contractCancel><oos:regNum>1</oos:regNum><oos:signature>x</oos:signature><signature/></ns2:contractCancel></ns2:export>`,
		want: `<ns2:export xmlns:ns2="http://zakupki.gov.ru/oos/export/1" xmlns:oos="http://zakupki.gov.ru/oos/types/1"><ns2:contractCancel><oos:regNum>1</oos:regNum></ns2:contractCancel></ns2:export>`,
	}, {
		name: "comments, CDATA and processing instructions in a dropped element hide no tag",
		in:   "<contractCancel><signature><!-- <extra> --><![CDATA[</signature><extra>]]><?pi </signature>?></signature><regNum>1</regNum></contractCancel>",
		want: "<contractCancel><regNum>1</regNum></contractCancel>",
	}, {
		name: "comments, CDATA and processing instructions in a kept element are kept",
		in:   "<contractCancel><!-- <regNum> --><![CDATA[ <x> ]]><?pi ?><regNum>1</regNum></contractCancel>",
		want: "<contractCancel><!-- <regNum> --><![CDATA[ <x> ]]><?pi ?><regNum>1</regNum></contractCancel>",
	}, {
		name: "a '>' or an end tag in a quoted attribute value does not end a tag",
		in:   "<contractCancel><signature a=\"x>y\" b='</signature>'>s</signature><regNum c=\"></regNum>\">1</regNum></contractCancel>",
		want: "<contractCancel><regNum c=\"></regNum>\">1</regNum></contractCancel>",
	}, {
		name: "nested elements of one name balance",
		in:   "<contractCancel><extra><extra><extra/></extra><regNum>2</regNum></extra><regNum>1</regNum></contractCancel>",
		want: "<contractCancel><regNum>1</regNum></contractCancel>",
	}, {
		name: "self-closing elements, kept and dropped",
		in:   "<contractCancel><signature/><signature a=\"1\" /><regNum/><cancelDate a=\"/\"/></contractCancel>",
		want: "<contractCancel><regNum/><cancelDate a=\"/\"/></contractCancel>",
	}, {
		name: "every document of an export is pruned, whatever its kind",
		in:   "<export><contract><regNum>1</regNum><signature>s</signature></contract>\n<contract><regNum>2</regNum><extra/></contract><contractCancel><extra/></contractCancel></export>",
		want: "<export><contract><regNum>1</regNum></contract\n><contract><regNum>2</regNum></contract><contractCancel></contractCancel></export>",
	}, {
		name: "a child read by an `xml:\",any\"` field is kept with what its type reads",
		in:   "<purchaseNotice><body><item><purchaseNoticeAEData><name>n</name><extra/></purchaseNoticeAEData></item></body></purchaseNotice>",
		want: "<purchaseNotice><body><item><purchaseNoticeAEData><name>n</name></purchaseNoticeAEData></item></body></purchaseNotice>",
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := prune(nil, []byte(tt.in))
			if !ok {
				t.Fatalf("prune gave up on %q", tt.in)
			}
			if diff := cmp.Diff(tt.want, string(got)); diff != "" {
				t.Errorf("prune (-want +got):\n%s", diff)
			}
			if strings.Count(string(got), "\n") != strings.Count(tt.in, "\n") {
				t.Errorf("prune changed the number of lines")
			}
		})
	}
}

// TestPruneGivesUp lists what the scanner does not follow: Decode then
// decodes the document unpruned, so that encoding/xml says what is wrong,
// or rejects the kind of document on reading its start.
func TestPruneGivesUp(t *testing.T) {
	tests := []struct{ name, in string }{
		{"a DOCTYPE", "<!DOCTYPE contractCancel><contractCancel><regNum>1</regNum></contractCancel>"},
		{"another encoding", "<?xml version=\"1.0\" encoding=\"windows-1251\"?><contractCancel/>"},
		{"an encoding it cannot make out", "<?xml version=\"1.0\" encoding = \"UTF-8\"?><contractCancel><regNum>1</regNum></contractCancel>"},
		{"no root", "<?xml version=\"1.0\"?>\n"},
		{"an end tag before the root", "</contractCancel><contractCancel></contractCancel>"},
		{"a kind no decoder reads", "<purchasePlanProject><extra/></purchasePlanProject>"},
		{"an export of a kind no decoder reads", "<export><fcsClarification><extra/></fcsClarification></export>"},
		{"an empty root", "<contractCancel/>"},
		{"mismatched tags in a kept element", "<contractCancel><regNum>1</cancelDate></contractCancel>"},
		{"mismatched tags in a dropped element", "<contractCancel><extra><a></b></extra></contractCancel>"},
		{"an end tag of the wrong prefix", "<contractCancel><a:extra></b:extra></contractCancel>"},
		{"an unterminated comment", "<contractCancel><extra><!-- </extra></contractCancel>"},
		{"an unterminated CDATA section", "<contractCancel><extra><![CDATA[ </extra></contractCancel>"},
		{"an unterminated processing instruction", "<contractCancel><extra><? </extra></contractCancel>"},
		{"an unterminated tag", "<contractCancel><extra a=\"1\""},
		{"an unterminated quoted value", "<contractCancel><extra a=\"1></extra></contractCancel>"},
		{"a '<' inside a tag", "<contractCancel><extra <a></extra></contractCancel>"},
		{"a tag without a name", "<contractCancel>< extra></extra></contractCancel>"},
		{"a name with two colons", "<contractCancel><a:b:extra></a:b:extra></contractCancel>"},
		{"a name that starts with a digit", "<contractCancel><extra 1a=\"1\"></extra></contractCancel>"},
		{"an unquoted attribute value", "<contractCancel><extra a=1></extra></contractCancel>"},
		{"an attribute without a value", "<contractCancel><regNum a>1</regNum></contractCancel>"},
		{"a '/' not before '>'", "<contractCancel><extra / ></contractCancel>"},
		{"an end tag with more than its name", "<contractCancel><extra></extra x></contractCancel>"},
		{"a declaration inside an element", "<contractCancel><!ENTITY x \"y\"></contractCancel>"},
		{"the end of the file inside the root", "<contractCancel><regNum>1</regNum>"},
		{"the end of the file inside a dropped element", "<contractCancel><extra><a>"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got, ok := prune(nil, []byte(tt.in)); ok {
				t.Errorf("prune gave %q, want it to give up", got)
			}
		})
	}
}

// TestPrunedFaultsKeepTheirLines decodes documents with a fault in what is
// kept, after what pruning leaves out, pruned and unpruned: both must be
// rejected alike, at the same line.
func TestPrunedFaultsKeepTheirLines(t *testing.T) {
	tests := []struct{ name, fault string }{
		{"a bad entity in a value", "<documentBase>a &bad; b</documentBase>"},
		{"a bad entity in an attribute", `<cancelDate a="&bad;">2024-01-02</cancelDate>`},
		{"a bad entity in text no value takes", "text &bad;"},
		{"a comment with \"--\"", "<!-- a -- b -->"},
		{"a date that does not parse", "<cancelDate>\nsoon</cancelDate>"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := "<export>\n  <contractCancel>\n    <signature>\nQUJD\n</signature>\n    <regNum>1</regNum>\n    " +
				tt.fault + "\n  </contractCancel>\n</export>\n"
			if _, ok := prune(nil, []byte(doc)); !ok {
				t.Fatal("prune gave up")
			}
			whole := decodeWhole(t, "f.xml", strings.NewReader(doc))
			kept := decodePruned(t, "f.xml", strings.NewReader(doc))
			if !whole.Rejected {
				t.Fatalf("the unpruned document is not rejected: %v", whole)
			}
			if diff := cmp.Diff(whole, kept); diff != "" {
				t.Errorf("pruned (+) and unpruned (-) differ:\n%s", diff)
			}
		})
	}
}

// TestPruningDropsFaultsInWhatIsNotRead shows the one way pruning changes
// what Decode accepts: a fault in the text of an element no wire struct
// maps rejected the document, and no longer does.
func TestPruningDropsFaultsInWhatIsNotRead(t *testing.T) {
	doc := []byte("<export><contractCancel><regNum>1</regNum><signature>&bad;</signature></contractCancel></export>")
	whole := decodeWhole(t, "f.xml", bytes.NewReader(doc))
	kept := decodePruned(t, "f.xml", bytes.NewReader(doc))
	if !whole.Rejected || kept.Rejected || len(kept.Emitted) != 1 {
		t.Errorf("unpruned: %v; pruned: %v; want the unpruned rejected and one record of the pruned", whole, kept)
	}
}
