package eisdocs

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/tenderbase/tenderbase/internal/harvest"
)

// moscow is the zone the EIS publishes in; a day of documents is a day there.
var moscow = time.FixedZone("MSK", 3*60*60)

// Type is a kind of document the service gives: a subsystem and a type of
// document of that subsystem's law.
type Type struct {
	Subsystem string // "PRIZ", "RI223"
	Document  string // "epNotificationEF2020", "purchaseNotice"
}

// law223 reports whether the type is a 223-FZ one: its subsystem ends in 223.
func (t Type) law223() bool { return strings.HasSuffix(t.Subsystem, "223") }

// ParseType reads a type written SUBSYSTEM:documentType.
func ParseType(s string) (Type, error) {
	sub, doc, ok := strings.Cut(s, ":")
	if !ok || sub == "" || doc == "" || strings.ContainsAny(s, " /") {
		return Type{}, fmt.Errorf("EIS type %q: want SUBSYSTEM:documentType, such as PRIZ:epNotificationEF2020", s)
	}
	return Type{Subsystem: sub, Document: doc}, nil
}

func (t Type) String() string { return t.Subsystem + ":" + t.Document }

// DefaultTypes are the kinds of documents fetched unless others are given.
// The service takes a type of document as a free string from the EIS's
// reference list nsiDocumentTypes (223: nsiDocumentTypes223); these are the
// ones public clients were seen asking for, and the others this project's
// importer reads, under the name the EIS gives their files (the archives
// name their members <documentType>_<number>_...). docs/sync.md says which
// is which.
var DefaultTypes = []Type{
	{"PRIZ", "epNotificationEF2020"},
	{"PRIZ", "epNotificationEZK2020"},
	{"PRIZ", "epNotificationEOK2020"},
	{"PRIZ", "epNotificationOK2020"},
	{"PRIZ", "epNotificationEZT2020"},
	{"PRIZ", "epNotificationCancel"},
	{"PRIZ", "epProtocolEF2020SubmitOffers"},
	{"PRIZ", "epProtocolEF2020Final"},
	{"PRIZ", "epProtocolEZK2020Final"},
	{"PRIZ", "epProtocolEOK2020Final"},
	{"RGK", "contract"},
	{"RGK", "contractProcedure"},
	{"RJ", "complaint"},
	{"RJ", "complaintCancel"},
	{"RRK", "checkResult"},
	{"RNP", "unfairSupplier2022"},
	{"RNP", "unfairSupplier2022Exclude"},
	{"RI223", "purchaseNotice"},
	{"RI223", "purchaseNoticeAE"},
	{"RI223", "purchaseNoticeEP"},
	{"RI223", "purchaseNoticeOA"},
	{"RI223", "purchaseNoticeZK"},
	{"RI223", "purchaseProtocol"},
	{"RD223", "contract"},
}

// Regions are the codes of the subjects of the Russian Federation the
// service is asked for unless the scope names others: the 89 subjects and
// Baikonur (99).
var Regions = func() []int {
	var codes []int
	for c := 1; c <= 95; c++ {
		switch {
		case c >= 80 && c <= 88 && c != 83 && c != 86 && c != 87:
			continue // subjects merged into others
		}
		codes = append(codes, c)
	}
	return append(codes, 99)
}()

// hourLag is how far behind now the start of an hour asked for must be:
// the service answers an hour once its start is more than two hours past
// (getDocsIP-ws-api.xsd, oneHourInfo); one more is for the documents that
// come late into it.
const hourLag = 3 * time.Hour

// partition is one request of the walk.
type partition struct {
	docRequest
	typ Type
}

// name is the partition's name in the sync log:
// "77/PRIZ/epNotificationEF2020/2026-11-25", or with "T09" for an hour.
func (p partition) name() string {
	n := fmt.Sprintf("%s/%s/%s/%s", p.region, p.typ.Subsystem, p.typ.Document, p.day.Format(time.DateOnly))
	if p.hour >= 0 {
		n += fmt.Sprintf("T%02d", p.hour)
	}
	return n
}

// end is the moment up to which the partition holds the documents.
func (p partition) end() time.Time {
	if p.hour >= 0 {
		return p.day.Add(time.Duration(p.hour+1) * time.Hour)
	}
	return p.day.AddDate(0, 0, 1)
}

// parsePartition reads a partition's name back, for a partition set aside
// by an earlier run: false when it is not one of this source's types or of
// scope's regions.
func (s *Source) parsePartition(name string, scope harvest.Scope) (partition, bool) {
	f := strings.Split(name, "/")
	if len(f) != 4 {
		return partition{}, false
	}
	t := Type{Subsystem: f[1], Document: f[2]}
	region, err := strconv.Atoi(f[0])
	if err != nil || len(f[0]) != 2 || !scope.HasRegion(region) || !slices.Contains(s.cfg.Types, t) {
		return partition{}, false
	}
	date, hour := f[3], -1
	if d, h, ok := strings.Cut(f[3], "T"); ok {
		if hour, err = strconv.Atoi(h); err != nil || len(h) != 2 || hour > 23 {
			return partition{}, false
		}
		date = d
	}
	day, err := time.ParseInLocation(time.DateOnly, date, moscow)
	if err != nil {
		return partition{}, false
	}
	p := partition{typ: t, docRequest: docRequest{region: f[0], subsystem: t.Subsystem, docType: t.Document,
		law223: t.law223(), day: day, hour: hour}}
	return p, p.name() == name
}

// partitions returns the walk of a run: for each day from Since, every
// region and type; days that ended are asked whole, today by the hours that
// the service answers already.
func (s *Source) partitions(job *harvest.Job) []partition {
	until := job.Until.In(moscow)
	today := midnight(until)
	var parts []partition
	for day := midnight(job.Since.In(moscow)); !day.After(today); day = day.AddDate(0, 0, 1) {
		hours := []int{-1}
		if day.Equal(today) {
			hours = nil
			for h := 0; h < 24 && !today.Add(time.Duration(h)*time.Hour+hourLag).After(until); h++ {
				hours = append(hours, h)
			}
		}
		for _, h := range hours {
			parts = append(parts, s.day(job.Scope, day, h)...)
		}
	}
	return parts
}

// day returns the partitions of one day, or of one hour of it.
func (s *Source) day(scope harvest.Scope, day time.Time, hour int) []partition {
	var parts []partition
	for _, r := range Regions {
		if !scope.HasRegion(r) {
			continue
		}
		for _, t := range s.cfg.Types {
			parts = append(parts, partition{typ: t, docRequest: docRequest{
				region: fmt.Sprintf("%02d", r), subsystem: t.Subsystem, docType: t.Document,
				law223: t.law223(), day: day, hour: hour,
			}})
		}
	}
	return parts
}

func midnight(t time.Time) time.Time {
	y, m, d := t.Date()
	return time.Date(y, m, d, 0, 0, 0, 0, t.Location())
}
