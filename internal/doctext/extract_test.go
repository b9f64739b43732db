package doctext

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/tenderbase/tenderbase"
)

// extractFile extracts the text of a fixture in testdata.
func extractFile(t testing.TB, name string, lim Limits) (Text, error) {
	t.Helper()
	return extractBytes(t, name, readFixture(t, name), lim)
}

func readFixture(t testing.TB, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func extractBytes(t testing.TB, name string, data []byte, lim Limits) (Text, error) {
	t.Helper()
	return Extract(context.Background(), name, bytes.NewReader(data), int64(len(data)), lim)
}

// read is a member read whole; its TextBytes are checked apart.
func read(name string, format Format) Member { return Member{Name: name, Format: format} }

// TestExtract reads every fixture that make.sh wrote and finds in each its
// own words, and in an archive the members read and those skipped.
func TestExtract(t *testing.T) {
	const common = "Техническое задание на поставку картриджей"
	tests := []struct {
		file    string
		format  Format
		words   []string
		members []Member
	}{
		{file: "pdf.pdf", format: PDF, words: []string{
			"Техническое задание на поставку\nкартриджей", "волоконно-\nоптический",
			"Закупка №\n0373200000124000001", "Картридж лазерный\n120",
		}},
		{file: "docx.docx", format: DOCX, words: []string{
			common, "гидроизоляция кровли", "«Городская клиническая больница № 3»",
			"Наименование Количество\nКартридж лазерный 120",
		}},
		{file: "odt.odt", format: ODT, words: []string{common, "виброизоляция фундамента"}},
		{file: "doc.doc", format: DOC, words: []string{common, "теплоизоляция труб", "Наименование Количество\nКартридж лазерный 120"}},
		{file: "rtf.rtf", format: RTF, words: []string{common, "шумоизоляция стен", "Картридж лазерный 120"}},
		{file: "rtf1251.rtf", format: RTF, words: []string{
			"Техническое задание на поставку картриджей. Пароизоляция чердака.\nИтого: 120 шт. 4 500",
		}},
		{file: "xlsx.xlsx", format: XLSX, words: []string{
			"Наименование Количество Цена\nТонер-картридж (тонер-картридж) 120 4 500,00", common,
		}},
		{file: "ods.ods", format: ODS, words: []string{"Тонер-картридж (фотобарабан) 120 4 500,00", common}},
		{file: "zip866.zip", format: Zip, words: []string{"гидроизоляция"}, members: []Member{
			read("Техзадание.docx", DOCX),
		}},
		{file: "ziputf8.zip", format: Zip, words: []string{"шумоизоляция", "виброизоляция", "Пароизоляция"}, members: []Member{
			{Name: "Испорченный.pdf", Format: PDF,
				Skipped: "damaged PDF: it lacks the end-of-file marker, as a file cut short does"},
			read("Обоснование цены.rtf", RTF),
			read("Приложения.7z", SevenZip),
			read("Приложения.7z/rtf1251.rtf", RTF),
			read("Приложения.7z/Проект контракта.odt", ODT),
			read("Проект контракта.odt", ODT),
			{Name: "Схема.png", Skipped: "not a PDF, DOCX, DOC, XLSX, ODT, ODS or RTF document, " +
				"nor a zip, RAR or 7z archive: looks like a PNG image"},
		}},
		{file: "7z.7z", format: SevenZip, words: []string{"волоконно-", "тонер-картридж"}, members: []Member{
			read("pdf.pdf", PDF), read("xlsx.xlsx", XLSX),
		}},
		{file: "rar.rar", format: RAR, words: []string{"гидроизоляция", "фотобарабан"}, members: []Member{
			read("Техзадание.docx", DOCX), read("Смета.ods", ODS),
		}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			got, err := extractFile(t, tt.file, Limits{})
			if err != nil {
				t.Fatal(err)
			}
			if got.Format != tt.format || got.Incomplete != "" {
				t.Errorf("format %q, incomplete %q; want %q, complete", got.Format, got.Incomplete, tt.format)
			}
			for _, w := range tt.words {
				if !strings.Contains(got.Text, w) {
					t.Errorf("text lacks %q:\n%s", w, got.Text)
				}
			}
			checkMembers(t, got.Members, tt.members)
		})
	}
}

// checkMembers compares members but for TextBytes, which must be above
// zero for a member read and zero for one skipped.
func checkMembers(t *testing.T, got, want []Member) {
	t.Helper()
	if diff := cmp.Diff(want, got, cmpopts.IgnoreFields(Member{}, "TextBytes"), cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("members (-want +got):\n%s", diff)
	}
	for _, m := range got {
		if (m.Skipped == "") != (m.TextBytes > 0) {
			t.Errorf("member %q: %d bytes of text, skipped %q", m.Name, m.TextBytes, m.Skipped)
		}
	}
}

