package ndjson_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/source/ndjson"
)

func TestDetect(t *testing.T) {
	tests := []struct {
		name   string
		prefix string
		want   bool
	}{
		{"envelope", `{"kind":"tender","record":{"purchase_number":"1"}}` + "\n", true},
		{"kind after record", `{"record":{"a":[1,{"b":2}]},"kind":"org"}`, true},
		{"leading space and bom", "\xEF\xBB\xBF \n\t" + `{"kind":"lot"}`, true},
		{"first line cut off", `{"kind":"tender","record":{"title":"очень дл`, true},
		{"only the first line counts", `{"record":{}}` + "\n" + `{"kind":"tender"}`, false},
		{"empty", "", false},
		{"spaces", "  \n ", false},
		{"json array", `[{"kind":"tender"}]`, false},
		{"xml", `<?xml version="1.0"?><export/>`, false},
		{"binary", "PK\x03\x04\x14\x00\x00", false},
		{"no kind", `{"purchase_number":"1"}`, false},
		{"nested kind only", `{"record":{"kind":"tender"}}`, false},
		{"empty kind", `{"kind":""}`, false},
		{"kind not a string", `{"kind":7}`, false},
		{"broken json", `{"kind" "tender"}`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ndjson.Detect([]byte(tt.prefix)); got != tt.want {
				t.Errorf("Detect(%q) = %v, want %v", tt.prefix, got, tt.want)
			}
		})
	}
}

func TestFormatDecode(t *testing.T) {
	input := tenderLine(t, "1") + "\n{bad\n" + tenderLine(t, "2") + "\n"
	var got []result
	err := ndjson.Format{}.Decode("records.ndjson", strings.NewReader(input), func(line int, rec tenderbase.Record, err error) error {
		res := result{Line: line}
		if err != nil {
			res.Err = firstWords(err.Error())
		} else {
			res.Key = rec.Key()
		}
		got = append(got, res)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []result{{1, "1", ""}, {2, "", "not a record line"}, {3, "2", ""}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("lines (-want +got):\n%s", diff)
	}
}

func TestFormatDecodeStops(t *testing.T) {
	stop := errors.New("stop")
	calls := 0
	input := tenderLine(t, "1") + "\n" + tenderLine(t, "2") + "\n"
	err := ndjson.Format{}.Decode("records.ndjson", strings.NewReader(input), func(int, tenderbase.Record, error) error {
		calls++
		return stop
	})
	if !errors.Is(err, stop) || calls != 1 {
		t.Errorf("Decode = %v after %d calls, want %v after 1", err, calls, stop)
	}
}
