package eisdocs

import (
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/tenderbase/tenderbase/internal/harvest"
	"github.com/tenderbase/tenderbase/internal/harvest/eisdocs/eistest"
	"github.com/tenderbase/tenderbase/internal/harvest/harvesttest"
	"github.com/tenderbase/tenderbase/internal/importer"
	"github.com/tenderbase/tenderbase/internal/source/eis"
)

// suite is the EIS document service to the fault suite: a day of three
// regions' documents (dayOfDocuments); the wire's faults fall on the
// SOAP request of Buryatia's (03) partition, the archive's on the first
// archive of Kalmykia's (08) notices, and Moscow's complaints fail every
// day.
var suite = harvesttest.Suite{
	Decoders: []importer.Decoder{eis.Format{}},
	Now:      day.Add(36 * time.Hour),
	Scope:    scope,
	Serve: func(t *testing.T) (*harvesttest.Faults, string) {
		s := dayOfDocuments(t)
		return s.Faults(), s.URL()
	},
	Source: func(address string) harvest.Source {
		return New(Config{Endpoint: address, Token: "good-token", Types: testTypes, Fetch: quick, BlockedWait: time.Millisecond}, nil)
	},
	Answer:         "/soap/03/PRIZ/epNotificationEZK2020/2026-11-20",
	Cut:            `<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>`,
	Corrupt:        garbled,
	Archive:        "/archive/" + eistest.ArchiveID("08/PRIZ/epNotificationEOK2020/2026-11-20", 0),
	CorruptArchive: notWholeZip,
	Blocked:        eistest.Blocked,
	Failing:        "/soap/77/RJ/complaint/2026-11-20",
	FailingAnswer:  garbled,
	Holds:          []string{"complaint/202400114801003"},
}

// notWholeZip answers an archive with its first bytes only, whole as
// HTTP: a ZIP archive without its directory.
func notWholeZip(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/zip")
	io.WriteString(w, "PK\x03\x04\x14\x00\x00\x00\x08\x00")
}

func TestFaultSuite(t *testing.T) { suite.Faults(t) }

func TestKills(t *testing.T) { suite.Kills(t, "TestKillsChild") }

// TestKillsChild is the sync that TestKills runs in a process of its own,
// and kills.
func TestKillsChild(t *testing.T) { suite.Child(t) }
