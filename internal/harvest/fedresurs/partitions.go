package fedresurs

import (
	"slices"
	"strings"
	"time"
)

// moscow is the zone of the service's times, which carry none: a day of
// publication is a day there.
var moscow = time.FixedZone("MSK", 3*60*60)

// timeLayout is how the service takes a time: without a zone, in Moscow.
const timeLayout = "2006-01-02T15:04:05"

// Feed is a list of the service's messages and the types asked of it.
type Feed struct {
	Name  string   // the path under /v1/: "messages", "trade-messages"
	Types []string // sent as type, comma-separated: other types are not downloaded
}

// DefaultFeeds are the lists and types fetched unless others are given:
// the types internal/source/efrsb reads, under the codes the service
// gives them. The arbitration managers' messages are in /v1/messages; the
// trading platforms' in /v1/trade-messages, of which the importer reads
// BiddingInvitation. The importer also reads TradeResult2, which no public
// list of the service's codes names, so it is not asked for: an unknown
// code is refused (error 1001).
var DefaultFeeds = []Feed{
	{Name: "messages", Types: []string{"Auction", "Auction2", "ChangeAuction", "ChangeAuction2", "TradeResult", "CancelAuctionTradeResult", "Annul"}},
	{Name: "trade-messages", Types: []string{"BiddingInvitation"}},
}

// partition is one feed's messages of one Moscow day: the whole day once
// it ended, or today up to the end of the run's scope.
type partition struct {
	feed       Feed
	begin, end time.Time // the period asked for, in Moscow
	whole      bool      // the day ended: it is completed with a checkpoint
}

// name is the partition's name in the sync log: "messages/2026-11-20".
func (p partition) name() string { return p.feed.Name + "/" + p.begin.Format(time.DateOnly) }

// partitions returns the walk of a run: each day from since's, oldest
// first, and in each every feed. A day is asked from its midnight to the
// next, never more (the service takes at most 31 days, error 1010); the
// day until falls in is asked up to until, and not completed.
func partitions(feeds []Feed, since, until time.Time) []partition {
	until = until.In(moscow).Truncate(time.Second)
	var parts []partition
	for day := midnight(since.In(moscow)); day.Before(until); day = day.AddDate(0, 0, 1) {
		next := day.AddDate(0, 0, 1)
		for _, f := range feeds {
			parts = append(parts, partition{feed: f, begin: day, end: minTime(next, until), whole: !until.Before(next)})
		}
	}
	return parts
}

// parsePartition reads a partition's name back, for one set aside by an
// earlier run: false unless it names one of feeds and a day that ended
// before until.
func parsePartition(feeds []Feed, name string, until time.Time) (partition, bool) {
	feed, date, _ := strings.Cut(name, "/")
	i := slices.IndexFunc(feeds, func(f Feed) bool { return f.Name == feed })
	day, err := time.ParseInLocation(time.DateOnly, date, moscow)
	if i < 0 || err != nil || day.AddDate(0, 0, 1).After(until) {
		return partition{}, false
	}
	return partition{feed: feeds[i], begin: day, end: day.AddDate(0, 0, 1), whole: true}, true
}

func midnight(t time.Time) time.Time {
	y, m, d := t.Date()
	return time.Date(y, m, d, 0, 0, 0, 0, t.Location())
}

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}
