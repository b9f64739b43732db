package ted

import (
	"testing"

	"github.com/tenderbase/tenderbase/internal/harvest"
	"github.com/tenderbase/tenderbase/internal/harvest/harvesttest"
	"github.com/tenderbase/tenderbase/internal/harvest/ted/tedtest"
)

// dayBefore is the first of the suite's two days.
var dayBefore = theDay.AddDate(0, 0, -1)

// suite is TED to the fault suite: two days, the first one's notice
// alone, the second's three; the wire's faults fall on the second day's
// search, and the first day's search fails every day.
var suite = harvesttest.Suite{
	Decoders: decoders,
	Now:      noon,
	Scope:    harvest.Scope{Since: dayBefore, Until: theDay.AddDate(0, 0, 1)},
	Serve: func(t *testing.T) (*harvesttest.Faults, string) {
		s := tedtest.New(t)
		publish(t, s, dayBefore, eformsCN)
		publish(t, s, theDay, tedCN, eformsCAN, tedCAN)
		return s.Faults(), s.URL()
	},
	Source: func(address string) harvest.Source {
		return New(Config{Search: address, PageSize: 3, Fetch: quick}, nil)
	},
	Answer:        "search/" + theDay.Format("20060102"),
	Cut:           `{"notices": [{"publication-number": "`,
	Corrupt:       page,
	Failing:       "search/" + dayBefore.Format("20060102"),
	FailingAnswer: page,
	Holds:         []string{eformsCN.key},
}

func TestFaultSuite(t *testing.T) { suite.Faults(t) }

func TestKills(t *testing.T) { suite.Kills(t, "TestKillsChild") }

// TestKillsChild is the sync that TestKills runs in a process of its own,
// and kills.
func TestKillsChild(t *testing.T) { suite.Child(t) }
