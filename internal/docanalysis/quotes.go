package docanalysis

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// MinQuoteRunes is the shortest quote a statement of the prose may rest
// on: a few letters stand somewhere in any documentation and prove
// nothing.
const MinQuoteRunes = 12

// quoteIndex finds quotes in the files' text, white space normalised: each
// run of white space, line breaks included, counts as one space, so that a
// quote may join the lines a PDF wraps.
type quoteIndex []quotedFile

type quotedFile struct {
	name string
	text string // normalised
	// lineStarts[i] is the offset in text at which line i+1 begins.
	lineStarts []int
	pages      []int
}

func newQuoteIndex(files []File) quoteIndex {
	idx := make(quoteIndex, 0, len(files))
	for _, f := range files {
		if strings.TrimSpace(f.Text) == "" {
			continue
		}
		text, starts := normaliseLines(f.Text)
		ps := paragraphs(f)
		pages := make([]int, len(ps))
		for i, p := range ps {
			pages[i] = p.page
		}
		idx = append(idx, quotedFile{name: f.Name, text: text, lineStarts: starts, pages: pages})
	}
	return idx
}

// locate returns where quote q, white space normalised, first stands.
func (idx quoteIndex) locate(q string) (Locator, bool) {
	q = NormaliseSpace(q)
	if utf8.RuneCountInString(q) < MinQuoteRunes {
		return Locator{}, false
	}
	for _, f := range idx {
		at := strings.Index(f.text, q)
		if at < 0 {
			continue
		}
		line := 0
		for line+1 < len(f.lineStarts) && f.lineStarts[line+1] <= at {
			line++
		}
		return Locator{File: f.name, Paragraph: line + 1, Page: f.pages[line]}, true
	}
	return Locator{}, false
}

// NormaliseSpace turns every run of white space in s into one space and
// trims it.
func NormaliseSpace(s string) string {
	text, _ := normaliseLines(s)
	return text
}

// normaliseLines normalises the white space of text and says where each
// of its lines begins in the result. A line begins where its first
// character other than a space is written, so a quote, which never begins
// with a space, is told the line it begins on.
func normaliseLines(text string) (string, []int) {
	var b strings.Builder
	b.Grow(len(text))
	starts := []int{0}
	space := false
	for _, r := range text {
		if r == '\n' {
			starts = append(starts, b.Len())
		}
		if unicode.IsSpace(r) {
			space = b.Len() > 0
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r)
	}
	return b.String(), starts
}
