package tools

import (
	"strconv"
	"strings"
)

// maxCursorLength bounds a cursor argument: a row number, a dot and a store
// cursor of 35 characters.
const maxCursorLength = 64

// pageCursor is the next_cursor of a search tool's page: the row the next
// page starts at, so that the plan's row cap holds however a caller pages,
// and the store's cursor of the page (tenderbase.Page.Next).
type pageCursor struct {
	start int
	store string
}

// String writes the cursor as "<row>.<store cursor>": the store's cursor
// is URL-safe base64, which holds no dot.
func (c pageCursor) String() string { return strconv.Itoa(c.start) + "." + c.store }

// parsePageCursor reads a next_cursor; what it cannot read is an argument
// error that says where cursors come from.
func parsePageCursor(s string) (pageCursor, error) {
	row, store, ok := strings.Cut(s, ".")
	start, err := strconv.Atoi(row)
	if !ok || err != nil || start <= 0 || store == "" {
		return pageCursor{}, argErrorf("argument \"cursor\" must be the next_cursor of a page of the same search, passed unchanged; got %q", s)
	}
	return pageCursor{start: start, store: store}, nil
}
