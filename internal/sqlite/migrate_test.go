package sqlite

import (
	"context"
	"database/sql"
	"math"
	"strings"
	"testing"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/postings"
	"github.com/tenderbase/tenderbase/internal/query"
	"github.com/tenderbase/tenderbase/internal/storetest"
	"github.com/tenderbase/tenderbase/internal/textproc"
	"github.com/tenderbase/tenderbase/internal/versioning"
)

// TestReindexOldLayout opens a database written in the layout before
// migration 0007, whose full-text tables hold every text of a record in one
// pair of columns: Open must rebuild them from the stored records so that
// a free caller's search no longer matches the text of tariff fields.
func TestReindexOldLayout(t *testing.T) {
	path := t.TempDir() + "/old.db"
	writeOldLayout(t, path, storetest.TariffRecords())
	s, err := Open(t.Context(), path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	storetest.CheckTariffText(t, s)
}

// writeOldLayout makes a database at path with the migrations before 0007
// and writes recs into it as Put wrote them then: every text of a record in
// s and e.
func writeOldLayout(t *testing.T, path string, recs []tenderbase.Record) {
	t.Helper()
	st := textproc.Stemmer{}
	writeLayoutBefore(t, path, 7, recs, func(r tenderbase.Record) [][]textproc.Token {
		return st.Fields(textproc.Default, tenderbase.MatchedText(r, false))
	})
}

// writeLayoutBefore makes a database at path with the migrations before
// version and writes recs into it with the texts that analyze gives, in s
// and e.
func writeLayoutBefore(t *testing.T, path string, version int, recs []tenderbase.Record, analyze func(tenderbase.Record) [][]textproc.Token) {
	t.Helper()
	ctx := context.Background()
	db, err := openDB(path, false, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	all, err := loadMigrations()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.ExecContext(ctx, `CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)`); err != nil {
		t.Fatal(err)
	}
	for _, m := range all {
		if m.Version < version {
			if err := apply(ctx, db, m); err != nil {
				t.Fatal(err)
			}
		}
	}
	for i, r := range recs {
		if err := writeOld(ctx, db, r, int64(i)+1, analyze(r)); err != nil {
			t.Fatalf("write %s %s the old way: %v", r.Kind(), r.Key(), err)
		}
	}
}

// writeOld writes r with the analyzed texts fields as the store wrote
// records before migration 0007, with the rid its date and n give it.
func writeOld(ctx context.Context, db *sql.DB, r tenderbase.Record, n int64, fields [][]textproc.Token) error {
	body, err := tenderbase.MarshalRecord(r)
	if err != nil {
		return err
	}
	lo, _ := versioning.RIDs(r.Date())
	rid := lo + n
	res, err := db.ExecContext(ctx, `INSERT INTO versions (kind, key, revision, hash, body) VALUES (?, ?, ?, ?, ?)`,
		r.Kind(), r.Key(), r.Revision(), []byte("old"), body)
	if err != nil {
		return err
	}
	vid, _ := res.LastInsertId()
	if _, err := db.ExecContext(ctx, `INSERT INTO records (rid, kind, key, version) VALUES (?, ?, ?, ?)`, rid, r.Kind(), r.Key(), vid); err != nil {
		return err
	}
	if _, err := db.ExecContext(ctx, `INSERT INTO kinds (kind, records) VALUES (?, 1) ON CONFLICT (kind) DO UPDATE SET records = records + 1`, r.Kind()); err != nil {
		return err
	}
	for _, l := range r.Lookups() {
		if _, err := db.ExecContext(ctx, `INSERT OR IGNORE INTO lookups (kind, field, value, rid) VALUES (?, ?, ?, ?)`, r.Kind(), l.Field, l.Value, rid); err != nil {
			return err
		}
	}
	stems, forms := columns(fields)
	_, err = db.ExecContext(ctx, "INSERT INTO fts_"+string(r.Kind())+" (rowid, s, e, f) VALUES (?, ?, ?, ?)",
		rid, stems, forms, strings.Join(r.Flags(), " "))
	return err
}

// TestReindexLanguages opens a database written before texts were
// analyzed in their language and Latin letters folded (migration 0010):
// Open must write anew the rows of the records concerned, so that a
// German notice is found by its German stems and a word typed without
// its diacritics finds it.
func TestReindexLanguages(t *testing.T) {
	path := t.TempDir() + "/old.db"
	writeLayoutBefore(t, path, 10, storetest.LanguageRecords(), storetest.UnfoldedFields)
	s, err := Open(t.Context(), path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	storetest.CheckLanguages(t, s)
}

// TestStatesOfOldTenders opens a database written before tenders had a
// state lookup (migration 0008): Open derives it for every stored tender.
func TestStatesOfOldTenders(t *testing.T) {
	path := t.TempDir() + "/old.db"
	writeOldLayout(t, path, storetest.StateRecords())
	s, err := Open(t.Context(), path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	storetest.CheckStates(t, s)
}

// TestStatesFollowPuts checks that every Put derives the states of the
// tenders its records change (storetest.CheckStatesFollowPuts).
func TestStatesFollowPuts(t *testing.T) {
	s, err := Open(t.Context(), t.TempDir()+"/s.db", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	storetest.CheckStatesFollowPuts(t, s)
}

// TestMeasures checks that Put keeps the prices, deadlines and code
// lookups that searches bound, sort and select by
// (storetest.CheckMeasures).
func TestMeasures(t *testing.T) {
	s, err := Open(t.Context(), t.TempDir()+"/s.db", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Put(t.Context(), storetest.MeasureRecords()); err != nil {
		t.Fatal(err)
	}
	storetest.CheckMeasures(t, s)
}

// TestMeasuresOfOldRecords opens a database written before records had
// measures (migration 0013): Open fills them, with the deadlines of
// tenders as their date changes moved them and the participants of their
// protocols.
func TestMeasuresOfOldRecords(t *testing.T) {
	path := t.TempDir() + "/old.db"
	st := textproc.Stemmer{}
	writeLayoutBefore(t, path, 13, storetest.MeasureRecords(), func(r tenderbase.Record) [][]textproc.Token {
		return query.MatchedFields(st, r, false)
	})
	s, err := Open(t.Context(), path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	storetest.CheckMeasures(t, s)
}

// TestReindexOnNewAnalysis opens a database whose full-text tables were
// written by an older text analysis (Snowball alone, no analysis noted):
// Open must index every record again, so that each is found by every form
// of its words, and note the analysis, so that the next Open does not.
func TestReindexOnNewAnalysis(t *testing.T) {
	path := t.TempDir() + "/old.db"
	writeLayoutBefore(t, path, math.MaxInt, storetest.MorphologyRecords(), storetest.SnowballFields)
	s, err := Open(t.Context(), path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	storetest.CheckMorphology(t, s)
	var version string
	if err := s.write.db.QueryRowContext(t.Context(), `SELECT version FROM analysis`).Scan(&version); err != nil || version != postings.IndexVersion() {
		t.Errorf("analysis noted %q (%v), want %q", version, err, postings.IndexVersion())
	}
}

// TestCodeFlagsOfOldRecords opens a database written before the prefixes
// of OKPD2 and CPV codes were flags (migration 0019), which kept them as
// lookups: Open must drop those lookups and index the records again with
// the flags, so that a search by a code prefix still finds them.
func TestCodeFlagsOfOldRecords(t *testing.T) {
	path := t.TempDir() + "/old.db"
	st := textproc.Stemmer{}
	recs := storetest.MeasureRecords()
	// Before measures too (0013), since the old layout's writer writes none.
	writeLayoutBefore(t, path, 13, recs, func(r tenderbase.Record) [][]textproc.Token {
		return query.MatchedFields(st, r, false)
	})
	db, err := openDB(path, false, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		for _, l := range storetest.OldCodeLookups(r) {
			if _, err := db.ExecContext(t.Context(), `INSERT OR IGNORE INTO lookups (kind, field, value, rid)
				SELECT kind, ?, ?, rid FROM records WHERE kind = ? AND key = ?`, l.Field, l.Value, r.Kind(), r.Key()); err != nil {
				t.Fatal(err)
			}
		}
	}
	db.Close()

	s, err := Open(t.Context(), path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	storetest.CheckMeasures(t, s)
	var left int
	if err := s.write.db.QueryRowContext(t.Context(), `SELECT count(*) FROM lookups WHERE field IN ('okpd2', 'cpv')`).Scan(&left); err != nil || left != 0 {
		t.Errorf("%d code lookups left (%v), want none", left, err)
	}
}

// TestPutAfterReindex keeps a store open while another opens the same
// file with a new analysis, and indexes it anew: the first must go on
// writing postings that match the file as it is now.
func TestPutAfterReindex(t *testing.T) {
	path := t.TempDir() + "/store.db"
	server := openAt(t, path)
	storetest.CheckPutAfterReindex(t, server, func(t *testing.T) {
		db, err := sql.Open("sqlite", path)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		if _, err := db.ExecContext(t.Context(), `DELETE FROM analysis`); err != nil {
			t.Fatal(err)
		}
		other, err := Open(t.Context(), path, nil)
		if err != nil {
			t.Fatal(err)
		}
		other.Close()
	})
}

// TestFactsOfOldRecords opens a database written before records had facts
// (migration 0023) and protocols bids (0024), and before measures and
// standings too: Open fills them, so that the aggregates join notices,
// protocols and contracts, and a supplier's rivalry counts the protocols
// stored before.
func TestFactsOfOldRecords(t *testing.T) {
	path := t.TempDir() + "/old.db"
	st := textproc.Stemmer{}
	writeLayoutBefore(t, path, 13, storetest.AggregateRecords(), func(r tenderbase.Record) [][]textproc.Token {
		return query.MatchedFields(st, r, false)
	})
	s, err := Open(t.Context(), path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	storetest.CheckAggregates(t, s)
	if storetest.CheckRivalry(t, s) == 0 {
		t.Fatal("the protocols name no participant")
	}
}

// TestComplaintFactsOfOldRecords opens a database written before
// complaints had facts (migration 0025) and before placer_inn (0026):
// Open fills them.
func TestComplaintFactsOfOldRecords(t *testing.T) {
	path := t.TempDir() + "/old.db"
	st := textproc.Stemmer{}
	writeLayoutBefore(t, path, 13, storetest.OldComplaintRecords(t), func(r tenderbase.Record) [][]textproc.Token {
		return query.MatchedFields(st, r, false)
	})
	s, err := Open(t.Context(), path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	storetest.CheckOldComplaints(t, s)
}
