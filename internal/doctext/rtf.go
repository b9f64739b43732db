package doctext

import (
	"unicode/utf16"

	"golang.org/x/text/encoding/charmap"
)

// RTF is read by a small tokenizer of this package's own. The Go RTF
// libraries that exist are unmaintained strippers that do not follow code
// pages: they turn the \'xx escapes of Russian text, in Windows-1251 by a
// font's \fcharset204 or the document's \ansicpg1251, into Latin-1. RTF
// text is simple to take out: groups, control words, and text in the code
// page of the current font.

// maxRTFDepth bounds the groups open at once; deeper ones are counted, not
// kept, so that a file of braces cannot take the memory of a stack.
const maxRTFDepth = 1024

// rtfGroup is the state a group keeps, and restores at its end.
type rtfGroup struct {
	skip  bool // a destination whose text is not the document's
	fonts bool // the font table, whose entries are read
	uc    int  // characters that stand in for each \u character
	font  int  // the current font, -1 for the default one
}

// rtfReader reads the text of an RTF document.
type rtfReader struct {
	e         *extraction
	data      []byte
	pos       int
	g         rtfGroup
	stack     []rtfGroup
	overflow  int                      // groups opened beyond maxRTFDepth
	ansi      *charmap.Charmap         // the document's code page
	fontPages map[int]*charmap.Charmap // code pages of fonts, by number
	deff      int                      // the default font
	tableFont int                      // the font table entry being read
	ucSkip    int                      // stand-in characters still to skip
	high      rune                     // a high surrogate awaiting its pair
}

// rtf reads the text of an RTF document.
func (e *extraction) rtf(f file) error {
	data := make([]byte, f.size)
	if _, err := f.r.ReadAt(data, 0); err != nil && int64(len(data)) != f.size {
		return damaged(RTF, err)
	}
	r := &rtfReader{e: e, data: data, g: rtfGroup{uc: 1, font: -1}, ansi: charmap.Windows1252,
		fontPages: map[int]*charmap.Charmap{}}
	return r.run()
}

