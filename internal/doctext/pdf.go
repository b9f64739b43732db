package doctext

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	// github.com/ledongthuc/pdf is the maintained fork of rsc.io/pdf: pure
	// Go, small, and it decodes text as PDF asks, through each font's
	// ToUnicode map or encoding, which Cyrillic text needs. pdfcpu, the
	// other well-kept choice, edits and validates PDF but does not decode
	// text. This package walks the content streams itself, with the
	// library's interpreter, to put spaces and line breaks where the text
	// is positioned apart, to stop within the limits, and to read the
	// text of form XObjects.
	"github.com/ledongthuc/pdf"
)

// Bounds of the walk through a PDF, against files made to loop it.
const (
	maxPDFNodes     = 1 << 17 // page tree nodes, pages included
	maxPDFTreeDepth = 64
	maxFormDepth    = 8       // form XObjects drawn inside each other
	pdfTailLen      = 8 << 10 // the end of a file searched for its end-of-file marker
)

// pdf reads the text layer of a PDF, page by page. A page that cannot be
// read is left out; a PDF none of whose pages can be read is damaged.
func (e *extraction) pdf(f file) (err error) {
	r, size, err := pdfWindow(f)
	if err != nil {
		return err
	}
	doc, err := pdf.NewReader(r, size)
	if errors.Is(err, pdf.ErrInvalidPassword) {
		return invalid("a password-protected PDF is not read")
	}
	if err != nil {
		return damaged(PDF, err)
	}
	w := &pdfWalker{e: e, fonts: map[string]*pdfFont{}}
	defer func() {
		if x := recover(); x != nil {
			a, ok := x.(pdfAbort)
			if !ok {
				panic(x)
			}
			err = a.err
		}
	}()
	w.tree(doc.Trailer().Key("Root").Key("Pages"), pdf.Value{}, 0)
	if w.bad > 0 && w.good == 0 {
		return damaged(PDF, w.firstBad)
	}
	return nil
}

// pdfWindow returns the part of f that the PDF reader is to see. The reader
// wants the header at the very start and the end-of-file marker at the very
// end, as a PDF is written; but readers tolerate bytes before the one and
// after the other, and so do the writers of the files we get. A version
// above 1.7 or a header without its line break is presented as 1.7: the
// text is read alike.
func pdfWindow(f file) (io.ReaderAt, int64, error) {
	head := make([]byte, min(f.size, sniffLen))
	n, _ := f.r.ReadAt(head, 0)
	head = head[:n]
	start := max(pdfHeader(head), 0)
	tailStart := max(f.size-pdfTailLen, int64(start))
	tail := make([]byte, f.size-tailStart)
	n, _ = f.r.ReadAt(tail, tailStart)
	end := bytes.LastIndex(tail[:n], []byte("%%EOF"))
	if end < 0 {
		return nil, 0, invalid("damaged PDF: it lacks the end-of-file marker, as a file cut short does")
	}
	size := tailStart + int64(end) + 5 - int64(start)
	var r io.ReaderAt = io.NewSectionReader(f.r, int64(start), size)
	hdr := head[start:]
	if !(len(hdr) >= 9 && bytes.HasPrefix(hdr, []byte("%PDF-1.")) && hdr[7] >= '0' && hdr[7] <= '7' &&
		(hdr[8] == '\r' || hdr[8] == '\n')) {
		r = overlay{r, []byte("%PDF-1.7\n")}
	}
	return r, size, nil
}

// overlay is a ReaderAt whose first bytes are replaced.
type overlay struct {
	r    io.ReaderAt
	head []byte
}

func (o overlay) ReadAt(p []byte, off int64) (int, error) {
	n, err := o.r.ReadAt(p, off)
	if off < int64(len(o.head)) && off >= 0 {
		copy(p[:n], o.head[off:])
	}
	return n, err
}

// pdfAbort carries, through the panics that unwind the library's
// interpreter, the error that ends the whole walk: the text is full, the
// budget spent, or ctx ended.
type pdfAbort struct{ err error }

