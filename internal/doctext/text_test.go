package doctext

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestTextBuilder(t *testing.T) {
	tests := []struct {
		name  string
		max   int
		parts []string // "\n" alone owes a break, " " alone a space
		want  string
	}{
		{"runs of spaces", 100, []string{"  поставка \t\u00a0 картриджей  "}, "поставка картриджей"},
		{"line breaks win", 100, []string{"a \r\n \t b", "\n", " ", "c"}, "a\nb\nc"},
		{"no leading or trailing gap", 100, []string{"\n", " ", "a", "\n"}, "a"},
		{"NUL and controls", 100, []string{"гидро\x00изо\x07ляция\x1b"}, "гидроизоляция"},
		{"invalid UTF-8", 100, []string{"ab\xff\xfecd\xd0"}, "abcd"},
		{"soft hyphen and joiners", 100, []string{"изо\u00adляция\u200d\ufeff"}, "изоляция"},
		{"zero width space parts words", 100, []string{"a\u200bb"}, "a b"},
		{"paragraph separator", 100, []string{"a\u2029b"}, "a\nb"},
		{"cut at a rune boundary", 5, []string{"абв"}, "аб"},
		{"cut before a gap", 5, []string{"аб", " ", "в"}, "аб"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := textBuilder{max: tt.max}
			for _, p := range tt.parts {
				var err error
				switch p {
				case "\n":
					b.Break()
				case " ":
					b.Space()
				default:
					err = b.WriteString(p)
				}
				if err != nil && !errors.Is(err, errTextFull) {
					t.Fatal(err)
				}
			}
			if diff := cmp.Diff(tt.want, b.String()); diff != "" {
				t.Errorf("text (-want +got):\n%s", diff)
			}
		})
	}
}

func TestTextBuilderTruncate(t *testing.T) {
	b := textBuilder{max: 100}
	b.WriteString("first")
	mark := b.Len()
	b.Break()
	b.WriteString("dropped")
	b.Truncate(mark)
	b.Space()
	b.WriteString("kept")
	if got := b.String(); got != "first kept" {
		t.Errorf("got %q, want %q", got, "first kept")
	}
}
