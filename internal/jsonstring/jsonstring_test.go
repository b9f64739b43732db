package jsonstring

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestAppend(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", `""`},
		{"поставка", `"поставка"`},
		{`<a href="x">&amp;</a>`, `"<a href=\"x\">&amp;</a>"`},
		{"line\nbreak\ttab\rcr\\", `"line\nbreak\ttab\rcr\\"`},
		{"\x00\x1f", `"\u0000\u001f"`},
		{"a\u2028b\u2029c", `"a\u2028b\u2029c"`},
		{"bad\xffbyte", `"bad\ufffdbyte"`},
		{"cut\xd0", `"cut\ufffd"`},
		{"emoji 😀 ё", `"emoji 😀 ё"`},
	}
	for _, tt := range tests {
		if got := string(Append(nil, tt.in)); got != tt.want {
			t.Errorf("Append(%q) = %s, want %s", tt.in, got, tt.want)
		}
		if got := string(AppendBytes(nil, []byte(tt.in))); got != tt.want {
			t.Errorf("Append([]byte %q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

// FuzzAppend checks that the output is always valid JSON that decodes to
// the input (with invalid UTF-8 replaced).
func FuzzAppend(f *testing.F) {
	for _, s := range []string{"", "a\"b", "\xff", "\u2028", "<x>&</x>", "ж\x00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := Append(nil, s)
		var back string
		if err := json.Unmarshal(out, &back); err != nil {
			t.Fatalf("Append(%q) = %s: not JSON: %v", s, out, err)
		}
		if want := strings.ToValidUTF8(s, "\ufffd"); back != want && utf8.ValidString(s) {
			t.Fatalf("Append(%q) decodes to %q", s, back)
		}
	})
}

func BenchmarkAppend(b *testing.B) {
	text := strings.Repeat(`{"title":"Поставка лекарственных препаратов","price":1200.5}`, 40)
	buf := make([]byte, 0, 2*len(text))
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		buf = Append(buf[:0], text)
	}
}

func BenchmarkAppendBytes(b *testing.B) {
	text := []byte(strings.Repeat(`{"title":"Поставка лекарственных препаратов","price":1200.5}`, 40))
	buf := make([]byte, 0, 2*len(text))
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		buf = AppendBytes(buf[:0], text)
	}
}