// pdfWalker walks the pages of a PDF and their content streams.
type pdfWalker struct {
	e        *extraction
	fonts    map[string]*pdfFont // by resource name and base font
	nodes    int
	ops      int
	y        float64 // the vertical position of the current line
	good     int     // pages read
	bad      int     // pages that could not be read
	firstBad error
}

// tree walks a node of the page tree, with the resources inherited from its
// ancestors. It does not follow Parent links, which a damaged file may
// make circular.
func (w *pdfWalker) tree(node, res pdf.Value, depth int) {
	if w.nodes++; w.nodes > maxPDFNodes || depth > maxPDFTreeDepth {
		panic(pdfAbort{invalid("damaged PDF: its page tree is too large or circular")})
	}
	if r := node.Key("Resources"); r.Kind() == pdf.Dict {
		res = r
	}
	kids := node.Key("Kids")
	if kids.Kind() != pdf.Array {
		w.page(node, res)
		return
	}
	for i := range kids.Len() {
		w.tree(kids.Index(i), res, depth+1)
	}
}

// page reads one page; a page that breaks the interpreter is counted and
// left out.
func (w *pdfWalker) page(page, res pdf.Value) {
	defer func() {
		if x := recover(); x != nil {
			if _, ok := x.(pdfAbort); ok {
				panic(x)
			}
			if w.bad++; w.firstBad == nil {
				w.firstBad = fmt.Errorf("%v", x)
			}
		}
	}()
	if c := page.Key("Contents"); !c.IsNull() {
		w.content(c, res, 0)
	}
	w.e.out.Break()
	w.good++
}

// content interprets a content stream, or an array of them, after counting
// its unpacked bytes against the budget: the interpreter reads a stream as
// it unpacks, and could otherwise be fed without end.
func (w *pdfWalker) content(strm, res pdf.Value, depth int) {
	w.measure(strm)
	if strm.Kind() == pdf.Array {
		for i := range strm.Len() {
			w.measure(strm.Index(i))
		}
	}
	pdf.Interpret(strm, w.interpreter(res, depth))
}

// measure unpacks a stream only to count its bytes.
func (w *pdfWalker) measure(strm pdf.Value) {
	if strm.Kind() != pdf.Stream {
		return
	}
	rc := strm.Reader()
	defer rc.Close()
	_, err := io.Copy(io.Discard, w.e.meter(rc, 0))
	var budget errBudget
	switch {
	case errors.As(err, &budget):
		panic(pdfAbort{invalid("%v", err)})
	case w.e.ctx.Err() != nil:
		panic(pdfAbort{w.e.ctx.Err()})
	}
}

// interpreter returns the function that the library's interpreter calls
// for each operator of a content stream whose resources are res.
func (w *pdfWalker) interpreter(res pdf.Value, depth int) func(*pdf.Stack, string) {
	var run textRun
	return func(stk *pdf.Stack, op string) {
		w.tick()
		args := make([]pdf.Value, stk.Len())
		for i := len(args) - 1; i >= 0; i-- {
			args[i] = stk.Pop()
		}
		switch op {
		case "Tf":
			if len(args) > 0 {
				run.font, run.size = w.font(res, args[0].Name()), at(args, 1)
			}
		case "Tj":
			w.show(&run, last(args))
		case "'", `"`:
			w.e.out.Break()
			run.moved()
			w.show(&run, last(args))
		case "TJ":
			w.showArray(&run, last(args))
		case "T*":
			w.e.out.Break()
			run.moved()
		case "Td", "TD":
			down := len(args) == 2 && args[1].Float64() != 0
			if down || !run.adjoins(at(args, 0)) {
				w.moveLine(down, w.y+at(args, 1))
			}
			run.moved()
		case "Tm":
			w.moveLine(len(args) == 6 && args[5].Float64() != w.y, at(args, 5))
			run.moved()
		case "BT":
			run.moved()
		case "ET":
			w.e.out.Space()
		case "Do":
			if len(args) > 0 {
				w.form(res, args[0].Name(), depth)
			}
		}
	}
}

