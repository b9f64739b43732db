package tenderbase

import (
	"context"
	"encoding/base64"
	"slices"
	"strconv"
	"strings"
	"time"
)

// FeedChange says what an entry of the feed is.
type FeedChange string

const (
	// FeedNew is a record stored for the first time.
	FeedNew FeedChange = "new"
	// FeedVersion is a new current version of a stored record, or a
	// correction of its current version.
	FeedVersion FeedChange = "version"
	// FeedWithdrawn is a record taken away by a withdrawal.
	FeedWithdrawn FeedChange = "withdrawn"
	// FeedState is a tender whose derived state or deadline changed: it
	// got a winner, failed, was cancelled, or its deadline moved; or a
	// world tender stored with awards that name its winners, which is
	// then TenderCompleted, as a tender whose protocol names them.
	FeedState FeedChange = "state"
)

// FeedEntry is one entry of the change feed: what became of one record in a
// write. Entries come in the order the writes committed, each once.
type FeedEntry struct {
	Seq      int64      `json:"-"` // its place in the feed, the store's own
	Type     FeedChange `json:"type"`
	Kind     Kind       `json:"kind"`
	Key      string     `json:"key"`
	Revision int        `json:"revision,omitempty"` // of a new record or version
	// State and Deadline are the tender's standing after a FeedState
	// (TenderState); Deadline is zero when the tender has none.
	State    string    `json:"state,omitempty"`
	Deadline time.Time `json:"deadline,omitzero"`
	At       time.Time `json:"at"` // when the store recorded it, to the second
}

// ChangeFeed is implemented by stores that keep the feed of changes: every
// Put records, in its own transaction, a FeedEntry for each record it
// inserts, replaces or corrects, each record a withdrawal takes away, and
// each tender whose derived standing changes. Records stored before the
// store kept the feed have no entries.
type ChangeFeed interface {
	// Changes returns the changes of the kinds q names after q.After, in
	// the order they were written, at most q.Limit of them.
	Changes(ctx context.Context, q FeedQuery) (FeedPage, error)
}

// FeedQuery asks for a page of the change feed.
type FeedQuery struct {
	Kinds []Kind
	After int64 // the Seq of the last change already read; 0 for the start
	Limit int
}

// FeedPage is a page of the change feed. Last is the Seq to read after
// next: the last entry's, or After when the page is empty. More says that
// the page was cut at its limit.
type FeedPage struct {
	Entries []FeedEntry
	Last    int64
	More    bool
}

// FeedResources are the resources of the change feed, as the tools group
// them, and the kinds of each: ru holds tenders with their protocols and
// events, fas the antimonopoly registry.
var FeedResources = map[string][]Kind{
	"ru":         {KindTender, KindProtocol, KindTenderEvent},
	"docs":       {KindDoc},
	"contracts":  {KindContract, KindContractExecution},
	"world":      {KindWorldTender},
	"torgi":      {KindLot, KindLotEvent},
	"rnp":        {KindUnfairSupplier},
	"plans":      {KindPlannedPurchase},
	"fas":        {KindComplaint, KindComplaintResult, KindFASCase},
	"contragent": {KindOrg},
}

// FeedResourceNames returns the names of the feed's resources, sorted.
func FeedResourceNames() []string {
	names := make([]string, 0, len(FeedResources))
	for n := range FeedResources {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// MaxFeedPage bounds the changes of one page of the feed.
const MaxFeedPage = 1000

// feedCursorPrefix marks a cursor of the feed and its resource, so that a
// cursor of another resource, or no cursor of the feed, is refused.
const feedCursorPrefix = "feed1."

// FeedCursor returns the opaque cursor that reads resource's feed after
// the change whose Seq is last.
func FeedCursor(resource string, last int64) string {
	return base64.RawURLEncoding.EncodeToString([]byte(feedCursorPrefix + resource + "." + strconv.FormatInt(last, 10)))
}

// ParseFeedCursor returns the Seq a cursor of resource's feed reads after:
// EINVALID for a cursor that is not one, or one of another resource.
func ParseFeedCursor(resource, cursor string) (int64, error) {
	raw, err := base64.RawURLEncoding.DecodeString(cursor)
	rest, ok := strings.CutPrefix(string(raw), feedCursorPrefix)
	if err != nil || !ok {
		return 0, Errorf(EINVALID, "cursor %s is no cursor of the feed: pass the next_cursor a page of the feed gave", Quote(cursor))
	}
	of, seq, _ := strings.Cut(rest, ".")
	if of != resource {
		return 0, Errorf(EINVALID, "cursor %s reads the feed of %s, not of %s", Quote(cursor), Quote(of), Quote(resource))
	}
	last, err := strconv.ParseInt(seq, 10, 64)
	if err != nil || last < 0 {
		return 0, Errorf(EINVALID, "cursor %s is damaged: pass the next_cursor a page of the feed gave", Quote(cursor))
	}
	return last, nil
}
