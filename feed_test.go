package tenderbase_test

import (
	"encoding/base64"
	"testing"

	"github.com/tenderbase/tenderbase"
)

func TestFeedCursor(t *testing.T) {
	for _, last := range []int64{0, 1, 456, 1<<63 - 1} {
		got, err := tenderbase.ParseFeedCursor("ru", tenderbase.FeedCursor("ru", last))
		if err != nil || got != last {
			t.Errorf("cursor of %d read back as %d, %v", last, got, err)
		}
	}
	raw := func(s string) string { return base64.RawURLEncoding.EncodeToString([]byte(s)) }
	for name, cursor := range map[string]string{
		"of another resource": tenderbase.FeedCursor("fas", 3),
		"not base64":          "**",
		"a search's cursor":   "20.abc",
		"no number":           raw("feed1.ru."),
		"a negative number":   raw("feed1.ru.-4"),
		"another version":     raw("feed2.ru.4"),
		"empty":               "",
	} {
		if _, err := tenderbase.ParseFeedCursor("ru", cursor); tenderbase.ErrorCode(err) != tenderbase.EINVALID {
			t.Errorf("%s: %v, want EINVALID", name, err)
		}
	}
}
