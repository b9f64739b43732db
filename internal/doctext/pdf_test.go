package doctext

import (
	"bytes"
	"os"
	"path/filepath"
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

// TestPDFRunsOfAWord reads an EIS print form, which a browser printed: it
// draws a line as runs of a few glyphs, each placed by a move across that
// starts where the last one ended, with the spaces as glyphs of their
// own. The runs of a word make one word (the print form of notice
// 0138300000126000170, in the documentation analysis's set).
func TestPDFRunsOfAWord(t *testing.T) {
	path := filepath.Join("..", "docanalysis", "testdata", "tenders", "0138300000126000170", "Печатная форма.pdf")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	got, err := extractBytes(t, "Печатная форма.pdf", data, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"Извещение о проведении электронного аукциона",
		"Номер извещения 0138300000126000170",
		"ЭА166-26 Поставка картриджей для электрографических",
		"ответственность в соответствии со ст. 14.32",
	} {
		if !strings.Contains(got.Text, want) {
			t.Errorf("text lacks %q:\n%.600s", want, got.Text)
		}
	}
}
