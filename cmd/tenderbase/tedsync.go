package main

import (
	"flag"
	"fmt"
	"time"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/harvest"
	tedsync "github.com/tenderbase/tenderbase/internal/harvest/ted"
)

// tedFlags adds the flags of the TED source to fs; the error is of an
// environment variable that does not parse. TED is off in a sync that
// names no sources until its first day is given: a sync set up for the
// Russian sources does not start fetching every notice of the EU.
func (c *cli) tedFlags(fs *flag.FlagSet, sc *syncConfig) error {
	fs.StringVar(&sc.TED.Search, "ted-url", tedsync.DefaultSearch, "`URL` of TED's notice search (API v3)")
	fs.Func("ted-since", "turn TED on: fetch its notices published from `DATE` (YYYY-MM-DD, UTC) on, in eForms and TED XML; "+
		"a sync that names no --sources leaves TED out without it (env TENDERBASE_TED_SINCE)", sc.setTEDStart)
	if env := c.getenv("TENDERBASE_TED_SINCE"); env != "" {
		if err := sc.setTEDStart(env); err != nil {
			return fmt.Errorf("TENDERBASE_TED_SINCE: %w", err)
		}
	}
	return nil
}

func (sc *syncConfig) setTEDStart(s string) error {
	day, err := time.Parse(time.DateOnly, s)
	if err != nil {
		return tenderbase.Errorf(tenderbase.EINVALID, "%q: want a date such as 2024-01-01", s)
	}
	sc.TED.Start = day
	return nil
}

// off reports whether src is left out of a sync that names no sources:
// TED, until its first day is given.
func (sc syncConfig) off(src harvest.Source) bool {
	return src.Name() == "ted" && sc.TED.Start.IsZero()
}
