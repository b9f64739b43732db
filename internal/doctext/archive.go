package doctext

import (
	"archive/zip"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
	"strings"
	"unicode/utf8"

	// github.com/bodgit/sevenzip is the 7z reader of Go: pure Go, kept up,
	// it reads every method 7-Zip writes (LZMA, LZMA2, PPMd, BCJ2, Deflate,
	// Brotli, Zstandard...) and solid archives, from an io.ReaderAt.
	"github.com/bodgit/sevenzip"
	// github.com/nwaples/rardecode/v2 is the RAR reader of Go, pure Go and
	// kept up: RAR 1.5 to 7 with their compression methods, and solid
	// archives read in one pass. No other reader is pure Go; writing RAR
	// takes RARLAB's own program, which is not free software.
	"github.com/nwaples/rardecode/v2"
	"golang.org/x/text/encoding/charmap"
)

// maxRARDictionary bounds the window a RAR member may ask to be unpacked
// with, which the reader allocates: RAR 7 allows windows of gigabytes.
const maxRARDictionary = 256 << 20

// zipArchive reads the members of a zip archive.
func (e *extraction) zipArchive(f file, zr *zip.Reader) error {
	start := len(e.members)
	return e.archiveResult(Zip, start, e.zipMembers(f, zr))
}

func (e *extraction) zipMembers(f file, zr *zip.Reader) error {
	for _, zf := range zr.File {
		// macOS adds to the archives it writes a folder of resource forks,
		// named as the documents are, which are none.
		if zf.FileInfo().IsDir() || strings.HasPrefix(zf.Name, "__MACOSX/") {
			continue
		}
		var err error
		if zf.Flags&0x1 != 0 {
			err = e.skip(f, zipName(zf), "password-protected")
		} else {
			err = e.member(f, zipName(zf), int64(min(zf.UncompressedSize64, 1<<62)), zf.Open)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// zipName returns the name of a zip member in UTF-8. Zip knows two
// encodings of names: UTF-8, flagged so, and the DOS code page of the
// writer's machine, which in Russia is 866, and which Windows' own
// compressor still writes. Info-ZIP adds a UTF-8 copy of the name in an
// extra field.
func zipName(zf *zip.File) string {
	if name, ok := unicodePath(zf); ok {
		return name
	}
	return oemName(zf.Name)
}

// unicodePath returns the name in Info-ZIP's Unicode Path extra field, if
// the member has one for its present name.
func unicodePath(zf *zip.File) (string, bool) {
	extra := zf.Extra
	for len(extra) >= 4 {
		tag, size := binary.LittleEndian.Uint16(extra), int(binary.LittleEndian.Uint16(extra[2:]))
		if size > len(extra)-4 {
			return "", false
		}
		field := extra[4 : 4+size]
		extra = extra[4+size:]
		if tag == 0x7075 && size > 5 && field[0] == 1 &&
			binary.LittleEndian.Uint32(field[1:]) == crc32.ChecksumIEEE([]byte(zf.Name)) && utf8.Valid(field[5:]) {
			return string(field[5:]), true
		}
	}
	return "", false
}

// oemName returns a name that is not valid UTF-8 read as code page 866.
func oemName(name string) string {
	if utf8.ValidString(name) {
		return name
	}
	s, _ := charmap.CodePage866.NewDecoder().String(name)
	return s
}

// rar reads the members of a RAR archive, in one pass as solid archives
// require.
func (e *extraction) rar(f file) error {
	rr, err := rardecode.NewReader(io.NewSectionReader(f.r, 0, f.size), rardecode.MaxDictionarySize(maxRARDictionary))
	if err != nil {
		return rarError(err)
	}
	start := len(e.members)
	return e.archiveResult(RAR, start, e.rarMembers(f, rr))
}

func (e *extraction) rarMembers(f file, rr *rardecode.Reader) error {
	last := ""
	for {
		h, err := rr.Next()
		switch {
		case errors.Is(err, io.EOF):
			return nil
		case err != nil && last == "":
			return rarError(err)
		case err != nil:
			e.incomplete = "the RAR archive is damaged after its member " + last + "; the rest was not read"
			return errStop
		case h.IsDir:
			continue
		}
		last = oemName(h.Name)
		switch {
		case h.Encrypted:
			err = e.skip(f, last, "password-protected")
		default:
			size := h.UnPackedSize
			if h.UnKnownSize {
				size = 0
			}
			err = e.member(f, last, size, func() (io.ReadCloser, error) { return io.NopCloser(rr), nil })
		}
		if err != nil {
			return err
		}
	}
}

// rarError is the error of a RAR archive that cannot be opened.
func rarError(err error) error {
	switch {
	case errors.Is(err, rardecode.ErrArchiveEncrypted), errors.Is(err, rardecode.ErrArchivedFileEncrypted):
		return invalid("a password-protected RAR archive is not read")
	case errors.Is(err, rardecode.ErrMultiVolume):
		return invalid("a multi-volume RAR archive is not read")
	}
	return damaged(RAR, err)
}

// sevenZip reads the members of a 7z archive.
func (e *extraction) sevenZip(f file) error {
	z, err := sevenzip.NewReader(f.r, f.size)
	if err != nil {
		var re sevenzip.ReadError
		if errors.As(err, &re) && re.Encrypted {
			return invalid("a password-protected 7z archive is not read")
		}
		return damaged(SevenZip, err)
	}
	start := len(e.members)
	return e.archiveResult(SevenZip, start, e.sevenZipMembers(f, z))
}

func (e *extraction) sevenZipMembers(f file, z *sevenzip.Reader) error {
	for _, zf := range z.File {
		if zf.FileInfo().IsDir() {
			continue
		}
		if err := e.member(f, zf.Name, int64(min(zf.UncompressedSize, 1<<62)), zf.Open); err != nil {
			return err
		}
	}
	return nil
}
