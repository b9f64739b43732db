package doctext

import (
	"encoding/binary"
	"errors"
	"io"
	"path"
	"strings"
	"unicode/utf16"

	"github.com/richardlehane/mscfb"
	"golang.org/x/text/encoding/charmap"
)

// Word 97-2003 documents are read by hand, on the compound file reader
// github.com/richardlehane/mscfb (kept up, and the reader of siegfried and
// excelize), following the published MS-DOC specification. The Go libraries
// that read .doc text are small, one-author projects without releases kept
// up, or bind antiword through cgo; and the text of a Word document is
// simple to take out: the File Information Block at the start of the
// WordDocument stream points into the table stream at the piece table, and
// the piece table says where each run of characters lies in the
// WordDocument stream, in 8-bit or in UTF-16 characters. Formatting, which
// is the rest of the format, is not needed for search.

// cfb reads an OLE compound file: a Word 97-2003 document, or else a file
// refused with a message naming what it is.
func (e *extraction) cfb(f file) (Format, error) {
	c, err := mscfb.New(f.r)
	if err != nil {
		if isWordName(f.name) {
			return DOC, invalid("damaged DOC: its compound file structure cannot be read (%v)", err)
		}
		return "", legacyOffice(f.name)
	}
	streams := map[string]*mscfb.File{}
	for _, s := range c.File {
		if len(s.Path) == 0 { // only the streams at the root are the document's own
			if _, seen := streams[s.Name]; !seen {
				streams[s.Name] = s
			}
		}
	}
	switch {
	case streams["EncryptedPackage"] != nil:
		return "", invalid("a password-protected Office document is not read")
	case streams["WordDocument"] != nil:
		return DOC, e.doc(streams)
	case streams["Workbook"] != nil || streams["Book"] != nil:
		return "", legacyOffice("workbook.xls")
	case streams["PowerPoint Document"] != nil:
		return "", invalid("a PowerPoint presentation is not read")
	}
	return "", legacyOffice(f.name)
}

// isWordName reports whether name has the extension of a Word 97-2003
// document or template.
func isWordName(name string) bool {
	ext := strings.ToLower(path.Ext(name))
	return ext == ".doc" || ext == ".dot"
}

// The places in the File Information Block (MS-DOC 2.5.1) that are read.
const (
	fibIdent       = 0xA5EC // wIdent of a Word document
	fibMinLen      = 0x20   // FibBase
	fibNFibWord97  = 0x00C1 // the nFib of Word 97 and after; earlier ones are Word 6 and 95
	fibFlagsAt     = 0x0A
	fibEncrypted   = 0x0100
	fibWhichTblStm = 0x0200
	fibObfuscated  = 0x8000
	fibClxIndex    = 33 // fcClx is the 34th pair of FibRgFcLcb97
)

// maxFieldDepth bounds the fields open at once; deeper ones are counted,
// not kept.
const maxFieldDepth = 256

// doc reads the text of a Word 97-2003 document from its streams.
func (e *extraction) doc(streams map[string]*mscfb.File) error {
	word, err := e.stream(streams["WordDocument"])
	if err != nil {
		return err
	}
	if len(word) < fibMinLen || binary.LittleEndian.Uint16(word) != fibIdent {
		return invalid("damaged DOC: the WordDocument stream does not begin with a Word file information block")
	}
	if nFib := binary.LittleEndian.Uint16(word[2:]); nFib < fibNFibWord97 {
		return invalid("a Word 6.0 or Word 95 document is not read: only Word 97-2003 documents (.doc) are; save it anew")
	}
	flags := binary.LittleEndian.Uint16(word[fibFlagsAt:])
	switch {
	case flags&fibEncrypted != 0 && flags&fibObfuscated != 0:
		return invalid("an obfuscated Word document is not read: it is locked with a password")
	case flags&fibEncrypted != 0:
		return invalid("a password-protected Word document is not read")
	}
	fcClx, lcbClx, err := clxPlace(word)
	if err != nil {
		return err
	}
	tableName := "0Table"
	if flags&fibWhichTblStm != 0 {
		tableName = "1Table"
	}
	if streams[tableName] == nil {
		return invalid("damaged DOC: it lacks its table stream %s", tableName)
	}
	table, err := e.stream(streams[tableName])
	if err != nil {
		return err
	}
	if uint64(fcClx)+uint64(lcbClx) > uint64(len(table)) {
		return invalid("damaged DOC: the piece table lies outside the table stream")
	}
	pieces, err := pieceTable(table[fcClx : fcClx+lcbClx])
	if err != nil {
		return err
	}
	w := &docText{e: e}
	for _, p := range pieces {
		if err := e.ctx.Err(); err != nil {
			return err
		}
		if err := w.piece(word, p); err != nil {
			return err
		}
	}
	return nil
}

