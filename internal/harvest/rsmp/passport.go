package rsmp

import (
	"bytes"
	"cmp"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"net/url"
	"path"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/tenderbase/tenderbase"
)

// archive is a release of the register the passport lists.
type archive struct {
	url  *url.URL
	file string    // data-10072026-structure-12052026.zip
	date time.Time // of the release, Moscow midnight: the register's state (ДатаСост)
}

// archiveName is the name of a release:
// data-<release>-structure-<structure>.zip, the dates of eight digits.
var archiveName = regexp.MustCompile(`^data-(\d{8})-structure-(\d{8})\.zip$`)

// parseArchive reads a release's address, or returns false for an address
// that names no release (the structure's XSD, another file).
func parseArchive(base *url.URL, href string) (archive, bool) {
	u, err := base.Parse(strings.TrimSpace(href))
	if err != nil {
		return archive{}, false
	}
	file := path.Base(u.Path)
	m := archiveName.FindStringSubmatch(file)
	if m == nil {
		return archive{}, false
	}
	date, ok := releaseDate(m[1])
	if !ok {
		return archive{}, false
	}
	return archive{url: u, file: file, date: date}, true
}

// releaseDate reads the eight digits of a release's date. The register's
// releases are named day first (data-10072026: 10 July 2026), as the
// passport's links and every public client show; the open-data standard
// and other sets of the tax service put the year first (data-20260710).
// The two never read as two valid dates of this century: a year first
// would put a day of 19, 20 or 21 in the month.
func releaseDate(digits string) (time.Time, bool) {
	for _, layout := range []string{"02012006", "20060102"} {
		t, err := time.ParseInLocation(layout, digits, tenderbase.Moscow)
		if err == nil && t.Year() >= 2000 && t.Year() < 2100 {
			return t, true
		}
	}
	return time.Time{}, false
}

// errNoArchive is a passport that lists no release: its shape changed.
var errNoArchive = errors.New("lists no data-<date>-structure-<date>.zip release")

// readMeta reads the passport's meta.csv, as the open-data standard 3.0
// lays it out: a header "property,value", then a row a property, a release
// of the data being a row "data-<date>-structure-<date>[.zip]" whose value
// is its address. It returns the releases, oldest first.
func readMeta(base *url.URL, body []byte) ([]archive, error) {
	r := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(body, []byte("\ufeff"))))
	r.FieldsPerRecord = -1
	r.LazyQuotes = true
	header, err := r.Read()
	if err != nil || len(header) < 2 || strings.TrimSpace(header[0]) != "property" {
		return nil, fmt.Errorf("meta.csv: not a passport (a header property,value): %v", cmpErr(err, header))
	}
	var found []archive
	for {
		row, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("meta.csv does not parse: %w", err)
		}
		if len(row) < 2 || !strings.HasPrefix(strings.TrimSpace(row[0]), "data-") {
			continue
		}
		if a, ok := parseArchive(base, row[1]); ok {
			found = append(found, a)
		}
	}
	return sorted(found, "meta.csv")
}

func cmpErr(err error, header []string) any {
	if err != nil {
		return err
	}
	return fmt.Sprintf("%q", header)
}

// link is an href of the passport's page.
var link = regexp.MustCompile(`href\s*=\s*["']([^"']+)["']`)

// readPage reads the releases the passport's web page links to: its table
// (class border_table) gives the current release in row 8 "Гиперссылка
// (URL) на набор" and the earlier ones in row 16 "Гиперссылки (URL) на
// предыдущие релизы набора данных". Every link on the page that names a
// release is taken, wherever the rows are.
func readPage(base *url.URL, body []byte) ([]archive, error) {
	var found []archive
	for _, m := range link.FindAllSubmatch(body, -1) {
		if a, ok := parseArchive(base, string(m[1])); ok {
			found = append(found, a)
		}
	}
	return sorted(found, "the passport's page")
}

// sorted returns the releases oldest first, each once.
func sorted(found []archive, where string) ([]archive, error) {
	if len(found) == 0 {
		return nil, fmt.Errorf("%s %w", where, errNoArchive)
	}
	slices.SortFunc(found, func(a, b archive) int {
		return cmp.Or(a.date.Compare(b.date), strings.Compare(a.file, b.file))
	})
	return slices.CompactFunc(found, func(a, b archive) bool { return a.file == b.file }), nil
}
