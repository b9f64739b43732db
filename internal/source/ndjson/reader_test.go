package ndjson_test

import (
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/source/ndjson"
)

// tenderLine returns the canonical line of a tender with the given number.
func tenderLine(t *testing.T, number string) string {
	t.Helper()
	line, err := tenderbase.EncodeEnvelope(&tenderbase.Tender{
		PurchaseNumber: number,
		Law:            tenderbase.Law44,
		Version:        1,
		Title:          "Поставка бумаги",
		PublishedAt:    time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC),
	})
	if err != nil {
		t.Fatal(err)
	}
	return string(line)
}

// result is what the reader said about one line.
type result struct {
	Line int
	Key  string
	Err  string
}

func readAll(t *testing.T, r io.Reader) ([]result, error) {
	t.Helper()
	var got []result
	rd := ndjson.NewReader(r)
	for rd.Next() {
		rec, err := rd.Record()
		res := result{Line: rd.Line()}
		if err != nil {
			if tenderbase.ErrorCode(err) != tenderbase.EINVALID {
				t.Errorf("line %d: error code %q, want %q", rd.Line(), tenderbase.ErrorCode(err), tenderbase.EINVALID)
			}
			res.Err = firstWords(err.Error())
		} else {
			res.Key = rec.Key()
		}
		got = append(got, res)
	}
	return got, rd.Err()
}

// firstWords keeps the stable start of an error message; the rest comes from
// encoding/json and may change between Go releases.
func firstWords(msg string) string {
	if i := strings.Index(msg, ":"); i >= 0 {
		return msg[:i]
	}
	return msg
}

func TestReader(t *testing.T) {
	a, b := tenderLine(t, "0373100000125000001"), tenderLine(t, "0373100000125000002")
	tests := []struct {
		name  string
		input string
		want  []result
	}{
		{"empty", "", nil},
		{"blank lines only", "\n  \n\t\r\n", nil},
		{"two records", a + "\n" + b + "\n", []result{{1, "0373100000125000001", ""}, {2, "0373100000125000002", ""}}},
		{"no final newline", a + "\n" + b, []result{{1, "0373100000125000001", ""}, {2, "0373100000125000002", ""}}},
		{"blank lines counted", "\n" + a + "\n\n" + b + "\n\n", []result{{2, "0373100000125000001", ""}, {4, "0373100000125000002", ""}}},
		{"crlf", a + "\r\n" + b + "\r\n", []result{{1, "0373100000125000001", ""}, {2, "0373100000125000002", ""}}},
		{"byte order mark", "\xEF\xBB\xBF" + a + "\n", []result{{1, "0373100000125000001", ""}}},
		{"bad lines do not stop reading", "{oops\n" +
			`{"kind":"ship","record":{}}` + "\n" +
			`{"kind":"tender","record":{"purchase_number":"1","colour":"red"}}` + "\n" +
			`{"kind":"tender"}` + "\n" +
			`{"kind":"tender","record":{"title":"no key"}}` + "\n" +
			"\x00\x01\x02\xff\n" +
			b + "\n",
			[]result{
				{1, "", "not a record line"},
				{2, "", `unknown record kind "ship" (known`},
				{3, "", "tender record"},
				{4, "", `record line has no "record"`},
				{5, "", "tender record has no key (purchase_number)"},
				{6, "", "not a record line"},
				{7, "0373100000125000002", ""},
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := readAll(t, strings.NewReader(tt.input))
			if err != nil {
				t.Fatalf("Err() = %v", err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("lines (-want +got):\n%s", diff)
			}
		})
	}
}

func TestReaderLongLine(t *testing.T) {
	long := `{"kind":"tender","record":{"title":"` + strings.Repeat("a", ndjson.MaxLineSize) + `"}}`
	input := tenderLine(t, "1") + "\n" + long + "\n" + tenderLine(t, "3") + "\n"
	got, err := readAll(t, strings.NewReader(input))
	if err != nil {
		t.Fatalf("Err() = %v", err)
	}
	want := []result{{1, "1", ""}, {2, "", "line is longer than 16 MiB"}, {3, "3", ""}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("lines (-want +got):\n%s", diff)
	}
}

func TestReaderReadError(t *testing.T) {
	broken := io.MultiReader(strings.NewReader(tenderLine(t, "1")+"\n"), iotest.ErrReader(errors.New("disk gone")))
	got, err := readAll(t, broken)
	if want := []result{{1, "1", ""}}; !cmp.Equal(want, got) {
		t.Errorf("lines = %v, want %v", got, want)
	}
	if err == nil || !strings.Contains(err.Error(), "read line 2: disk gone") {
		t.Errorf("Err() = %v, want the read error at line 2", err)
	}
}

func TestReaderLineSizeBound(t *testing.T) {
	line := func(size int) string {
		head, tail := `{"kind":"tender","record":{"purchase_number":"1","title":"`, `"}}`
		return head + strings.Repeat("a", size-len(head)-len(tail)) + tail
	}
	input := line(ndjson.MaxLineSize) + "\r\n" + line(ndjson.MaxLineSize+1) + "\n"

	got, err := readAll(t, strings.NewReader(input))

	if err != nil {
		t.Fatalf("Err() = %v", err)
	}
	want := []result{{1, "1", ""}, {2, "", "line is longer than 16 MiB"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("lines (-want +got):\n%s", diff)
	}
}

// TestReaderBlankLines reads records apart by many blank lines with their
// line numbers, and without a line's work for each blank line: a file of
// newlines must cost a scan of its bytes.
func TestReaderBlankLines(t *testing.T) {
	const blank = 100000
	input := tenderLine(t, "1") + strings.Repeat("\n", blank) + " \t\r\n\n  " + tenderLine(t, "2") + "\n" + strings.Repeat(" \n", blank)
	var lines []int
	allocs := testing.AllocsPerRun(1, func() {
		lines = lines[:0]
		r := ndjson.NewReader(strings.NewReader(input))
		for r.Next() {
			if _, err := r.Record(); err != nil {
				t.Fatal(err)
			}
			lines = append(lines, r.Line())
		}
		if err := r.Err(); err != nil {
			t.Fatal(err)
		}
	})
	if diff := cmp.Diff([]int{1, blank + 3}, lines); diff != "" {
		t.Errorf("lines (-want +got):\n%s", diff)
	}
	if allocs > 1000 {
		t.Errorf("%.0f allocations for two records among %d blank lines, want at most 1000", allocs, 2*blank)
	}
}
