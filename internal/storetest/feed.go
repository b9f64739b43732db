package storetest

import (
	"fmt"
	"testing"
	"time"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/tenderbase/tenderbase"
)

// feedLine is what the feed test compares of an entry: all but its place
// and the time it was recorded.
func feedLine(e tenderbase.FeedEntry) string {
	s := fmt.Sprintf("%s %s %s", e.Type, e.Kind, e.Key)
	if e.Revision != 0 {
		s += fmt.Sprintf(" r%d", e.Revision)
	}
	if e.State != "" {
		s += " " + e.State
	}
	if !e.Deadline.IsZero() {
		s += " until " + e.Deadline.UTC().Format(time.DateOnly)
	}
	return s
}

// readFeed reads the feed of kinds after after, page by page of size,
// through st, and returns its lines and the position of its end.
func readFeed(t *testing.T, st tenderbase.Store, kinds []tenderbase.Kind, after int64, size int) ([]string, int64) {
	t.Helper()
	feed := st.(tenderbase.ChangeFeed)
	var lines []string
	for range 100 {
		p, err := feed.Changes(t.Context(), tenderbase.FeedQuery{Kinds: kinds, After: after, Limit: size})
		if err != nil {
			t.Fatal(err)
		}
		if len(p.Entries) > size {
			t.Fatalf("a page of %d holds %d entries", size, len(p.Entries))
		}
		for _, e := range p.Entries {
			if e.Seq <= after {
				t.Fatalf("entry %d after %d", e.Seq, after)
			}
			if e.At.IsZero() {
				t.Errorf("entry %d has no time", e.Seq)
			}
			lines = append(lines, feedLine(e))
			after = e.Seq
		}
		if p.Last != after {
			t.Fatalf("page ends at %d, its last entry is %d", p.Last, after)
		}
		if !p.More {
			return lines, after
		}
	}
	t.Fatal("the feed never ends")
	return nil, 0
}

