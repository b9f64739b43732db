package tenderbase

import "testing"

func TestDocMergeKeepsTheFilesText(t *testing.T) {
	stored := &Doc{ID: "1-A", FileName: "ТЗ.docx", URL: "https://x/a", Text: "гидроизоляция"}
	for _, tc := range []struct {
		name string
		come *Doc
		want string
	}{
		{"the notice again, without text", &Doc{ID: "1-A", FileName: "ТЗ.docx", URL: "https://x/a", Description: "изм."}, "гидроизоляция"},
		{"a new text of the file", &Doc{ID: "1-A", URL: "https://x/a", Text: "кровля"}, "кровля"},
		{"another file under the same id", &Doc{ID: "1-A", URL: "https://x/b"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := tc.come.Merge(stored).(*Doc)
			if got.Text != tc.want {
				t.Errorf("text %q, want %q", got.Text, tc.want)
			}
			if tc.come.Description != "" && got.Description != tc.come.Description {
				t.Errorf("the new version's description was lost")
			}
		})
	}
}
