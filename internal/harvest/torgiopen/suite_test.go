package torgiopen

import (
	"io"
	"net/http"
	"testing"

	"github.com/tenderbase/tenderbase/internal/harvest"
	"github.com/tenderbase/tenderbase/internal/harvest/harvesttest"
	"github.com/tenderbase/tenderbase/internal/harvest/torgiopen/torgitest"
)

// dayBefore is the first of the suite's two days.
var dayBefore = theDay.AddDate(0, 0, -1)

// suite is torgi.gov.ru's open data to the fault suite: two days, the
// first one's notice alone, the second's two; the wire's faults fall on
// the second day's list, and the first day fails every day.
var suite = harvesttest.Suite{
	Decoders: decoders,
	Now:      noon,
	Scope:    harvest.Scope{Since: dayBefore, Until: theDay.AddDate(0, 0, 1)},
	Serve: func(t *testing.T) (*harvesttest.Faults, string) {
		s := torgitest.New(t)
		published(t, s, dayBefore, notice1)
		published(t, s, theDay, notice2, notice3)
		return s.Faults(), s.URL()
	},
	Source:  func(address string) harvest.Source { return New(Config{DataSet: address, Fetch: quick}, nil) },
	Answer:  torgitest.ListFile(theDay),
	Cut:     `{"listObjects": [{"documentType": "notice"`,
	Corrupt: page,
	Failing: torgitest.ListFile(dayBefore),
	FailingAnswer: func(w http.ResponseWriter, _ *http.Request) {
		io.WriteString(w, `{"listObjects": [{"documentType": "notice", "regNum"`)
	},
	Holds: []string{notice1},
}

func TestFaultSuite(t *testing.T) { suite.Faults(t) }

func TestKills(t *testing.T) { suite.Kills(t, "TestKillsChild") }

// TestKillsChild is the sync that TestKills runs in a process of its own,
// and kills.
func TestKillsChild(t *testing.T) { suite.Child(t) }
