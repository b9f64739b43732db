package ndjson_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/source/ndjson"
)

// readOne reads the single line input and returns the canonical JSON of its
// record, or its error message.
func readOne(t *testing.T, input string) (string, string) {
	t.Helper()
	rd := ndjson.NewReader(strings.NewReader(input))
	if !rd.Next() {
		t.Fatalf("no line read: %v", rd.Err())
	}
	rec, err := rd.Record()
	if err != nil {
		return "", err.Error()
	}
	body, err := tenderbase.MarshalRecord(rec)
	if err != nil {
		t.Fatal(err)
	}
	return string(body), ""
}

// TestReaderSpecTypes reads the types spec part 2 gives: bare dates in time
// fields, INNs, KPPs and purchase numbers as JSON numbers.
func TestReaderSpecTypes(t *testing.T) {
	tests := []struct {
		name, input, want string
	}{
		{"tender: bare dates, numeric purchase number, customer INN and KPP",
			`{"kind":"tender","record":{"purchase_number":373100064617000024,"law":"44","version":1,"title":"Бумага",` +
				`"customer":{"inn":772324477,"kpp":77301001},"published_at":"2024-03-05","applications_deadline":"2024-03-15",` +
				`"participants":[{"inn":7707083893,"price":10}],"change":{"published_at":"2024-03-06"}}}`,
			`{"purchase_number":"0373100064617000024","law":"44","version":1,"title":"Бумага",` +
				`"customer":{"inn":"0772324477","kpp":"077301001"},"published_at":"2024-03-05T00:00:00+03:00",` +
				`"applications_deadline":"2024-03-15T00:00:00+03:00","participants":[{"inn":"7707083893","price":10}],` +
				`"change":{"published_at":"2024-03-06T00:00:00+03:00"}}`},
		{"223-FZ purchase number kept as it is",
			`{"kind":"tender","record":{"purchase_number":32413456789,"law":"223","version":1,"title":"x","customer":{}}}`,
			`{"purchase_number":"32413456789","law":"223","version":1,"title":"x","customer":{}}`},
		{"complaint: supplierInn and customerInn as int, a person's INN of 11 digits",
			`{"kind":"complaint","record":{"complaintNumber":"202400000001","versionNumber":1,"supplierInn":77123456789,` +
				`"customerInn":7707083893,"purchaseNumber":"0373100064617000024","date_publ":"2024-03-05"}}`,
			`{"date_publ":"2024-03-05T00:00:00+03:00","complaintNumber":"202400000001","versionNumber":1,` +
				`"purchaseNumber":"0373100064617000024","supplierInn":"077123456789","customerInn":"7707083893"}`},
		{"a full time stays as it is",
			`{"kind":"tender","record":{"purchase_number":"1","law":"44","version":1,"title":"x","customer":{},"published_at":"2024-03-05T10:00:00Z"}}`,
			`{"purchase_number":"1","law":"44","version":1,"title":"x","customer":{},"published_at":"2024-03-05T10:00:00Z"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, msg := readOne(t, tt.input)
			if msg != "" {
				t.Fatalf("rejected: %s", msg)
			}
			if diff := cmp.Diff(normalJSON(t, tt.want), normalJSON(t, got)); diff != "" {
				t.Errorf("record (-want +got):\n%s", diff)
			}
		})
	}
}

// TestReaderRejectionWords checks that a rejected line names the field and
// the JSON types, never a Go type.
func TestReaderRejectionWords(t *testing.T) {
	tests := []struct {
		name, input, want string
	}{
		{"number for a string",
			`{"kind":"tender","record":{"purchase_number":"1","law":44}}`,
			"tender record: field law: expected a string, got a number"},
		{"string for a whole number",
			`{"kind":"tender","record":{"purchase_number":"1","version":"2"}}`,
			"tender record: field version: expected a whole number, got a string"},
		{"object for an array, nested",
			`{"kind":"tender","record":{"purchase_number":"1","lots":[{"number":1,"objects":{}}]}}`,
			"tender record: field lots.objects: expected an array, got an object"},
		{"number for a time",
			`{"kind":"tender","record":{"purchase_number":"1","published_at":20240305}}`,
			`tender record: field published_at: expected a date ("2024-03-05") or a time ("2024-03-05T10:00:00+03:00"), got a number`},
		{"a date that is none",
			`{"kind":"contract","record":{"reg_number":"1","signed_at":"05.03.2024"}}`,
			`contract record: field signed_at: expected a date ("2024-03-05") or a time ("2024-03-05T10:00:00+03:00"), got "05.03.2024"`},
		{"unknown field",
			`{"kind":"tender","record":{"purchase_number":"1","colour":"red"}}`,
			`tender record: unknown field "colour"`},
		{"INN of 13 digits",
			`{"kind":"org","record":{"inn":1234567890123}}`,
			"org record: field inn: expected a string, got a number"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, got := readOne(t, tt.input)
			if got != tt.want {
				t.Errorf("message = %q\nwant      %q", got, tt.want)
			}
		})
	}
}

// normalJSON returns the JSON text s with its keys in one order.
func normalJSON(t *testing.T, s string) map[string]any {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("%s: %v", s, err)
	}
	return v
}
