package main

import (
	"archive/zip"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tenderbase/tenderbase/internal/postgres/pgtest"
)

const doctextFixtures = "../../internal/doctext/testdata/"

// copyFile copies from to dir/name.
func copyFile(t *testing.T, from, dir, name string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// Files of documentation imported beside their notices give their text to
// the notices' docs, where search finds words that only they hold; the
// notice imported again without them keeps that text.
func TestImportDocumentationBesideNotices(t *testing.T) {
	for _, store := range []struct {
		name string
		db   func(t *testing.T) string
	}{
		{"sqlite", func(t *testing.T) string { return filepath.Join(t.TempDir(), "store.db") }},
		{"postgres", func(t *testing.T) string { return pgtest.URL(t) }},
	} {
		t.Run(store.name, func(t *testing.T) {
			db := store.db(t)
			dir := t.TempDir()
			eok := filepath.Join(dir, "0811200000126000042")
			ezk := filepath.Join(dir, "0301300012426000118")
			for _, d := range []string{eok, ezk} {
				os.Mkdir(d, 0o755)
			}
			copyFile(t, eisFixtures+"notice/epNotificationEOK2020_0811200000126000042_1.xml", eok, "notice.xml")
			copyFile(t, doctextFixtures+"docx.docx", eok, "Проект контракта.docx")
			copyFile(t, eisFixtures+"notice/epNotificationEZK2020_0301300012426000118_3.xml", ezk, "notice.xml")
			copyFile(t, doctextFixtures+"pdf.pdf", ezk, "Описание объекта закупки (изм. 2).pdf")
			copyFile(t, doctextFixtures+"odt.odt", ezk, "Письмо.odt") // no doc names it

			got := runCLI(t, nil, "import", "--db", db, dir)
			if got.code != 0 || !strings.Contains(got.stdout, "documentation (DOCX)") || !strings.Contains(got.stdout, "documentation (PDF)") {
				t.Fatalf("import: exit %d\n%s%s", got.code, got.stdout, got.stderr)
			}
			if !strings.Contains(got.stdout, "Письмо.odt: a file of documentation with no notice beside it that names it") {
				t.Errorf("the import does not say why a file was not read:\n%s", got.stdout)
			}
			find := func(word, want string) {
				t.Helper()
				got := runCLI(t, nil, "search", "--db", db, "docs", word)
				if !strings.HasPrefix(got.stdout, "1 found") || !strings.Contains(got.stdout, want) {
					t.Errorf("search docs %s: want the doc of %s\n%s%s", word, want, got.stdout, got.stderr)
				}
			}
			find("гидроизоляция", "0811200000126000042")
			find("волоконно-оптический", "0301300012426000118")

			// In a zip archive, a notice and its file in one folder of it.
			zipped := filepath.Join(t.TempDir(), "notices.zip")
			writeZip(t, zipped, map[string]string{
				"0811200000126000057/notice.xml":            eisFixtures + "notice/epNotificationEOK2020_0811200000126000057_1.xml",
				"0811200000126000057/Проект контракта.docx": doctextFixtures + "docx.docx",
			})
			if got := runCLI(t, nil, "import", "--db", db, zipped); got.code != 0 || !strings.Contains(got.stdout, "documentation (DOCX)") {
				t.Fatalf("import of the archive: exit %d\n%s%s", got.code, got.stdout, got.stderr)
			}
			if got := runCLI(t, nil, "search", "--db", db, "docs", "гидроизоляция"); !strings.HasPrefix(got.stdout, "2 found") ||
				!strings.Contains(got.stdout, "0811200000126000057") {
				t.Errorf("search docs after the archive: want the docs of both notices\n%s%s", got.stdout, got.stderr)
			}

			// The notice again, alone: its doc keeps the text of its file.
			alone := t.TempDir()
			copyFile(t, eisFixtures+"notice/epNotificationEOK2020_0811200000126000042_1.xml", alone, "notice.xml")
			if got := runCLI(t, nil, "import", "--db", db, alone); got.code != 0 {
				t.Fatalf("import again: exit %d\n%s%s", got.code, got.stdout, got.stderr)
			}
			if got := runCLI(t, nil, "search", "--db", db, "docs", "гидроизоляция"); !strings.HasPrefix(got.stdout, "2 found") ||
				!strings.Contains(got.stdout, "0811200000126000042") {
				t.Errorf("the doc lost its file's text when its notice came again:\n%s%s", got.stdout, got.stderr)
			}
		})
	}
}

// writeZip writes an archive at path holding, under each name, the
// content of the file it maps to.
func writeZip(t *testing.T, path string, members map[string]string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zw := zip.NewWriter(f)
	for name, from := range members {
		b, err := os.ReadFile(from)
		if err != nil {
			t.Fatal(err)
		}
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(b)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
}