// TestExtractRefuses gives files that are not read, or damaged, and wants
// an error of kind EINVALID saying why.
func TestExtractRefuses(t *testing.T) {
	pdf := readFixture(t, "pdf.pdf")
	tests := []struct {
		name string
		data []byte
		lim  Limits
		want string
	}{
		{"empty.pdf", nil, Limits{}, "the file is empty"},
		{"garbage.pdf", []byte("\x00\x01\x02\x03garbage\xff"), Limits{},
			"not a PDF, DOCX, DOC, XLSX, ODT, ODS or RTF document, nor a zip, RAR or 7z archive: looks like binary data of an unknown kind"},
		{"scheme.png", pngImage(t), Limits{}, "looks like a PNG image"},
		{"notes.txt", []byte("Техническое задание"), Limits{}, "looks like plain text"},
		{"cut.pdf", pdf[:len(pdf)/2], Limits{}, "damaged PDF: it lacks the end-of-file marker"},
		{"noxref.pdf", bytes.Replace(pdf, []byte("startxref"), []byte("startxyz!"), 1), Limits{},
			"damaged PDF: malformed PDF file: missing final startxref"},
		{"big.pdf", pdf, Limits{MaxFileBytes: 1000}, fmt.Sprintf("the file has %d bytes, more than the 1000 bytes read", len(pdf))},
		{"locked.pdf", readFixture(t, "locked.pdf"), Limits{}, "a password-protected PDF is not read"},
		{"xls.xls", readFixture(t, "xls.xls"), Limits{}, "an Excel 97-2003 workbook (.xls) is not read"},
		{"cut.docx", readFixture(t, "docx.docx")[:3000], Limits{}, "damaged zip: zip: not a valid zip file"},
		{"bomb.docx", docxBomb(t, 4<<20), Limits{MaxUnpackedBytes: 1 << 20},
			"stopped after 1 MB unpacked, the most read of one file"},
		{"bomb.zip", zipOf(t, map[string][]byte{"zeros.pdf": make([]byte, 3<<20)}), Limits{MaxFileBytes: 1 << 20},
			"no file in the zip archive is a document read here (zeros.pdf: has 3 MB, more than the 1 MB read)"},
		{"liar.zip", lyingZip(t, 3<<20), Limits{},
			"no file in the zip archive is a document read here (zeros.pdf: cannot be unpacked: zip: not a valid zip file)"},
		{"empty.zip", zipOf(t, nil), Limits{}, "the zip archive holds no file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := extractBytes(t, tt.name, tt.data, tt.lim)
			if tenderbase.ErrorCode(err) != tenderbase.EINVALID || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v (%s), want %s containing %q", err, tenderbase.ErrorCode(err), tenderbase.EINVALID, tt.want)
			}
			if got.Text != "" {
				t.Errorf("text %q with the error", got.Text)
			}
		})
	}
}

// TestExtractLimits reads fixtures within limits smaller than they need.
func TestExtractLimits(t *testing.T) {
	tests := []struct {
		name           string
		file           string
		lim            Limits
		wantIncomplete string
		wantMembers    []Member
	}{
		{name: "depth", file: "ziputf8.zip", lim: Limits{MaxArchiveDepth: 1}, wantMembers: []Member{
			{Name: "Испорченный.pdf", Format: PDF,
				Skipped: "damaged PDF: it lacks the end-of-file marker, as a file cut short does"},
			read("Обоснование цены.rtf", RTF),
			{Name: "Приложения.7z", Format: SevenZip,
				Skipped: "a 7z archive not opened: archives are opened 1 deep at most"},
			read("Проект контракта.odt", ODT),
			{Name: "Схема.png", Skipped: "not a PDF, DOCX, DOC, XLSX, ODT, ODS or RTF document, " +
				"nor a zip, RAR or 7z archive: looks like a PNG image"},
		}},
		{name: "members", file: "ziputf8.zip", lim: Limits{MaxMembers: 4},
			wantIncomplete: "more than 4 archive members; the rest were not read", wantMembers: []Member{
				{Name: "Испорченный.pdf", Format: PDF,
					Skipped: "damaged PDF: it lacks the end-of-file marker, as a file cut short does"},
				read("Обоснование цены.rtf", RTF),
				read("Приложения.7z", SevenZip),
				read("Приложения.7z/rtf1251.rtf", RTF),
			}},
		{name: "text", file: "rar.rar", lim: Limits{MaxTextBytes: 101},
			wantIncomplete: "the text is longer than 101 bytes; the rest was not read",
			wantMembers:    []Member{read("Техзадание.docx", DOCX)}},
		{name: "unpacked", file: "7z.7z", lim: Limits{MaxUnpackedBytes: 40000},
			wantMembers: []Member{read("pdf.pdf", PDF), {Name: "xlsx.xlsx", Format: XLSX,
				Skipped: "stopped after 40000 bytes unpacked, the most read of one file"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := extractFile(t, tt.file, tt.lim)
			if err != nil {
				t.Fatal(err)
			}
			if got.Incomplete != tt.wantIncomplete {
				t.Errorf("incomplete %q, want %q", got.Incomplete, tt.wantIncomplete)
			}
			if tt.lim.MaxTextBytes > 0 && len(got.Text) > tt.lim.MaxTextBytes {
				t.Errorf("text has %d bytes, more than %d", len(got.Text), tt.lim.MaxTextBytes)
			}
			checkMembers(t, got.Members, tt.wantMembers)
		})
	}
}

// TestExtractText checks what every text returned is, on every fixture.
func TestExtractText(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "*.*"))
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range files {
		got, _ := extractFile(t, filepath.Base(path), Limits{})
		checkText(t, got.Text, DefaultLimits.MaxTextBytes)
	}
}

// checkText fails unless text is normalized as Text promises.
func checkText(t testing.TB, text string, max int) {
	t.Helper()
	switch {
	case !utf8.ValidString(text):
		t.Errorf("text is not valid UTF-8: %q", text)
	case len(text) > max:
		t.Errorf("text has %d bytes, more than %d", len(text), max)
	case strings.ContainsAny(text, "\x00\r\t"), strings.Contains(text, "  "), strings.Contains(text, "\n "),
		strings.Contains(text, " \n"), strings.Contains(text, "\n\n"), strings.TrimSpace(text) != text:
		t.Errorf("text has white space not collapsed: %q", text)
	}
}
