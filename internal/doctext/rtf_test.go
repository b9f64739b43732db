package doctext

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestRTF(t *testing.T) {
	tests := []struct {
		name string
		rtf  string
		want string
	}{
		{"plain", `{\rtf1\ansi Hello\par world}`, "Hello\nworld"},
		{"ansicpg1251", `{\rtf1\ansi\ansicpg1251 \'c3\'e8\'e4\'f0\'ee}`, "Гидро"},
		{"font charset 204 over ansicpg1252",
			`{\rtf1\ansi\ansicpg1252\deff0{\fonttbl{\f0\fswiss Arial;}{\f1\fcharset204 Times;}}\f1 \'ef\'e0\'f0\f0  caf\'e9}`,
			"пар café"},
		{"default font's charset", `{\rtf1\ansi\deff1{\fonttbl{\f1\fcharset204 Times;}}\'e4\'e0}`, "да"},
		{"charset 0 takes the document's code page", `{\rtf1\ansi\ansicpg1251{\fonttbl{\f0\fcharset0 Times;}}\f0 \'e4\'e0}`, "да"},
		{"cpg of a font", `{\rtf1\ansi{\fonttbl{\f0\cpg866 Courier;}}\f0 \'a4\'a0}`, "да"},
		{"unicode with stand-ins", `{\rtf1\u1058\'d2\u1077?}`, "Те"},
		{"uc2", `{\rtf1\uc2\u1058\'d2\'d2 x}`, "Т x"},
		{"uc0", `{\rtf1\uc0\u1058\u1077}`, "Те"},
		{"negative unicode", `{\rtf1\u-3913?}`, "\uf0b7"},
		{"surrogate pair", `{\rtf1\u-10179?\u-8704?}`, "😀"},
		{"skipped destinations", `{\rtf1{\info{\title T}}{\*\generator G;}{\colortbl;\red0;}{\stylesheet{\s0 Normal;}}Text}`, "Text"},
		{"field result, not instruction", `{\rtf1{\field{\*\fldinst HYPERLINK "x"}{\fldrslt link}}}`, "link"},
		{"picture skipped", `{\rtf1 a{\pict\pngblip 89504e47}b}`, "ab"},
		{"binary skipped", "{\\rtf1 a{\\*\\objdata \\bin4 }}}}}b}", "ab"},
		{"escapes and symbols", `{\rtf1 \{x\}\\ a\~b c\-d e\_f\emdash\tab g}`, "{x}\\ a b cd e-f— g"},
		{"table cells and rows", `{\rtf1 a\cell b\cell\row c\cell}`, "a b\nc"},
		{"escaped line break", "{\\rtf1 a\\\nb}", "a\nb"},
		{"unbalanced braces", `{\rtf1 a}}}b{{{`, "ab"},
		{"cut escape", `{\rtf1 a\'e`, "a"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := extractBytes(t, "x.rtf", []byte(tt.rtf), Limits{})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got.Text); diff != "" {
				t.Errorf("text (-want +got):\n%s", diff)
			}
		})
	}
}

// TestRTFDeepGroups reads a file of more nested groups than are kept.
func TestRTFDeepGroups(t *testing.T) {
	var b []byte
	b = append(b, `{\rtf1 `...)
	for range 5000 {
		b = append(b, `{\b `...)
	}
	b = append(b, "deep"...)
	for range 5000 {
		b = append(b, '}')
	}
	b = append(b, " end}"...)
	got, err := extractBytes(t, "deep.rtf", b, Limits{})
	if err != nil || got.Text != "deep end" {
		t.Errorf("got %q, %v; want %q", got.Text, err, "deep end")
	}
}
