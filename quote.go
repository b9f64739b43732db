package tenderbase

import (
	"fmt"
	"strconv"
)

// MaxQuoted is how many characters of a caller's value an error message
// repeats.
const MaxQuoted = 64

// Quote returns s in double quotes, escaped as strconv.Quote escapes it, for
// an error message that repeats what the caller sent. A value longer than
// MaxQuoted characters is cut there, and the cut is marked with "..." and the
// value's whole length, so that no error grows with its input: a caller that
// sent a 900 KB id learns that it did, not its id back.
func Quote(s string) string {
	if len(s) <= MaxQuoted {
		return strconv.Quote(s)
	}
	n := 0
	for i := range s { // rune by rune; a byte that is not UTF-8 counts as one
		if n == MaxQuoted {
			return strconv.Quote(s[:i]) + fmt.Sprintf("... (%d bytes in all)", len(s))
		}
		n++
	}
	return strconv.Quote(s)
}
