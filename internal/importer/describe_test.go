package importer

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDescribe checks what an unrecognized file is said to look like.
func TestDescribe(t *testing.T) {
	tests := []struct {
		name, prefix, want string
	}{
		{"json object", `{"uri": "x", "publisher": {"name": "p"}, "records": [`, `a JSON object with members "uri", "publisher", "records"`},
		{"json object cut short", `{"a": 1, "b": "unterminated`, `a JSON object with members "a", "b"`},
		{"json object, many members", `{"a":1,"b":1,"c":1,"d":1,"e":1,"f":1,"g":1,"h":1,"i":1}`,
			`a JSON object with members "a", "b", "c", "d", "e", "f", "g", "h", …`},
		{"json array", "\ufeff [ {\"a\": 1} ]", "a JSON array"},
		{"broken json", `{]`, "text that starts like JSON but does not parse: invalid character ']'"},
		{"xml with namespace", `<?xml version="1.0"?><TED_EXPORT xmlns="http://publications.europa.eu/resource/schema/ted/R2.0.9/publication">`,
			"XML whose root element is <TED_EXPORT> in namespace http://publications.europa.eu/resource/schema/ted/R2.0.9/publication"},
		{"xml in windows-1251", "<?xml version=\"1.0\" encoding=\"windows-1251\"?>\n<\xd4\xe0\xe9\xeb \xc8\xe4\xd4\xe0\xe9\xeb=\"1\">",
			"XML whose root element is <Файл>, without a namespace"},
		{"html", "<!DOCTYPE html>\n<html><head>", "an HTML page"},
		{"html without doctype", "<html lang=\"ru\"><head>", "an HTML page"},
		{"pdf", "%PDF-1.7\n%\xe2\xe3", "a PDF document"},
		{"gzip", "\x1f\x8b\x08\x00", "a gzip stream: unpack it first"},
		{"rar", "Rar!\x1a\x07\x00", "a RAR or 7z archive: unpack it first, or pack it as zip"},
		{"text", "ИНН;КПП;Наименование\n7712137030;771201001;ООО", `plain text, neither JSON nor XML, starting "ИНН;КПП;Наименование"`},
		{"binary", "\x00\x01\x02\xff", "binary data"},
		{"blank", " \n\t ", "only white space"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := describe([]byte(tt.prefix)); got != tt.want {
				t.Errorf("describe(%q) = %q, want %q", tt.prefix, got, tt.want)
			}
		})
	}
}

// TestDescribeRealFile describes a real EGRUL extract as published, in
// windows-1251, as a user with no reader of that format would see it.
func TestDescribeRealFile(t *testing.T) {
	path := filepath.Join("..", "..", "..", "shared", "data", "egrul", "kmakeev__egrul",
		"VO_RUGFO_0000_9965_20251105_9461e1d5-bbb8-4659-8e86-91fc9dfd2e64.xml")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Skipf("real sample %s is absent (%v): the shared data folder is not beside this checkout", path, err)
	}
	got := describe(data[:min(len(data), PrefixSize)])
	if want := "XML whose root element is <Файл>, without a namespace"; got != want {
		t.Errorf("describe = %q, want %q", got, want)
	}
	if long := describe([]byte(strings.Repeat("слово ", 40))); !strings.HasSuffix(long, `…"`) {
		t.Errorf("a long first line is not cut: %q", long)
	}
}
