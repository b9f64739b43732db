package doctext

import (
	"github.com/ledongthuc/pdf"
)

// pdfFont is a font of a PDF as the text walk needs it: how its codes
// decode to text, and how wide its glyphs are, in thousandths of the font
// size, where the font says.
type pdfFont struct {
	enc pdf.TextEncoding
	// twoByte says that a code is two bytes, big-endian: a composite font
	// (Type0) of the Identity encodings, which browsers and office suites
	// write.
	twoByte bool
	widths  map[int]float64
	missing float64 // the width of a code not listed
	known   bool    // the font gives its widths in a form read here
}

// newPDFFont reads a font's encoding and widths. The widths of a simple
// font are its Widths from FirstChar, those of a composite font its
// descendant's W array and DW; a composite font of another encoding than
// Identity-H or Identity-V, whose codes may have other lengths, has no
// widths known.
func newPDFFont(f pdf.Font) *pdfFont {
	font := &pdfFont{enc: f.Encoder(), widths: map[int]float64{}}
	if f.V.Key("Subtype").Name() == "Type0" {
		if enc := f.V.Key("Encoding").Name(); enc != "Identity-H" && enc != "Identity-V" {
			return font
		}
		font.twoByte, font.known = true, true
		cid := f.V.Key("DescendantFonts").Index(0)
		font.missing = 1000
		if dw := cid.Key("DW"); dw.Kind() == pdf.Integer || dw.Kind() == pdf.Real {
			font.missing = dw.Float64()
		}
		font.readW(cid.Key("W"))
		return font
	}
	widths := f.V.Key("Widths")
	if widths.Kind() != pdf.Array {
		return font
	}
	font.known = true
	font.missing = f.V.Key("FontDescriptor").Key("MissingWidth").Float64()
	first := int(f.V.Key("FirstChar").Int64())
	for i := range min(widths.Len(), 1<<16) {
		font.widths[first+i] = widths.Index(i).Float64()
	}
	return font
}

// readW reads a composite font's W array: "c [w1 w2 ...]" gives the
// widths of c, c+1...; "c1 c2 w" the width of every code from c1 to c2.
func (f *pdfFont) readW(w pdf.Value) {
	const most = 1 << 16 // codes of two bytes
	for i := 0; i+1 < w.Len() && len(f.widths) < most; {
		first := int(w.Index(i).Int64())
		if next := w.Index(i + 1); next.Kind() == pdf.Array {
			for j := range min(next.Len(), most) {
				f.widths[first+j] = next.Index(j).Float64()
			}
			i += 2
			continue
		}
		if i+2 >= w.Len() {
			return
		}
		last, width := int(w.Index(i+1).Int64()), w.Index(i+2).Float64()
		for c := max(first, 0); c <= min(last, most-1) && len(f.widths) < most; c++ {
			f.widths[c] = width
		}
		i += 3
	}
}

// widthOf returns the width of the glyphs of s, a string operand as the
// font codes it, and whether the font says it.
func (f *pdfFont) widthOf(s string) (float64, bool) {
	if f == nil || !f.known {
		return 0, false
	}
	var sum float64
	step := 1
	if f.twoByte {
		step = 2
	}
	for i := 0; i+step <= len(s); i += step {
		code := int(s[i])
		if f.twoByte {
			code = code<<8 | int(s[i+1])
		}
		w, ok := f.widths[code]
		if !ok {
			w = f.missing
		}
		sum += w
	}
	return sum, true
}
