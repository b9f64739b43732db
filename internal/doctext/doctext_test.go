package doctext

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/tenderbase/tenderbase"
)

func TestSupported(t *testing.T) {
	tests := []struct {
		name   string
		prefix []byte
		want   bool
	}{
		{"pdf", readFixture(t, "pdf.pdf")[:512], true},
		{"pdf after junk", append([]byte("junk\n"), readFixture(t, "pdf.pdf")[:100]...), true},
		{"docx", readFixture(t, "docx.docx")[:512], true},
		{"odt", readFixture(t, "odt.odt")[:512], true},
		{"rtf with a byte order mark", []byte("\xef\xbb\xbf\r\n{\\rtf1\\ansi"), true},
		{"rar", readFixture(t, "rar.rar")[:64], true},
		{"7z", readFixture(t, "7z.7z")[:64], true},
		{"doc", readFixture(t, "doc.doc")[:512], true},
		{"xls, which the first bytes do not tell from a doc", readFixture(t, "xls.xls")[:512], true},
		{"png", pngImage(t), false},
		{"text", []byte("Техническое задание"), false},
		{"empty", nil, false},
	}
	for _, tt := range tests {
		if got := Supported(tt.prefix); got != tt.want {
			t.Errorf("%s: Supported = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// failingReader fails every read past its first bytes, as a disk might.
type failingReader struct{ data []byte }

func (r failingReader) ReadAt(p []byte, off int64) (int, error) {
	if off+int64(len(p)) > 2048 {
		return 0, errors.New("input/output error")
	}
	return copy(p, r.data[off:]), nil
}

// TestExtractReadError wants a failing reader to be an internal error, not
// the file's fault.
func TestExtractReadError(t *testing.T) {
	for _, name := range []string{"pdf.pdf", "docx.docx", "ziputf8.zip", "7z.7z", "rar.rar"} {
		data := readFixture(t, name)
		_, err := Extract(context.Background(), name, failingReader{data}, int64(len(data)), Limits{})
		if tenderbase.ErrorCode(err) != tenderbase.EINTERNAL {
			t.Errorf("%s: error %v (%s), want %s", name, err, tenderbase.ErrorCode(err), tenderbase.EINTERNAL)
		}
	}
}

func TestExtractCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, name := range []string{"pdf.pdf", "rtf.rtf", "ziputf8.zip", "xlsx.xlsx"} {
		data := readFixture(t, name)
		_, err := Extract(ctx, name, bytes.NewReader(data), int64(len(data)), Limits{})
		if !errors.Is(err, context.Canceled) {
			t.Errorf("%s: error %v, want %v", name, err, context.Canceled)
		}
	}
}

// fuzzLimits keep the fuzzer's inputs quick to read.
var fuzzLimits = Limits{MaxFileBytes: 1 << 20, MaxUnpackedBytes: 8 << 20, MaxTextBytes: 64 << 10, MaxMembers: 50}

// FuzzExtract wants no panic, and either text as Text promises or an error
// of kind EINVALID, whatever the file.
func FuzzExtract(f *testing.F) {
	files, err := filepath.Glob(filepath.Join("testdata", "*.*"))
	if err != nil {
		f.Fatal(err)
	}
	for _, path := range files {
		f.Add(readFixture(f, filepath.Base(path)))
	}
	f.Add([]byte(`{\rtf1\ansi\ansicpg1251{\fonttbl{\f0\fcharset204 X;}}\f0\'e0\u1058?\par}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		got, err := Extract(ctx, "fuzz", bytes.NewReader(data), int64(len(data)), fuzzLimits)
		if err != nil {
			if code := tenderbase.ErrorCode(err); code != tenderbase.EINVALID && !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("error %v of kind %s", err, code)
			}
			return
		}
		if !utf8.ValidString(got.Text) {
			t.Fatalf("text is not valid UTF-8: %q", got.Text)
		}
		checkText(t, got.Text, fuzzLimits.MaxTextBytes)
	})
}

// BenchmarkExtract reads each fixture, from memory.
func BenchmarkExtract(b *testing.B) {
	for _, name := range []string{
		"pdf.pdf", "docx.docx", "xlsx.xlsx", "odt.odt", "ods.ods", "rtf.rtf", "rtf1251.rtf",
		"zip866.zip", "ziputf8.zip", "7z.7z", "rar.rar",
	} {
		data := readFixture(b, name)
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Extract(context.Background(), name, bytes.NewReader(data), int64(len(data)), Limits{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkExtractLarge reads larger inputs made in memory, to show the
// cost per megabyte: a long RTF, and a DOCX whose rate is of its unpacked
// XML.
func BenchmarkExtractLarge(b *testing.B) {
	rtf := append([]byte(`{\rtf1\ansi\ansicpg1251{\fonttbl{\f0\fcharset204 Times;}}\f0 `),
		bytes.Repeat([]byte(`\'d2\'e5\'f5\'ed\'e8\'f7\'e5\'f1\'ea\'ee\'e5 \'e7\'e0\'e4\'e0\'ed\'e8\'e5 \u1058\'d2\par `), 1<<14)...)
	rtf = append(rtf, '}')
	inputs := []struct {
		name  string
		data  []byte
		bytes int64
	}{
		{"rtf", rtf, int64(len(rtf))},
		{"docx", docxBomb(b, 4<<20), 4 << 20},
	}
	for _, in := range inputs {
		b.Run(in.name, func(b *testing.B) {
			b.SetBytes(in.bytes)
			for b.Loop() {
				_, err := Extract(context.Background(), in.name, bytes.NewReader(in.data), int64(len(in.data)), Limits{})
				if err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