// stream reads a whole stream of the compound file, within the limits.
func (e *extraction) stream(s *mscfb.File) ([]byte, error) {
	if s.Size > e.lim.MaxFileBytes {
		return nil, invalid("damaged DOC: its %s stream claims %s, more than the %s read", s.Name, megabytes(s.Size), megabytes(e.lim.MaxFileBytes))
	}
	data, err := io.ReadAll(e.meter(s, e.lim.MaxFileBytes))
	var large errTooLarge
	var budget errBudget
	switch {
	case errors.As(err, &large), errors.As(err, &budget):
		return nil, invalid("%v", err)
	case err != nil && e.ctx.Err() != nil:
		return nil, e.ctx.Err()
	case err != nil:
		return nil, invalid("damaged DOC: its %s stream cannot be read: %v", s.Name, err)
	}
	return data, nil
}

// clxPlace returns where the CLX, which holds the piece table, lies in the
// table stream, by walking the variable parts of the File Information
// Block: FibRgW, FibRgLw and FibRgFcLcb, each after its count.
func clxPlace(word []byte) (fc, lcb uint32, err error) {
	damagedFIB := invalid("damaged DOC: its file information block is cut short")
	at := fibMinLen
	next := func(unit int) (int, bool) { // the count at at, and the part after it skipped
		if at+2 > len(word) {
			return 0, false
		}
		n := int(binary.LittleEndian.Uint16(word[at:]))
		at += 2
		start := at
		at += n * unit
		return start, at <= len(word)
	}
	if _, ok := next(2); !ok { // csw, FibRgW
		return 0, 0, damagedFIB
	}
	if _, ok := next(4); !ok { // cslw, FibRgLw
		return 0, 0, damagedFIB
	}
	if at+2 > len(word) {
		return 0, 0, damagedFIB
	}
	pairs := int(binary.LittleEndian.Uint16(word[at:]))
	start, ok := next(8) // cbRgFcLcb, FibRgFcLcbBlob
	if !ok || pairs <= fibClxIndex {
		return 0, 0, damagedFIB
	}
	pair := word[start+fibClxIndex*8:]
	return binary.LittleEndian.Uint32(pair), binary.LittleEndian.Uint32(pair[4:]), nil
}

// piece is one run of characters of the piece table: count characters at
// byte offset fc of the WordDocument stream, one byte each when compressed,
// else two.
type piece struct {
	fc         uint32
	count      uint32
	compressed bool
}

// pieceTable reads the pieces from the CLX (MS-DOC 2.9.38): property
// modifiers (Prc, clxt 1) to pass over, then the Pcdt (clxt 2), whose
// PlcPcd holds n+1 character positions and n piece descriptors of 8 bytes.
func pieceTable(clx []byte) ([]piece, error) {
	for len(clx) > 0 && clx[0] == 0x01 {
		if len(clx) < 3 {
			return nil, invalid("damaged DOC: its piece table is cut short")
		}
		n := int(int16(binary.LittleEndian.Uint16(clx[1:])))
		if n < 0 || 3+n > len(clx) {
			return nil, invalid("damaged DOC: a property modifier runs past its piece table")
		}
		clx = clx[3+n:]
	}
	if len(clx) < 5 || clx[0] != 0x02 {
		return nil, invalid("damaged DOC: it has no piece table")
	}
	lcb := binary.LittleEndian.Uint32(clx[1:])
	plc := clx[5:]
	if uint64(lcb) > uint64(len(plc)) || lcb < 4 || (lcb-4)%12 != 0 {
		return nil, invalid("damaged DOC: its piece table has a wrong length")
	}
	n := int(lcb-4) / 12
	cps, pcds := plc[:4*(n+1)], plc[4*(n+1):]
	pieces := make([]piece, 0, n)
	for i := range n {
		start, end := binary.LittleEndian.Uint32(cps[4*i:]), binary.LittleEndian.Uint32(cps[4*i+4:])
		if end < start {
			return nil, invalid("damaged DOC: its piece table goes backwards")
		}
		fc := binary.LittleEndian.Uint32(pcds[8*i+2:])
		p := piece{fc: fc & 0x3FFFFFFF, count: end - start, compressed: fc&0x40000000 != 0}
		if p.compressed {
			p.fc /= 2
		}
		pieces = append(pieces, p)
	}
	return pieces, nil
}

