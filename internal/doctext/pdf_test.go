package doctext

import (
	"bytes"
	"strings"
	"testing"
)

// TestPDFTolerated reads PDFs that a strict reader refuses and readers of
// PDF read all the same.
func TestPDFTolerated(t *testing.T) {
	pdf := readFixture(t, "pdf.pdf")
	tests := []struct {
		name string
		data []byte
		want string
	}{
		{"junk before the header", append([]byte("From: mail gateway\r\n\r\n"), pdf...), "волоконно-"},
		{"junk after the end", append(bytes.Clone(pdf), bytes.Repeat([]byte{0}, 3000)...), "волоконно-"},
		{"version 2.0", bytes.Replace(pdf, []byte("%PDF-1.6"), []byte("%PDF-2.0"), 1), "волоконно-"},
		{"permissions password only", readFixture(t, "restricted.pdf"), "Только чтение: пароизоляция"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := extractBytes(t, "x.pdf", tt.data, Limits{})
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(got.Text, tt.want) {
				t.Errorf("text lacks %q:\n%s", tt.want, got.Text)
			}
		})
	}
}
