package torgi

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/source/sourcetest"
)

// TestListEvents: the entries of a daily list for cancellations,
// annulments, stops and resumptions are lot events naming their notice;
// the entries for notices and clarifications are counted in a note.
func TestListEvents(t *testing.T) {
	recs, errs := sourcetest.DecodeFile(t, Format{}, filepath.Join("testdata", "opendata-list-events.json"))
	const docs = "https://torgi.gov.ru/new/opendata/7710568760-notice/docs/"
	event := func(typ, document, notice, uuid, published string) *tenderbase.LotEvent {
		return &tenderbase.LotEvent{
			ID: document + "_" + notice + "_" + uuid, Source: "torgi.gov.ru", Type: typ, Document: document,
			Number: uuid, Message: notice, PublishedAt: at(t, published), URL: docs + document + "_" + notice + "_" + uuid + ".json",
		}
	}
	want := []*tenderbase.LotEvent{
		event("cancellation", "noticeCancel", "21000035130000000412", "6f1d2c3b-0a9e-4e51-8d77-1b2c3d4e5f60", "2026-05-02T08:15:00Z"),
		event("resumption", "noticeResumption", "21000035130000000412", "0b7e4a91-5c2d-4f3e-9a61-7d8c2b1e4f05", "2026-04-27T09:30:12.41Z"),
		event("stop", "noticeStop", "21000035130000000412", "1d06ccbe-ec07-48f9-bfd4-9184ac889d44", "2026-04-24T11:41:53.323Z"),
		event("stop", "noticeStop", "22000007330000000402", "ba51308e-4563-46e4-b135-bb26fea763a6", "2026-04-22T07:01:26.282Z"),
		event("annulment", "noticeAnnulment", "23000042610000000141", "1d211673-af9c-4378-a5b9-993011dc761b", "2026-04-23T16:33:23.216Z"),
	}
	var got []*tenderbase.LotEvent
	for _, r := range recs {
		e, ok := r.(*tenderbase.LotEvent)
		if !ok {
			t.Fatalf("a %s among the events", r.Kind())
		}
		got = append(got, e)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "1 notice(s), 1 clarification(s) and 0 document(s) of other types") {
		t.Errorf("notes %v; want one counting the notice and the clarification", errs)
	}
	if _, ok := errs[0].(interface{ FileNote() bool }); !ok {
		t.Errorf("%v is a rejection, not a note", errs[0])
	}
}

func TestListEntryWithoutNotice(t *testing.T) {
	_, errs := decodeBody(t, `{"listObjects": [{"documentType": "noticeStop", "regNum": "", "publishDate": "2026-04-22T07:01:26.282Z",
		"href": "https://torgi.gov.ru/new/opendata/7710568760-notice/docs/noticeStop__ba51308e.json"}]}`)
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "without regNum or publishDate") || tenderbase.ErrorCode(errs[0]) != tenderbase.EINVALID {
		t.Errorf("%v, want one invalid entry", errs)
	}
}

// TestListEventsThroughAStore imports the notice and the daily list into a
// real store, in both orders, the list cut at a date: the lot of the notice
// is suspended by its stop, active again by its resumption, and cancelled
// by its cancellation, whichever came first. storetest runs the same rule on
// PostgreSQL.
func TestListEventsThroughAStore(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "opendata-list-events.json"))
	if err != nil {
		t.Fatal(err)
	}
	var list struct {
		ListObjects []map[string]any `json:"listObjects"`
	}
	if err := json.Unmarshal(data, &list); err != nil {
		t.Fatal(err)
	}
	cancelled := &tenderbase.LotResult{Outcome: "cancelled", PublishedAt: at(t, "2026-05-02T08:15:00Z"),
		Document: "noticeCancel", Message: "6f1d2c3b-0a9e-4e51-8d77-1b2c3d4e5f60"}
	for _, tt := range []struct {
		through, status, word string
		result                *tenderbase.LotResult
	}{
		{"2026-04-25", "active", "noticeStop", nil},
		{"2026-04-28", "active", "noticeResumption", nil},
		{"2026-05-03", "cancelled", "noticeCancel", cancelled},
	} {
		var cut []map[string]any
		for _, o := range list.ListObjects {
			if o["publishDate"].(string) < tt.through {
				cut = append(cut, o)
			}
		}
		body, err := json.Marshal(map[string]any{"listObjects": cut})
		if err != nil {
			t.Fatal(err)
		}
		listFile := filepath.Join(t.TempDir(), "data-20260422T0000-20260423T0000-structure-20240401.json")
		if err := os.WriteFile(listFile, body, 0o644); err != nil {
			t.Fatal(err)
		}
		notice := filepath.Join("testdata", "opendata-notice.json")
		for order, files := range map[string][]string{"notice first": {notice, listFile}, "list first": {listFile, notice}} {
			t.Run(tt.through+" "+order, func(t *testing.T) {
				ctx, store := t.Context(), sourcetest.Store(t, Format{}, files...)
				for _, key := range []string{"21000035130000000412_1", "21000035130000000412_2"} {
					r, err := store.Get(ctx, tenderbase.KindLot, key)
					if err != nil {
						t.Fatal(err)
					}
					l := r.(*tenderbase.Lot)
					if diff := cmp.Diff(tt.result, l.Result); diff != "" || l.Status != tt.status || l.SourceStatus != tt.word || l.Suspended != (tt.word == "noticeStop") {
						t.Errorf("lot %s: %s (%s), suspended %v, want %s (%s); result (-want +got):\n%s", key, l.Status, l.SourceStatus, l.Suspended, tt.status, tt.word, diff)
					}
				}
			})
		}
	}
}

// decodeBody decodes a document given as text.
func decodeBody(t *testing.T, body string) ([]tenderbase.Record, []error) {
	t.Helper()
	return sourcetest.Decode(t, Format{}, []byte(body))
}
