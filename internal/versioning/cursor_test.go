package versioning

import (
	"encoding/base64"
	"strings"
	"testing"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/query"
)

// A cursor reads back as the place it was written for, and a cursor of an
// older version, another search or no cursor at all is refused with a
// message that says what to do.
func TestCursor(t *testing.T) {
	q, err := query.Parse("поставка", query.MCP)
	if err != nil {
		t.Fatal(err)
	}
	s := tenderbase.Search{Kind: tenderbase.KindTender, Query: q, Sort: tenderbase.SortRelevance}
	want := Cursor{RID: 42, Key: 17}
	s.Cursor = EncodeCursor(s, want)
	got, err := DecodeCursor(s)
	if err != nil || *got != want {
		t.Fatalf("DecodeCursor = %v, %v; want %v", got, err, want)
	}
	older, _ := base64.RawURLEncoding.DecodeString(s.Cursor)
	older[0] = cursorVersion - 1
	other := s
	other.Sort = tenderbase.SortNewest
	for _, c := range []struct {
		name string
		s    tenderbase.Search
		says string
	}{
		{"an older version", withCursor(s, base64.RawURLEncoding.EncodeToString(older)), "before this service was upgraded"},
		{"another search", withCursor(other, s.Cursor), "another search"},
		{"not a cursor", withCursor(s, "abc"), "not one this service gave"},
	} {
		_, err := DecodeCursor(c.s)
		if tenderbase.ErrorCode(err) != tenderbase.EINVALID || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%s: %v, want EINVALID saying %q", c.name, err, c.says)
		}
	}
}

func withCursor(s tenderbase.Search, cursor string) tenderbase.Search {
	s.Cursor = cursor
	return s
}