// run reads the document to its end.
func (r *rtfReader) run() error {
	for r.pos < len(r.data) {
		if r.pos&0xffff == 0 && r.e.ctx.Err() != nil {
			return r.e.ctx.Err()
		}
		c := r.data[r.pos]
		r.pos++
		var err error
		switch c {
		case '{':
			r.open()
		case '}':
			r.close()
		case '\\':
			err = r.control()
		case '\r', '\n':
		default:
			err = r.byteChar(c)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func (r *rtfReader) open() {
	r.ucSkip = 0
	if len(r.stack) >= maxRTFDepth {
		r.overflow++
		return
	}
	r.stack = append(r.stack, r.g)
}

func (r *rtfReader) close() {
	r.ucSkip = 0
	switch {
	case r.overflow > 0:
		r.overflow--
	case len(r.stack) > 0:
		r.g = r.stack[len(r.stack)-1]
		r.stack = r.stack[:len(r.stack)-1]
	}
}

// control reads what follows a backslash: a control symbol, or a control
// word with its optional numeric parameter and the space that may end it.
func (r *rtfReader) control() error {
	if r.pos >= len(r.data) {
		return nil
	}
	c := r.data[r.pos]
	if !isASCIILetter(c) {
		r.pos++
		return r.symbol(c)
	}
	start := r.pos
	for r.pos < len(r.data) && isASCIILetter(r.data[r.pos]) && r.pos-start < 32 {
		r.pos++
	}
	word := string(r.data[start:r.pos])
	param, hasParam := r.param()
	if r.pos < len(r.data) && r.data[r.pos] == ' ' {
		r.pos++
	}
	return r.word(word, param, hasParam)
}

// param reads the numeric parameter of a control word, if it has one.
func (r *rtfReader) param() (int, bool) {
	neg := r.pos < len(r.data) && r.data[r.pos] == '-'
	if neg {
		r.pos++
	}
	n, digits := 0, 0
	for r.pos < len(r.data) && r.data[r.pos] >= '0' && r.data[r.pos] <= '9' {
		if digits < 10 {
			n = n*10 + int(r.data[r.pos]-'0')
		}
		digits++
		r.pos++
	}
	if neg {
		n = -n
	}
	return n, digits > 0
}

// symbol handles a control symbol: a backslash and one character.
func (r *rtfReader) symbol(c byte) error {
	switch c {
	case '\'':
		if r.pos+2 > len(r.data) {
			r.pos = len(r.data)
			return nil
		}
		b, ok := unhex(r.data[r.pos], r.data[r.pos+1])
		r.pos += 2
		if ok {
			return r.byteChar(b)
		}
	case '\\', '{', '}':
		return r.text(rune(c))
	case '~':
		return r.text('\u00a0')
	case '_':
		return r.text('-')
	case '*':
		r.g.skip = true // an optional destination: none holds the document's text
	case '\r', '\n':
		r.brk()
	}
	return nil
}

// rtfSkipped are the destinations whose text is not the document's: tables
// of fonts, colours and styles, metadata, pictures and binary data, field
// instructions, list numbers that the text repeats.
var rtfSkipped = map[string]bool{
	"fonttbl": true, "colortbl": true, "stylesheet": true, "info": true, "pict": true,
	"objdata": true, "objclass": true, "objname": true, "fldinst": true, "themedata": true,
	"colorschememapping": true, "datastore": true, "latentstyles": true, "listtable": true,
	"listoverridetable": true, "rsidtbl": true, "generator": true, "xmlnstbl": true,
	"filetbl": true, "revtbl": true, "pgdsctbl": true, "userprops": true, "docvar": true,
	"pntext": true, "pntxta": true, "pntxtb": true, "listtext": true, "xe": true, "tc": true,
	"nonshppict": true, "sp": true, "template": true, "bkmkstart": true, "bkmkend": true,
	"falt": true, "panose": true, "fontemb": true, "fontfile": true, "mmathPr": true,
}

// rtfChars are the control words that stand for a character.
var rtfChars = map[string]rune{
	"emdash": '—', "endash": '–', "bullet": '•', "lquote": '‘', "rquote": '’',
	"ldblquote": '“', "rdblquote": '”', "emspace": ' ', "enspace": ' ', "qmspace": ' ',
	"tab": '\t', "cell": '\t', "nestcell": '\t',
}

// word handles a control word.
func (r *rtfReader) word(word string, param int, hasParam bool) error {
	if c, ok := rtfChars[word]; ok {
		return r.text(c)
	}
	switch word {
	case "par", "line", "sect", "page", "row", "nestrow":
		r.brk()
	case "u":
		return r.unicode(param)
	case "uc":
		r.g.uc = max(param, 0)
	case "bin":
		r.pos += min(max(param, 0), len(r.data)-r.pos)
	case "ansicpg":
		if cm := codePages[param]; cm != nil {
			r.ansi = cm
		}
	case "mac", "pc", "pca":
		r.ansi = codePages[map[string]int{"mac": 10000, "pc": 437, "pca": 850}[word]]
	case "deff":
		r.deff = param
	case "plain":
		r.g.font = -1
	case "f":
		r.font(param)
	case "fcharset", "cpg":
		if r.g.fonts && hasParam {
			r.fontPages[r.tableFont] = fontPage(word, param)
		}
	case "fonttbl":
		r.g.skip, r.g.fonts = true, true
	default:
		if rtfSkipped[word] {
			r.g.skip = true
		}
	}
	return nil
}

// font handles \f: in the font table it begins an entry, elsewhere it
// chooses the font, and so the code page, of the text that follows.
func (r *rtfReader) font(n int) {
	if r.g.fonts {
		r.tableFont = n
		return
	}
	r.g.font = n
}

// fontPage returns the code page that a font's \fcharset or \cpg names.
// Charset 0 says ANSI, and is taken for the document's code page rather
// than Windows-1252: Russian files are found with it and Cyrillic text.
func fontPage(word string, n int) *charmap.Charmap {
	if word == "cpg" {
		return codePages[n]
	}
	return codePages[charsets[n]]
}

// charsets map the font charsets of RTF to code pages.
var charsets = map[int]int{
	77: 10000, 128: 932, 129: 949, 134: 936, 136: 950, 161: 1253, 162: 1254, 163: 1258, 177: 1255, 178: 1256, 186: 1257,
	204: 1251, 222: 874, 238: 1250, 255: 437,
}

// codePages are the single-byte code pages read, by number.
var codePages = map[int]*charmap.Charmap{
	437: charmap.CodePage437, 850: charmap.CodePage850, 852: charmap.CodePage852,
	855: charmap.CodePage855, 866: charmap.CodePage866, 874: charmap.Windows874,
	1250: charmap.Windows1250, 1251: charmap.Windows1251, 1252: charmap.Windows1252,
	1253: charmap.Windows1253, 1254: charmap.Windows1254, 1255: charmap.Windows1255,
	1256: charmap.Windows1256, 1257: charmap.Windows1257, 1258: charmap.Windows1258,
	10000: charmap.Macintosh, 10007: charmap.MacintoshCyrillic, 20866: charmap.KOI8R,
	21866: charmap.KOI8U, 28591: charmap.ISO8859_1, 28595: charmap.ISO8859_5,
	932: multiByte, 936: multiByte, 949: multiByte, 950: multiByte,
}

// multiByte stands for the code pages of Chinese, Japanese and Korean,
// whose \'xx escapes are dropped rather than misread: current writers give
// such text as \u escapes anyway.
var multiByte = new(charmap.Charmap)

// unicode handles \uN, a UTF-16 code unit as a signed 16-bit number, which
// the next uc characters stand in for in readers that know no Unicode.
func (r *rtfReader) unicode(n int) error {
	u := rune(uint16(n))
	r.ucSkip = r.g.uc
	switch {
	case utf16.IsSurrogate(u) && u < 0xdc00:
		r.high = u
		return nil
	case utf16.IsSurrogate(u):
		u, r.high = utf16.DecodeRune(r.high, u), 0
	}
	return r.emit(u)
}

// byteChar handles a byte of text, raw or from a \'xx escape, in the code
// page of the current font.
func (r *rtfReader) byteChar(b byte) error {
	if r.ucSkip > 0 {
		r.ucSkip--
		return nil
	}
	if b < 0x80 {
		return r.emit(rune(b))
	}
	font := r.g.font
	if font < 0 {
		font = r.deff
	}
	cm := r.fontPages[font]
	if cm == nil {
		cm = r.ansi
	}
	if cm == multiByte {
		return nil
	}
	return r.emit(cm.DecodeByte(b))
}

// text handles a character that a control word or symbol stands for.
func (r *rtfReader) text(c rune) error {
	if r.ucSkip > 0 {
		r.ucSkip--
		return nil
	}
	return r.emit(c)
}

// emit adds a character of text, unless the group is skipped.
func (r *rtfReader) emit(c rune) error {
	if r.g.skip {
		return nil
	}
	return r.e.out.WriteRune(c)
}

// brk ends a paragraph or a line.
func (r *rtfReader) brk() {
	if !r.g.skip {
		r.e.out.Break()
	}
}

func isASCIILetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// unhex returns the byte that two hexadecimal digits spell.
func unhex(a, b byte) (byte, bool) {
	x, ok1 := hexDigit(a)
	y, ok2 := hexDigit(b)
	return x<<4 | y, ok1 && ok2
}

func hexDigit(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}
