package fedresurs

import (
	"testing"

	"github.com/tenderbase/tenderbase/internal/harvest"
	"github.com/tenderbase/tenderbase/internal/harvest/harvesttest"
)

// suite is the fedresurs (EFRSB) service to the fault suite: a day of the
// messages of one auction in three pages and a platform's invitation, and
// the next day's cancellation; the wire's faults fall on the first day's
// second page, and the next day's messages fail every day.
var suite = harvesttest.Suite{
	Decoders: decoders,
	Now:      day.AddDate(0, 0, 3),
	Scope:    harvest.Scope{Since: day, Until: day.AddDate(0, 0, 2)},
	Serve: func(t *testing.T) (*harvesttest.Faults, string) {
		s := dayOfMessages(t)
		return s.Faults(), s.URL()
	},
	Source: func(address string) harvest.Source {
		return New(Config{BaseURL: address, Login: login, Password: password, PageSize: pageSize, Fetch: quick}, nil)
	},
	Answer:        "messages/2026-11-20/2",
	Cut:           `{"total": 7, "pageData": [`,
	Corrupt:       cutJSON,
	Failing:       "messages/2026-11-21/",
	FailingAnswer: cutJSON,
	Holds:         []string{"efrsb-1009999"}, // the next day's cancellation
}

func TestFaultSuite(t *testing.T) { suite.Faults(t) }

func TestKills(t *testing.T) { suite.Kills(t, "TestKillsChild") }

// TestKillsChild is the sync that TestKills runs in a process of its own,
// and kills.
func TestKillsChild(t *testing.T) { suite.Child(t) }
