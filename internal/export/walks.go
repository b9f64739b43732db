package export

import (
	"container/list"
	"fmt"
	"sync"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/query"
)

// MaxWalks is how many walks a Walks remembers at most: far more than the
// clients that walk the export at one time.
const MaxWalks = 4096

// Walks remembers where the page after the last one read of a walk
// begins: the cursor that page gave (tenderbase.Page.Next), with the
// generation of the data it was read from. The export is paged by number,
// so its clients walk pages 0, 1, 2...; a page by number passes every page
// before it, which makes a walk's time grow with the square of its length,
// while a page by cursor costs what the first page costs. It holds the
// walks used last, at most MaxWalks, and is safe for concurrent use. The
// zero value is ready to use; a nil *Walks remembers nothing.
type Walks struct {
	mu     sync.Mutex
	order  list.List // of *walkStart, the most recently used first
	starts map[walkKey]*list.Element
}

// walkKey is a page of a search: the search as the caller's plan restricts
// it, with its page size, and the page's number.
type walkKey struct {
	search string
	page   int
}

// walkStart is where a page begins: after the cursor, in the generation.
type walkStart struct {
	key    walkKey
	gen    int64
	cursor string
}

// keyOf returns the key of the page of s. It holds what decides the
// records of s and their order, as a cursor's fingerprint does, and the
// page size, which decides where a page begins.
func keyOf(s tenderbase.Search) walkKey {
	q := ""
	if s.Query != nil {
		q = query.Format(s.Query)
	}
	search := fmt.Sprintf("%s\x00%s\x00%q\x00%q\x00%v\x00%s\x00%v\x00%d",
		s.Kind, q, s.Filters.Groups(), s.Where, s.Ranges, s.Order(), s.OpenTextOnly, s.Size())
	return walkKey{search: search, page: s.Page}
}

// start returns where the page of key begins, if a walk read the page
// before it.
func (w *Walks) start(key walkKey) (walkStart, bool) {
	if w == nil {
		return walkStart{}, false
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	e, ok := w.starts[key]
	if !ok {
		return walkStart{}, false
	}
	w.order.MoveToFront(e)
	return *e.Value.(*walkStart), true
}

// learn remembers where the page after the page of key begins, from that
// page as the store read it: nothing when it is the last page, or when
// the store does not say the generation of its data.
func (w *Walks) learn(key walkKey, p tenderbase.Page) {
	if w == nil || p.Next == "" || p.Generation == 0 {
		return
	}
	next := walkStart{key: walkKey{search: key.search, page: key.page + 1}, gen: p.Generation, cursor: p.Next}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.starts == nil {
		w.starts = map[walkKey]*list.Element{}
	}
	if e, ok := w.starts[next.key]; ok {
		e.Value = &next
		w.order.MoveToFront(e)
		return
	}
	w.starts[next.key] = w.order.PushFront(&next)
	if w.order.Len() > MaxWalks {
		oldest := w.order.Back()
		w.order.Remove(oldest)
		delete(w.starts, oldest.Value.(*walkStart).key)
	}
}
