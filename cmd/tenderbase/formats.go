package main

import (
	"github.com/tenderbase/tenderbase/internal/importer"
	"github.com/tenderbase/tenderbase/internal/source/eforms"
	"github.com/tenderbase/tenderbase/internal/source/efrsb"
	"github.com/tenderbase/tenderbase/internal/source/egrul"
	"github.com/tenderbase/tenderbase/internal/source/eis"
	"github.com/tenderbase/tenderbase/internal/source/ndjson"
	"github.com/tenderbase/tenderbase/internal/source/ocds"
	"github.com/tenderbase/tenderbase/internal/source/rsmp"
	"github.com/tenderbase/tenderbase/internal/source/ted"
	"github.com/tenderbase/tenderbase/internal/source/torgi"
)

// formats are the source formats `tenderbase import` and the demo read, in
// the order they are tried on a file: a new source is one package under
// internal/source and one line here. A format whose detection is narrower
// comes before a broader one that could mistake its files.
func formats() []importer.Decoder {
	return []importer.Decoder{
		ndjson.Format{},
		eis.Format{},
		egrul.Format{},
		rsmp.Format{},
		ted.Format{},
		eforms.Format{},
		torgi.Format{},
		efrsb.Format{},
		ocds.Format{},
	}
}
