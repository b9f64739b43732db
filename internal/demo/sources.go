package demo

import (
	"embed"
	"fmt"
	"io/fs"
	"path"

	"github.com/tenderbase/tenderbase"
)

// File is one source file the demo writes: its path and content.
type File struct {
	Name string
	Data []byte
}

// format is one official format the demo writes some of its records in, so
// that they come into the store through that format's importer as real data
// does. born tells the records it writes; write turns them into files, named
// under dir.
type format struct {
	dir   string
	born  func(tenderbase.Record) bool
	write func([]tenderbase.Record) ([]File, error)
}

// formats lists the formats the demo is written in. A record no source is
// born of is loaded from demo.ndjson as it is.
var formats = []format{
	{dir: "eis", born: EISBorn, write: WriteEIS},
	{dir: "fedresurs", born: FedresursBorn, write: WriteFedresurs},
	{dir: "torgi", born: TorgiBorn, write: WriteTorgi},
	{dir: "ted", born: TEDBorn, write: WriteTED},
	{dir: "eforms", born: EFormsBorn, write: WriteEForms},
	{dir: "ocds", born: OCDSBorn, write: WriteOCDS},
	{dir: "egrul", born: EGRULBorn, write: WriteEGRUL},
	{dir: "rsmp", born: RSMPBorn, write: WriteRSMP},
}

// sourceFiles are the files the generator wrote; a test keeps them in step.
//
//go:embed sources
var sourceFiles embed.FS

// Sources returns every source file of the demo, under one folder per
// format (eis/, ted/, ...), for the importer to read.
func Sources() fs.FS {
	sub, err := fs.Sub(sourceFiles, "sources")
	if err != nil {
		panic(err) // the directory is embedded above
	}
	return sub
}

// SourceBorn reports whether r comes into the demo through a source file
// rather than from demo.ndjson.
func SourceBorn(r tenderbase.Record) bool {
	for _, s := range formats {
		if s.born(r) {
			return true
		}
	}
	return false
}

// WriteSources returns the source files of every format for recs, each
// named under its format's folder.
func WriteSources(recs []tenderbase.Record) ([]File, error) {
	var all []File
	for _, s := range formats {
		files, err := s.write(recs)
		if err != nil {
			return nil, fmt.Errorf("demo %s files: %w", s.dir, err)
		}
		for _, f := range files {
			f.Name = path.Join(s.dir, f.Name)
			all = append(all, f)
		}
	}
	return all, nil
}
