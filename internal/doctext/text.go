package doctext

import (
	"unicode"
	"unicode/utf8"
)

// textBuilder collects the text of a file as search wants it: valid UTF-8,
// no control or invisible formatting characters, every run of white space
// one space, or one newline where the run holds a line break, and no more
// than max bytes, cut at a character boundary.
type textBuilder struct {
	buf []byte
	max int
	gap byte // the separator owed before the next character: 0, ' ' or '\n'
}

// Len returns the length of the text so far.
func (t *textBuilder) Len() int { return len(t.buf) }

// String returns the text.
func (t *textBuilder) String() string { return string(t.buf) }

// Truncate drops the text after the first n bytes, those of a member that
// turned out unreadable.
func (t *textBuilder) Truncate(n int) {
	t.buf, t.gap = t.buf[:n], 0
}

// Space owes a space before the next character.
func (t *textBuilder) Space() { t.owe(' ') }

// Break owes a line break before the next character.
func (t *textBuilder) Break() { t.owe('\n') }

func (t *textBuilder) owe(gap byte) {
	if t.gap != '\n' { // a line break wins over a space
		t.gap = gap
	}
}

// WriteString adds s, normalized. It returns errTextFull, and adds nothing
// more, once the text has reached its limit.
func (t *textBuilder) WriteString(s string) error {
	for len(s) > 0 {
		r, size := utf8.DecodeRuneInString(s)
		s = s[size:]
		if err := t.WriteRune(r); err != nil {
			return err
		}
	}
	return nil
}

// WriteRune adds r, normalized, as WriteString does.
func (t *textBuilder) WriteRune(r rune) error {
	switch {
	case r == '\n' || r == '\r' || r == '\v' || r == '\f' || r == 0x85 || r == 0x2028 || r == 0x2029:
		t.owe('\n')
		return nil
	case unicode.IsSpace(r) || r == 0x200b: // the zero width space parts words
		t.owe(' ')
		return nil
	case r == utf8.RuneError || unicode.IsControl(r) || unicode.Is(unicode.Cf, r):
		// Invalid bytes, NUL and the like, soft hyphens, joiners and
		// direction marks would only split or hide words.
		return nil
	}
	gap := 0
	if t.gap != 0 && len(t.buf) > 0 {
		gap = 1
	}
	if len(t.buf)+gap+utf8.RuneLen(r) > t.max {
		return errTextFull
	}
	if gap > 0 {
		t.buf = append(t.buf, t.gap)
	}
	t.gap = 0
	t.buf = utf8.AppendRune(t.buf, r)
	return nil
}
