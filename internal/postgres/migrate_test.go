package postgres

import (
	"context"
	"math"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/postgres/pgtest"
	"github.com/tenderbase/tenderbase/internal/postings"
	"github.com/tenderbase/tenderbase/internal/query"
	"github.com/tenderbase/tenderbase/internal/storetest"
	"github.com/tenderbase/tenderbase/internal/textproc"
	"github.com/tenderbase/tenderbase/internal/versioning"
)

// TestReindexOldLayout opens a database written in the layout before
// migration 0004, whose tsvectors hold the text of tariff fields
// unlabelled: Open must write them anew from the stored records so that a
// free caller's search no longer matches that text.
func TestReindexOldLayout(t *testing.T) {
	url := pgtest.URL(t)
	writeOldLayout(t, url, storetest.TariffRecords())
	s, err := Open(t.Context(), url, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	storetest.CheckTariffText(t, s)
}

// writeOldLayout makes a database at url with the migrations before 0004
// and writes recs into it as Put wrote them then: every text unlabelled.
func writeOldLayout(t *testing.T, url string, recs []tenderbase.Record) {
	t.Helper()
	st := textproc.Stemmer{}
	writeLayoutBefore(t, url, 4, recs, func(r tenderbase.Record) [][]textproc.Token {
		return st.Fields(textproc.Default, tenderbase.MatchedText(r, false))
	})
}

// writeLayoutBefore makes a database at url with the migrations before
// version and writes recs into it with the texts that analyze gives,
// unlabelled.
func writeLayoutBefore(t *testing.T, url string, version int, recs []tenderbase.Record, analyze func(tenderbase.Record) [][]textproc.Token) {
	t.Helper()
	ctx := context.Background()
	c, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	all, err := loadMigrations()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Exec(ctx, `CREATE TABLE schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`); err != nil {
		t.Fatal(err)
	}
	for _, m := range all {
		if m.Version < version {
			if err := apply(ctx, c, m); err != nil {
				t.Fatal(err)
			}
		}
	}
	for i, r := range recs {
		if err := writeOld(ctx, c, r, int64(i)+1, analyze(r)); err != nil {
			t.Fatalf("write %s %s the old way: %v", r.Kind(), r.Key(), err)
		}
	}
}

// writeOld writes r with the analyzed texts as the store wrote
// records before migration 0004, with the rid its date and n give it.
func writeOld(ctx context.Context, c *pgx.Conn, r tenderbase.Record, n int64, texts [][]textproc.Token) error {
	body, err := tenderbase.MarshalRecord(r)
	if err != nil {
		return err
	}
	lo, _ := versioning.RIDs(r.Date())
	d := newDocument(texts, nil)
	fields, values := lookups(r)
	_, err = c.Exec(ctx, `
		WITH v AS (
			INSERT INTO versions (kind, key, revision, hash, body) VALUES ($1, $2, $3, 'old', $4) RETURNING id
		), r AS (
			INSERT INTO records (rid, kind, key, version, flags, tsv, lossy)
			SELECT $5, $1, $2, v.id, $6, $7::tsvector, $8 FROM v RETURNING rid
		)
		INSERT INTO lookups (kind, field, value, rid)
		SELECT $1, f, x, r.rid FROM r, unnest($9::text[], $10::text[]) AS u (f, x)`,
		r.Kind(), r.Key(), r.Revision(), body, lo+n, indexOf(textproc.Stemmer{}, r).flags, d.tsv, d.lossy, fields, values)
	return err
}

// TestReindexLanguages opens a database written before texts were
// analyzed in their language and Latin letters folded (migration 0006):
// Open must write anew the tsvectors of the records concerned, so that a
// German notice is found by its German stems and a word typed without
// its diacritics finds it.
func TestReindexLanguages(t *testing.T) {
	url := pgtest.URL(t)
	writeLayoutBefore(t, url, 6, storetest.LanguageRecords(), storetest.UnfoldedFields)
	s, err := Open(t.Context(), url, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	storetest.CheckLanguages(t, s)
}

// TestStatesOfOldTenders opens a database written before tenders had a
// state lookup (migration 0005): Open derives it for every stored tender.
func TestStatesOfOldTenders(t *testing.T) {
	url := pgtest.URL(t)
	writeOldLayout(t, url, storetest.StateRecords())
	s, err := Open(t.Context(), url, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	storetest.CheckStates(t, s)
}

// TestStatesFollowPuts checks that every Put derives the states of the
// tenders its records change (storetest.CheckStatesFollowPuts).
func TestStatesFollowPuts(t *testing.T) {
	s, err := Open(t.Context(), pgtest.URL(t), nil)
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
	s, err := Open(t.Context(), pgtest.URL(t), nil)
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
// measures (migration 008): Open fills them, with the deadlines of
// tenders as their date changes moved them and the participants of their
// protocols.
func TestMeasuresOfOldRecords(t *testing.T) {
	url := pgtest.URL(t)
	st := textproc.Stemmer{}
	writeLayoutBefore(t, url, 8, storetest.MeasureRecords(), func(r tenderbase.Record) [][]textproc.Token {
		return query.MatchedFields(st, r, false)
	})
	s, err := Open(t.Context(), url, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	storetest.CheckMeasures(t, s)
}

// TestReindexOnNewAnalysis opens a database whose tsvectors were written
// by an older text analysis (Snowball alone, no analysis noted): Open must
// index every record again, so that each is found by every form of its
// words, and note the analysis, so that the next Open only reads.
func TestReindexOnNewAnalysis(t *testing.T) {
	url := pgtest.URL(t)
	writeLayoutBefore(t, url, math.MaxInt, storetest.MorphologyRecords(), storetest.SnowballFields)
	s, err := Open(t.Context(), url, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	storetest.CheckMorphology(t, s)
	var version string
	if err := s.pool.QueryRow(t.Context(), `SELECT version FROM analysis`).Scan(&version); err != nil || version != postings.IndexVersion() {
		t.Errorf("analysis noted %q (%v), want %q", version, err, postings.IndexVersion())
	}
}

// TestCodeFlagsOfOldRecords opens a database written before the prefixes
// of OKPD2 and CPV codes were flags (migration 0016), which kept them as
// lookups and not among the records' flags: Open must drop those lookups
// and write the records' flags anew, so that a search by a code prefix
// still finds them.
func TestCodeFlagsOfOldRecords(t *testing.T) {
	url := pgtest.URL(t)
	st := textproc.Stemmer{}
	recs := storetest.MeasureRecords()
	// Before measures too (0008), since the old layout's writer writes none.
	writeLayoutBefore(t, url, 8, recs, func(r tenderbase.Record) [][]textproc.Token {
		return query.MatchedFields(st, r, false)
	})
	c, err := pgx.Connect(t.Context(), url)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Exec(t.Context(), `UPDATE records SET flags = array(SELECT f FROM unnest(flags) f WHERE f !~ '^(ok|cpv)')`); err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		for _, l := range storetest.OldCodeLookups(r) {
			if _, err := c.Exec(t.Context(), `INSERT INTO lookups (kind, field, value, rid)
				SELECT kind, $1, $2, rid FROM records WHERE kind = $3 AND key = $4 ON CONFLICT DO NOTHING`,
				l.Field, l.Value, string(r.Kind()), r.Key()); err != nil {
				t.Fatal(err)
			}
		}
	}
	c.Close(t.Context())

	s, err := Open(t.Context(), url, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	storetest.CheckMeasures(t, s)
	var left int
	if err := s.pool.QueryRow(t.Context(), `SELECT count(*) FROM lookups WHERE field IN ('okpd2', 'cpv')`).Scan(&left); err != nil || left != 0 {
		t.Errorf("%d code lookups left (%v), want none", left, err)
	}
}

// TestPutAfterReindex keeps a store open while another server opens the
// same database with a new analysis, and indexes it anew: the first must
// go on writing postings that match the database as it is now.
func TestPutAfterReindex(t *testing.T) {
	url := pgtest.URL(t)
	server, err := Open(t.Context(), url, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer server.Close()
	storetest.CheckPutAfterReindex(t, server, func(t *testing.T) {
		c, err := pgx.Connect(t.Context(), url)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close(t.Context())
		if _, err := c.Exec(t.Context(), `DELETE FROM analysis`); err != nil {
			t.Fatal(err)
		}
		other, err := Open(t.Context(), url, nil)
		if err != nil {
			t.Fatal(err)
		}
		other.Close()
	})
}

// TestFactsOfOldRecords opens a database written before records had facts
// (migration 0018) and protocols bids (0019), and before measures and
// standings too: Open fills them, so that the aggregates join notices,
// protocols and contracts, and a supplier's rivalry counts the protocols
// stored before.
func TestFactsOfOldRecords(t *testing.T) {
	url := pgtest.URL(t)
	st := textproc.Stemmer{}
	writeLayoutBefore(t, url, 8, storetest.AggregateRecords(), func(r tenderbase.Record) [][]textproc.Token {
		return query.MatchedFields(st, r, false)
	})
	s, err := Open(t.Context(), url, nil)
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
// complaints had facts (migration 0020) and before placer_inn (0021):
// Open fills them.
func TestComplaintFactsOfOldRecords(t *testing.T) {
	url := pgtest.URL(t)
	st := textproc.Stemmer{}
	writeLayoutBefore(t, url, 8, storetest.OldComplaintRecords(t), func(r tenderbase.Record) [][]textproc.Token {
		return query.MatchedFields(st, r, false)
	})
	s, err := Open(t.Context(), url, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	storetest.CheckOldComplaints(t, s)
}
