package rsmp

import (
	"net/http"
	"testing"

	"github.com/tenderbase/tenderbase/internal/harvest"
	"github.com/tenderbase/tenderbase/internal/harvest/harvesttest"
	"github.com/tenderbase/tenderbase/internal/harvest/rsmp/rsmptest"
)

// july is the file of the newest release the service publishes, the one
// a run loads.
var july = rsmptest.File(day(2026, 7, 10), structure)

// suite is the SME register to the fault suite: the releases of May, June
// and July; the wire's faults fall on the passport's meta.csv, the
// archive's on July's release, which fails every day in the last case.
var suite = harvesttest.Suite{
	Decoders: decoders,
	Now:      noon,
	Scope:    scope,
	Serve: func(t *testing.T) (*harvesttest.Faults, string) {
		s, _ := published(t)
		return s.Faults(), s.URL()
	},
	Source: func(address string) harvest.Source {
		return New(Config{Passport: address, Fetch: quick, DownloadTimeout: downloadTimeout}, nil)
	},
	Answer:         "meta.csv",
	Cut:            "property,value\r\nstandardversion,http://opendata.gosmonitor.ru/standard/3.0\r\n",
	Corrupt:        portalPage,
	Archive:        july,
	CorruptArchive: brokenJuly,
	Failing:        july,
	FailingAnswer:  brokenJuly,
	Holds:          []string{""}, // every subject: a release is the whole register
	Whole:          true,
}

// portalPage answers as the tax service's site does a file it has not:
// a page of the site, with 200.
func portalPage(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Write([]byte(`<!DOCTYPE html><html><head><title>ФНС России</title></head><body></body></html>`))
}

// brokenJuly answers July's release with its end cut off: a ZIP archive
// without its central directory.
func brokenJuly(w http.ResponseWriter, _ *http.Request) {
	zipped, err := releaseOf(day(2026, 7, 10), orgJuly)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Write(zipped[:len(zipped)-30])
}

func TestFaultSuite(t *testing.T) { suite.Faults(t) }

func TestKills(t *testing.T) { suite.Kills(t, "TestKillsChild") }

// TestKillsChild is the sync that TestKills runs in a process of its own,
// and kills.
func TestKillsChild(t *testing.T) { suite.Child(t) }
