package doctext

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tenderbase/tenderbase"
)

// tenderDOCs are the Word 97-2003 files of the documentation of real
// tenders kept by package docanalysis (see its testdata/tenders/PROVENANCE.md).
func tenderDOCs(t testing.TB) []string {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join("..", "docanalysis", "testdata", "tenders", "*", "*.doc"))
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) < 14 {
		t.Fatalf("%d .doc files in the tender set, want 14", len(paths))
	}
	return paths
}

// TestExtractTenderDOCs reads every .doc of the tender set: each gives
// text, and of its fields (hyperlinks, page numbers, cross-references) the
// text shown, not the instruction behind it.
func TestExtractTenderDOCs(t *testing.T) {
	for _, path := range tenderDOCs(t) {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		got, err := extractBytes(t, filepath.Base(path), data, Limits{})
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		if got.Format != DOC || len(got.Text) < 1000 {
			t.Errorf("%s: format %q, %d bytes of text; want DOC, a thousand bytes at least", path, got.Format, len(got.Text))
		}
		for _, instruction := range []string{"HYPERLINK", "MERGEFORMAT", "rts-tender.ru/customer"} {
			if strings.Contains(got.Text, instruction) {
				t.Errorf("%s: the text holds the field instruction %q", path, instruction)
			}
		}
	}
	// The number of this contract is a hyperlink field whose result is the
	// blank to fill in.
	got, err := extractFile(t, "../../docanalysis/testdata/tenders/0138300000126000170/Мун.контракт .doc", Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if want := "МУНИЦИПАЛЬНЫЙ КОНТРАКТ № ____"; !strings.Contains(got.Text, want) {
		t.Errorf("text lacks %q:\n%.500s", want, got.Text)
	}
}

// TestExtractDOCLimits wants the text of a .doc cut at MaxTextBytes, and a
// file whose streams are larger than MaxUnpackedBytes refused.
func TestExtractDOCLimits(t *testing.T) {
	name := "../../docanalysis/testdata/tenders/32615892298/Аукционная_документация.doc"
	got, err := extractFile(t, name, Limits{MaxTextBytes: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Text) > 1000 || got.Incomplete == "" {
		t.Errorf("%d bytes of text, incomplete %q; want 1000 at most, and why", len(got.Text), got.Incomplete)
	}
	_, err = extractFile(t, name, Limits{MaxUnpackedBytes: 100 << 10})
	if want := "stopped after 102400 bytes unpacked"; tenderbase.ErrorCode(err) != tenderbase.EINVALID || !strings.Contains(tenderbase.ErrorMessage(err), want) {
		t.Errorf("error %v, want one containing %q", err, want)
	}
}

// withFIBFlags returns a copy of the Word document data whose file
// information block has the given flags set (MS-DOC 2.5.2: fEncrypted
// 0x0100, fObfuscated 0x8000), or nFib set when nFib is not zero. The block
// begins the WordDocument stream, at a sector boundary of the compound file.
// No locked .doc with its provenance was at hand: the flags are all the
// reader looks at before it refuses one, and they stay in the clear in a
// locked file (MS-DOC 2.2.6: the FibBase is not encrypted).
func withFIBFlags(t testing.TB, data []byte, flags, nFib uint16) []byte {
	t.Helper()
	out := bytes.Clone(data)
	for at := 512; at+fibMinLen <= len(out); at += 512 {
		if binary.LittleEndian.Uint16(out[at:]) == fibIdent && binary.LittleEndian.Uint16(out[at+2:]) >= fibNFibWord97 {
			binary.LittleEndian.PutUint16(out[at+fibFlagsAt:], binary.LittleEndian.Uint16(out[at+fibFlagsAt:])|flags)
			if nFib != 0 {
				binary.LittleEndian.PutUint16(out[at+2:], nFib)
			}
			return out
		}
	}
	t.Fatal("no file information block found")
	return nil
}

// TestExtractRefusesDOC gives Word files that cannot be read and wants an
// error of kind EINVALID saying why, never a panic.
func TestExtractRefusesDOC(t *testing.T) {
	doc := readFixture(t, "doc.doc")
	tender, err := os.ReadFile("../docanalysis/testdata/tenders/32615891914/Извещение.doc")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		data []byte
		want string
	}{
		{"encrypted.doc", withFIBFlags(t, doc, fibEncrypted, 0), "a password-protected Word document is not read"},
		{"obfuscated.doc", withFIBFlags(t, doc, fibEncrypted|fibObfuscated, 0), "an obfuscated Word document is not read"},
		{"word95.doc", withFIBFlags(t, doc, 0, 0x0065), "a Word 6.0 or Word 95 document is not read"},
		{"cut.doc", doc[:len(doc)/2], "damaged DOC"},
		{"cut-tender.doc", tender[:len(tender)/3], "damaged DOC"},
		{"header.doc", doc[:512], "damaged DOC"},
		{"xls.xls", readFixture(t, "xls.xls"), "an Excel 97-2003 workbook (.xls) is not read"},
		{"xls.doc", readFixture(t, "xls.xls"), "an Excel 97-2003 workbook (.xls) is not read"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := extractBytes(t, tt.name, tt.data, Limits{})
			if tenderbase.ErrorCode(err) != tenderbase.EINVALID || !strings.Contains(tenderbase.ErrorMessage(err), tt.want) {
				t.Errorf("error %v (%s), want invalid containing %q", err, tenderbase.ErrorCode(err), tt.want)
			}
		})
	}
}

// FuzzExtractDOC wants no panic and no error but EINVALID from any Word
// file, the real ones of the tender set as seeds.
func FuzzExtractDOC(f *testing.F) {
	f.Add(readFixture(f, "doc.doc"))
	for _, path := range tenderDOCs(f)[:4] {
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		_, err := extractBytes(t, "fuzz.doc", data, Limits{MaxTextBytes: 1 << 16, MaxUnpackedBytes: 8 << 20})
		if err != nil && tenderbase.ErrorCode(err) != tenderbase.EINVALID {
			t.Fatalf("error %v of kind %s, want EINVALID", err, tenderbase.ErrorCode(err))
		}
	})
}
