package freshness

import (
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tenderbase/tenderbase/internal/harvest"
)

// TestMissing checks how the partitions set aside are named on one screen:
// each alone when they are few; by type and region with their days when
// one archive fails day after day; one type in every region as one line;
// the largest groups first, and the count of what the lines leave out.
func TestMissing(t *testing.T) {
	since := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	aside := func(name string, day int) harvest.Aside {
		at := since.AddDate(0, 0, day)
		return harvest.Aside{Partition: name, Error: "refused " + name, Since: at, Last: at.Add(time.Hour), Tries: day + 1}
	}
	days := func(prefix string, n int) []harvest.Aside {
		var out []harvest.Aside
		for d := range n {
			out = append(out, aside(fmt.Sprintf("%s/2026-11-%d", prefix, 20+d), d))
		}
		return out
	}
	var everyRegion []harvest.Aside
	for r := 1; r <= 30; r++ {
		everyRegion = append(everyRegion, aside(fmt.Sprintf("%02d/PRIZ/epNotificationEZT2020/2026-11-21", r), 1))
	}
	var oneRegion []harvest.Aside
	for _, typ := range []string{"PRIZ/epNotificationEF2020", "PRIZ/epNotificationEZK2020", "RGK/contract", "RJ/complaint", "RNP/unfairSupplier2022"} {
		oneRegion = append(oneRegion, days("77/"+typ, 2)...)
	}
	for _, tt := range []struct {
		name   string
		asides []harvest.Aside
		want   []string
		shown  int64
	}{
		{"few, each named", []harvest.Aside{aside("77/RGK/contract/2026-11-20", 0), aside("ted-day", 2)},
			[]string{"77/RGK/contract/2026-11-20: 1 try, failing since 2026-11-20: refused 77/RGK/contract/2026-11-20",
				"ted-day: 3 tries, failing since 2026-11-22: refused ted-day"}, 2},
		{"one archive day after day", append(days("77/RGK/contract", 6), aside("16/RJ/complaint/2026-11-25", 3)),
			[]string{"77/RGK/contract: 6 partitions 2026-11-20..2026-11-25, failing since 2026-11-20: refused 77/RGK/contract/2026-11-25",
				"16/RJ/complaint/2026-11-25: 4 tries, failing since 2026-11-23: refused 16/RJ/complaint/2026-11-25"}, 7},
		{"one type in every region", append(everyRegion, days("77/RGK/contract", 2)...),
			[]string{"*/PRIZ/epNotificationEZT2020: 30 partitions 2026-11-21, failing since 2026-11-21: refused 30/PRIZ/epNotificationEZT2020/2026-11-21",
				"*/RGK/contract: 2 partitions 2026-11-20..2026-11-21, failing since 2026-11-20: refused 77/RGK/contract/2026-11-21"}, 32},
		{"one region, every type", append(oneRegion, aside("16/RJ/complaint/2026-11-20", 0)),
			[]string{"77/*: 10 partitions 2026-11-20..2026-11-21, failing since 2026-11-20: refused 77/RNP/unfairSupplier2022/2026-11-21",
				"16/RJ/complaint/2026-11-20: 1 try, failing since 2026-11-20: refused 16/RJ/complaint/2026-11-20"}, 11},
		{"days of a source without regions", unsplit(days("x", 9)),
			[]string{"9 partitions 2026-11-20..2026-11-28, failing since 2026-11-20: refused 2026-11-28"}, 9},
		{"none", nil, nil, 0},
	} {
		got, shown := Config{}.missing(tt.asides)
		if diff := cmp.Diff(tt.want, got); diff != "" || shown != tt.shown {
			t.Errorf("%s: %d shown, want %d (-want +got):\n%s", tt.name, shown, tt.shown, diff)
		}
	}
}

// unsplit names the partitions by their last part alone, as the days of
// the torgi open data and of TED are named.
func unsplit(asides []harvest.Aside) []harvest.Aside {
	for i := range asides {
		asides[i].Partition = lastPart(asides[i].Partition)
		asides[i].Error = "refused " + asides[i].Partition
	}
	return asides
}