// tick counts an operator, and every thousand looks whether ctx has ended.
func (w *pdfWalker) tick() {
	if w.ops++; w.ops%1024 == 0 && w.e.ctx.Err() != nil {
		panic(pdfAbort{w.e.ctx.Err()})
	}
}

// moveLine starts a new line of text at vertical position y, or if the
// position moved only across, a new word.
func (w *pdfWalker) moveLine(down bool, y float64) {
	if down {
		w.e.out.Break()
		w.y = y
		return
	}
	w.e.out.Space()
}

// show adds the text of a string operand, decoded by the current font.
func (w *pdfWalker) show(run *textRun, v pdf.Value) {
	if v.Kind() != pdf.String {
		return
	}
	s := v.RawString()
	run.advance(s)
	if run.font != nil && run.font.enc != nil {
		s = run.font.enc.Decode(s)
	}
	if err := w.e.out.WriteString(s); err != nil {
		panic(pdfAbort{err})
	}
}

// showArray adds the strings of a TJ array. A number in it moves the next
// glyph, in thousandths of the font size; a move right of more than a
// quarter of it is taken for a space between words, which some writers
// draw so instead of with a space character.
func (w *pdfWalker) showArray(run *textRun, v pdf.Value) {
	for i := range v.Len() {
		x := v.Index(i)
		if x.Kind() == pdf.String {
			w.show(run, x)
			continue
		}
		run.width -= x.Float64() / 1000 * run.size
		if x.Float64() < -250 {
			w.e.out.Space()
		}
	}
}

// textRun follows how far the text shown since the last move of the line
// reaches, in the units of the text space, so that a move across (Td) that
// starts the next run where the last one ended joins them: browsers print
// a page so, a run of glyphs per kerning pair, with the spaces as glyphs
// of their own ("Изв" "ещение" is one word). A move past that end by more
// than a fifth of the font size is a space between words, as is every
// move across when a font's widths are not known.
type textRun struct {
	font  *pdfFont
	size  float64
	width float64 // of the text shown since the last move
	known bool    // every glyph since the last move had a width
}

// moved starts a run at a new position of the line.
func (r *textRun) moved() { r.width, r.known = 0, true }

// advance adds the width of the glyphs of s, as the font codes them.
func (r *textRun) advance(s string) {
	w, ok := r.font.widthOf(s)
	r.width += w / 1000 * r.size
	r.known = r.known && ok
}

// adjoins reports whether a move across by tx starts the next run where
// the text shown since the last move ended.
func (r *textRun) adjoins(tx float64) bool {
	return r.known && r.size > 0 && tx-r.width <= r.size/5
}

// font returns the font named in res, remembered across pages, which
// name their fonts alike.
func (w *pdfWalker) font(res pdf.Value, name string) *pdfFont {
	f := pdf.Font{V: res.Key("Font").Key(name)}
	key := name + "\x00" + f.BaseFont()
	font, ok := w.fonts[key]
	if !ok {
		font = newPDFFont(f)
		w.fonts[key] = font
	}
	return font
}

// form interprets the form XObject named in res, whose text a page draws
// by reference, with its own resources or else those of the page.
func (w *pdfWalker) form(res pdf.Value, name string, depth int) {
	x := res.Key("XObject").Key(name)
	if x.Kind() != pdf.Stream || x.Key("Subtype").Name() != "Form" || depth >= maxFormDepth {
		return
	}
	if r := x.Key("Resources"); r.Kind() == pdf.Dict {
		res = r
	}
	w.content(x, res, depth+1)
}

// last returns the last operand, or a null value.
func last(args []pdf.Value) pdf.Value {
	if len(args) == 0 {
		return pdf.Value{}
	}
	return args[len(args)-1]
}

// at returns operand i as a number, or zero.
func at(args []pdf.Value, i int) float64 {
	if i >= len(args) {
		return 0
	}
	return args[i].Float64()
}
