package torgicards

import (
	"testing"
	"time"

	"github.com/tenderbase/tenderbase/internal/harvest"
	"github.com/tenderbase/tenderbase/internal/harvest/harvesttest"
	"github.com/tenderbase/tenderbase/internal/harvest/torgicards/cardstest"
)

// suite is torgi.gov.ru's search of lot cards to the fault suite: the
// walks of two regions, Moscow's two pages (18 cards) and the Moscow
// region's one; the wire's faults fall on Moscow's second page, and the
// Moscow region's walk fails every day.
var suite = harvesttest.Suite{
	Decoders: decoders,
	Now:      noon,
	Scope:    harvest.Scope{Since: theDay, Until: noon, Regions: []int{77, 50}},
	Serve: func(t *testing.T) (*harvesttest.Faults, string) {
		s := cardstest.New(t)
		publish(t, s, theDay.Add(time.Hour), 9, 77)
		publish(t, s, theDay.Add(2*time.Hour), 2, 50)
		return s.Faults(), s.URL()
	},
	Source:        func(address string) harvest.Source { return New(Config{BaseURL: address, Fetch: quick}, nil) },
	Answer:        cardstest.Key(77, 1),
	Cut:           `{"content": [{"id": "`,
	Corrupt:       portal,
	Failing:       cardstest.Key(50, 0),
	FailingAnswer: portal,
	Holds:         []string{"lot/22050"}, // the lots of the Moscow region's notices
}

func TestFaultSuite(t *testing.T) { suite.Faults(t) }

func TestKills(t *testing.T) { suite.Kills(t, "TestKillsChild") }

// TestKillsChild is the sync that TestKills runs in a process of its own,
// and kills.
func TestKillsChild(t *testing.T) { suite.Child(t) }
