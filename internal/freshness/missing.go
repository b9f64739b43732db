package freshness

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/tenderbase/tenderbase/internal/harvest"
)

// group is partitions set aside that a report names in one line.
type group struct {
	key    string
	asides []harvest.Aside
}

// missing names the partitions set aside in at most groupsShown lines, the
// largest groups first, and returns how many partitions those lines hold.
// A partition's name is a path ("77/PRIZ/epNotificationEF2020/2026-11-20":
// region, type, day), so partitions group by what comes before their last
// part, a day or a number; where those are still too many, by their first
// part (a region, a type of document) or by the rest but their first (a
// type in every region), whichever makes fewer lines.
func (cfg Config) missing(asides []harvest.Aside) ([]string, int64) {
	if len(asides) == 0 {
		return nil, 0
	}
	groups := groupBy(asides, func(p []string) string { return strings.Join(p, "/") })
	if len(groups) > groupsShown {
		groups = groupBy(asides, func(p []string) string { return strings.Join(p[:len(p)-1], "/") })
	}
	if len(groups) > groupsShown {
		first := groupBy(asides, func(p []string) string { return wildcard(p[:1], len(p) > 2) })
		rest := groupBy(asides, func(p []string) string { return wildcard(p[1:len(p)-1], false) })
		groups = slices.MinFunc([][]group{first, rest}, func(a, b []group) int { return cmp.Compare(len(a), len(b)) })
	}
	slices.SortStableFunc(groups, func(a, b group) int { return cmp.Compare(len(b.asides), len(a.asides)) })
	var lines []string
	var shown int64
	for _, g := range groups[:min(len(groups), groupsShown)] {
		lines = append(lines, cfg.groupLine(g))
		shown += int64(len(g.asides))
	}
	return lines, shown
}

// groupBy groups asides by the key of their names' parts, in the order of
// the keys.
func groupBy(asides []harvest.Aside, key func(parts []string) string) []group {
	by := map[string][]harvest.Aside{}
	for _, a := range asides {
		k := key(strings.Split(a.Partition, "/"))
		by[k] = append(by[k], a)
	}
	var groups []group
	for _, k := range slices.Sorted(maps.Keys(by)) {
		groups = append(groups, group{key: k, asides: by[k]})
	}
	return groups
}

// wildcard joins parts into a group's key, standing "*" for the parts left
// out: before them when before, else after.
func wildcard(parts []string, after bool) string {
	k := strings.Join(parts, "/")
	if after {
		return k + "/*"
	}
	if k == "" {
		return ""
	}
	return "*/" + k
}

// groupLine names a group: its key, how many partitions and which (the
// range of their last parts), since when they fail, and the last error.
func (cfg Config) groupLine(g group) string {
	last, since := g.asides[0], g.asides[0].Since
	lo, hi := lastPart(g.asides[0].Partition), lastPart(g.asides[0].Partition)
	for _, a := range g.asides[1:] {
		// The last failure's error, as the sync log's count names it.
		if a.Last.After(last.Last) || (a.Last.Equal(last.Last) && a.Partition > last.Partition) {
			last = a
		}
		if a.Since.Before(since) {
			since = a.Since
		}
		lo, hi = min(lo, lastPart(a.Partition)), max(hi, lastPart(a.Partition))
	}
	var b strings.Builder
	switch {
	case len(g.asides) == 1:
		fmt.Fprintf(&b, "%s: %s", last.Partition, plural(last.Tries, "try", "tries"))
	case g.key == "":
		fmt.Fprintf(&b, "%d partitions %s", len(g.asides), span(lo, hi))
	default:
		fmt.Fprintf(&b, "%s: %d partitions %s", g.key, len(g.asides), span(lo, hi))
	}
	fmt.Fprintf(&b, ", failing since %s: %s", day(since), cfg.shown(last.Error))
	return b.String()
}

// span writes the range of the last parts of a group's names.
func span(lo, hi string) string {
	if lo == hi {
		return lo
	}
	return lo + ".." + hi
}

func lastPart(name string) string { return name[strings.LastIndex(name, "/")+1:] }

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
