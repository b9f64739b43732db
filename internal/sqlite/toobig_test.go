package sqlite

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/importer"
	"github.com/tenderbase/tenderbase/internal/source/ndjson"
)

// TestImportRecordLongerThanSQLiteHolds imports a file of three tenders,
// one longer than a value the store's SQLite holds (lowered here to 1 MiB
// from its 1,000,000,000 bytes): that one is rejected, as invalid, with
// the reason, and the other two are stored, where the import used to stop.
func TestImportRecordLongerThanSQLiteHolds(t *testing.T) {
	s := openTest(t)
	if err := s.write.run(t.Context(), func(c *conn) error {
		_, err := sqlite.Limit(c.c, sqlite3.SQLITE_LIMIT_LENGTH, 1<<20)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	var lines strings.Builder
	for i, title := range []string{"Поставка бумаги", strings.Repeat("бумага ", 200_000), "Поставка картриджей"} {
		line, err := tenderbase.EncodeEnvelope(&tenderbase.Tender{PurchaseNumber: "N0000" + string(rune('1'+i)),
			Law: tenderbase.Law44, Version: 1, Title: title, PublishedAt: time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC)})
		if err != nil {
			t.Fatal(err)
		}
		lines.Write(append(line, '\n'))
	}
	path := filepath.Join(t.TempDir(), "tenders.ndjson")
	if err := os.WriteFile(path, []byte(lines.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	sum, err := importer.Import(t.Context(), s, []string{path}, importer.Options{Decoders: []importer.Decoder{ndjson.Format{}}})
	if err != nil {
		t.Fatalf("the import stopped: %v", err)
	}
	if sum.Inserted != 2 || sum.Rejected != 1 || !strings.Contains(sum.Rejections[0].Reason, "longer than SQLite holds") || sum.Rejections[0].Line != 2 {
		t.Errorf("inserted %d, rejected %d %v; want 2 inserted and line 2 rejected as longer than SQLite holds", sum.Inserted, sum.Rejected, sum.Rejections)
	}
}
