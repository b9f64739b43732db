package versioning

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tenderbase/tenderbase"
)

// TestEncodeRefusesText checks that Encode names the field, by its JSON
// path, of text that no store can hold, wherever in the record it is.
func TestEncodeRefusesText(t *testing.T) {
	tests := []struct {
		name   string
		change func(r *tenderbase.Tender)
		want   string // the message, "" for none
	}{
		{"clean", func(r *tenderbase.Tender) {}, ""},
		{"replacement character is text", func(r *tenderbase.Tender) { r.Title = "Поставка \ufffd" }, ""},
		{"embedded struct", func(r *tenderbase.Tender) { r.Participants[1].Name = "ООО\x00" },
			`tender "1": participants[1].name holds a NUL byte`},
		{"pointer", func(r *tenderbase.Tender) { r.ETP = &tenderbase.ETP{URL: "https://\xff"} },
			`tender "1": etp.url is not valid UTF-8`},
		{"slice of strings", func(r *tenderbase.Tender) { r.Change = &tenderbase.Change{Fields: []string{"title", "\x00"}} },
			`tender "1": change.fields[1] holds a NUL byte`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &tenderbase.Tender{PurchaseNumber: "1", Title: "Поставка", PublishedAt: time.Now(),
				Participants: []tenderbase.Participant{{Party: tenderbase.Party{Name: "А"}}, {Party: tenderbase.Party{Name: "Б"}}}}
			tt.change(r)
			_, err := Encode(r)
			if diff := cmp.Diff(tt.want, tenderbase.ErrorMessage(err)); diff != "" {
				t.Errorf("Encode: error %v (-want +got):\n%s", err, diff)
			}
			if err != nil && tenderbase.ErrorCode(err) != tenderbase.EINVALID {
				t.Errorf("Encode: code %q, want invalid", tenderbase.ErrorCode(err))
			}
		})
	}
}