// testFeed checks the feed of changes: each change of each write once, in
// the order of the writes, across pages and across a store opened anew on
// the same data, and nothing for a write that changes nothing.
func testFeed(t *testing.T, open Open) {
	first, again := open(t)
	st := closing(t, first)
	if _, ok := st.(tenderbase.ChangeFeed); !ok {
		t.Skipf("%T keeps no feed of changes", st)
	}
	ru := tenderbase.FeedResources["ru"]
	fas := tenderbase.FeedResources["fas"]

	a := tender("0373200041524000001", tenderbase.Law44, 77, 1, "Поставка бумаги", polyclinic())
	b := tender("0373200041524000002", tenderbase.Law44, 77, 2, "Поставка картриджей", polyclinic())
	b.ApplicationsDeadline = day(20)
	put(t, st, a, b)

	a2 := *a
	a2.Version, a2.Title = 2, "Поставка бумаги офисной"
	won := &tenderbase.Protocol{ID: "feed-p1", PurchaseNumber: b.PurchaseNumber, Number: "1", PublishedAt: day(3),
		Participants: []tenderbase.Participant{{Party: tenderbase.Party{INN: "7701234567"}, Winner: true}}}
	put(t, st, &a2, won)

	// Nothing changes: the same version again, and an older one.
	if res := put(t, st, &a2, a); res.Changed() {
		t.Fatalf("a write of nothing new changed %+v", res)
	}

	undo := &tenderbase.Withdrawal{ID: "feed-w1", TargetKind: tenderbase.KindProtocol, TargetKey: won.ID, PublishedAt: day(4)}
	complaint := &tenderbase.Complaint{ComplaintNumber: "202500100099", ComplaintID: "3199999", VersionNumber: 1,
		PurchaseNumber: b.PurchaseNumber, Text: "Жалоба на действия комиссии", DatePubl: day(5)}
	put(t, st, undo, complaint)

	want := []string{
		"new tender 0373200041524000001 r1",
		"new tender 0373200041524000002 r1",
		"version tender 0373200041524000001 r2",
		"new protocol feed-p1",
		"state tender 0373200041524000002 completed until 2024-01-21",
		"withdrawn protocol feed-p1",
		"state tender 0373200041524000002 active until 2024-01-21",
	}
	for _, size := range []int{1, 2, 3, tenderbase.MaxFeedPage} {
		got, _ := readFeed(t, st, ru, 0, size)
		if diff := gocmp.Diff(want, got); diff != "" {
			t.Errorf("the feed of ru, pages of %d (-want +got):\n%s", size, diff)
		}
	}
	if got, _ := readFeed(t, st, fas, 0, 10); !gocmp.Equal(got, []string{"new complaint 202500100099 r1"}) {
		t.Errorf("the feed of fas: %q", got)
	}

	// A reader that stopped half-way goes on from where it stopped, in a
	// store opened anew, and then sees only what was written since.
	_, half := readFeed(t, st, ru, 0, tenderbase.MaxFeedPage)
	head, _ := readFeed(t, st, ru, 0, 3)
	reopened := closing(t, again(t))
	p, err := reopened.(tenderbase.ChangeFeed).Changes(t.Context(), tenderbase.FeedQuery{Kinds: ru, Limit: 3})
	if err != nil {
		t.Fatal(err)
	}
	rest, end := readFeed(t, reopened, ru, p.Last, 2)
	if diff := gocmp.Diff(want, append(head[:3:3], rest...)); diff != "" {
		t.Errorf("the feed read on after a new open (-want +got):\n%s", diff)
	}
	if end != half {
		t.Errorf("the feed ends at %d read at once, %d read in two", half, end)
	}
	c := *b
	c.Version, c.ApplicationsDeadline = 2, day(25)
	put(t, reopened, &c)
	since, _ := readFeed(t, st, ru, end, 10)
	if diff := gocmp.Diff([]string{"version tender 0373200041524000002 r2", "state tender 0373200041524000002 active until 2024-01-26"}, since); diff != "" {
		t.Errorf("the feed since its end, after a write by the other store (-want +got):\n%s", diff)
	}

	// A world tender is won when it is stored with awards that name its
	// winners: an award notice stored new, or a process stored anew with
	// its awards; once, whatever comes after.
	world := tenderbase.FeedResources["world"]
	_, worldEnd := readFeed(t, st, world, 0, 10)
	notice := &tenderbase.WorldTender{ID: "ocds:feed-1", Source: "ocds", Title: "Schulverpflegung", PublishedAt: day(1), Updated: day(1)}
	awarded := *notice
	awarded.Updated = day(9)
	awarded.Awards = []tenderbase.WorldAward{{Awarded: true, Winners: []tenderbase.WorldWinner{{Name: "Frischküche GmbH", ID: "DE811128135"}}}}
	later := awarded
	later.Updated, later.Title = day(12), "Schulverpflegung, Lose 1-2"
	unawarded := &tenderbase.WorldTender{ID: "ted:feed-2", Source: "ted", Title: "Reinigung", PublishedAt: day(2),
		Awards: []tenderbase.WorldAward{{Awarded: false, Status: "PROCUREMENT_UNSUCCESSFUL"}}}
	put(t, st, notice, unawarded)
	put(t, st, &awarded)
	put(t, st, &later)
	worldFeed, _ := readFeed(t, st, world, worldEnd, 10)
	if diff := gocmp.Diff([]string{
		"new world_tender ocds:feed-1", "new world_tender ted:feed-2",
		"version world_tender ocds:feed-1", "state world_tender ocds:feed-1 completed",
		"version world_tender ocds:feed-1",
	}, worldFeed); diff != "" {
		t.Errorf("the feed of world (-want +got):\n%s", diff)
	}

	feed := st.(tenderbase.ChangeFeed)
	for name, q := range map[string]tenderbase.FeedQuery{
		"no kind":      {Limit: 10},
		"unknown kind": {Kinds: []tenderbase.Kind{"ship"}, Limit: 10},
		"no limit":     {Kinds: ru},
		"over limit":   {Kinds: ru, Limit: tenderbase.MaxFeedPage + 1},
		"negative":     {Kinds: ru, After: -1, Limit: 10},
	} {
		if _, err := feed.Changes(t.Context(), q); tenderbase.ErrorCode(err) != tenderbase.EINVALID {
			t.Errorf("%s: %v, want EINVALID", name, err)
		}
	}
}