// docText turns the characters of a Word document into text: the special
// characters of MS-DOC 2.4.1 become breaks and spaces, and of a field only
// the result is kept, not the instruction that makes it.
type docText struct {
	e        *extraction
	fields   []bool // for each field open, whether its instruction is being read
	instr    int    // the fields open whose instruction is being read
	overflow int    // fields opened beyond maxFieldDepth
	high     rune   // a high surrogate awaiting its pair
	cellEnd  bool   // the character before was a cell mark
}

// piece writes the characters of one piece.
func (w *docText) piece(word []byte, p piece) error {
	size := uint64(p.count)
	if !p.compressed {
		size *= 2
	}
	if uint64(p.fc)+size > uint64(len(word)) {
		return invalid("damaged DOC: a piece of its text lies outside the WordDocument stream")
	}
	b := word[p.fc : uint64(p.fc)+size]
	for i := uint32(0); i < p.count; i++ {
		var r rune
		if p.compressed {
			r = compressedRune(b[i])
		} else {
			r = rune(binary.LittleEndian.Uint16(b[2*i:]))
		}
		if err := w.char(r); err != nil {
			return err
		}
	}
	return nil
}

// compressedRune maps a byte of a compressed piece to its character: the
// bytes are Windows-1252 (MS-DOC 2.4.1 lists the same mapping for 0x80 to
// 0x9F), but the control characters below 0x20 keep their Word meaning.
func compressedRune(b byte) rune {
	if b < 0x80 {
		return rune(b)
	}
	return charmap.Windows1252.DecodeByte(b)
}

// char writes one character of the document.
func (w *docText) char(r rune) error {
	out := &w.e.out
	switch r {
	case 0x13: // field begin: its instruction follows
		if len(w.fields) < maxFieldDepth {
			w.fields = append(w.fields, true)
			w.instr++
		} else {
			w.overflow++
		}
		return nil
	case 0x14: // field separator: the result follows
		if w.overflow == 0 && len(w.fields) > 0 && w.fields[len(w.fields)-1] {
			w.fields[len(w.fields)-1] = false
			w.instr--
		}
		return nil
	case 0x15: // field end
		if w.overflow > 0 {
			w.overflow--
		} else if len(w.fields) > 0 {
			if w.fields[len(w.fields)-1] {
				w.instr--
			}
			w.fields = w.fields[:len(w.fields)-1]
		}
		return nil
	}
	if w.instr > 0 || w.overflow > 0 { // the characters of a field instruction
		return nil
	}
	afterCell := w.cellEnd
	w.cellEnd = r == 0x07
	switch r {
	case 0x07:
		// The mark of a row's end follows the mark of its last cell's end
		// (telling them apart for sure takes the paragraph properties):
		// cells are parted by spaces, rows by breaks, as in DOCX.
		if afterCell {
			out.Break()
		} else {
			out.Space()
		}
		return nil
	case 0x0D, 0x0B, 0x0C: // paragraph, line break, page or section break
		out.Break()
		return nil
	case 0x09, 0x1E:
		if r == 0x1E { // a non-breaking hyphen
			return out.WriteRune('-')
		}
		out.Space()
		return nil
	}
	if utf16.IsSurrogate(r) {
		if w.high != 0 {
			pair := utf16.DecodeRune(w.high, r)
			w.high = 0
			return out.WriteRune(pair)
		}
		if r < 0xDC00 {
			w.high = r
		}
		return nil
	}
	w.high = 0
	return out.WriteRune(r)
}
