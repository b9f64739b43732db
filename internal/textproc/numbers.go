package textproc

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// joinDigitGroups joins to a number of one to three digits the groups of
// three digits that follow it, each after a space: "5 000" and "1 000 000"
// are written so in prose, and a reader means 5000 and 1000000. It returns
// the number, joined, and the text after the last group it took; a number
// with no group after it comes back as it is. A group is taken only when
// exactly three digits stand between the spaces and what follows, so that
// "5 0000", "5 00" and an INN after a number stay apart.
func joinDigitGroups(number, rest string) (joined, after string) {
	var b strings.Builder
	for {
		n := groupAt(rest)
		if n == 0 {
			break
		}
		if b.Len() == 0 {
			b.WriteString(number)
		}
		b.WriteString(rest[n-3 : n])
		rest = rest[n:]
	}
	if b.Len() == 0 {
		return number, rest
	}
	return b.String(), rest
}

// groupAt returns the length of the spaces and the three digits a group
// of digits at the start of text takes, or 0 when text does not start with
// one.
func groupAt(text string) int {
	i := 0
	for {
		size := groupSpace(text[i:])
		if size == 0 {
			break
		}
		i += size
	}
	if i == 0 || len(text) < i+3 {
		return 0
	}
	for _, c := range []byte(text[i : i+3]) {
		if c < '0' || c > '9' {
			return 0
		}
	}
	if j := i + 3; j < len(text) && '0' <= text[j] && text[j] <= '9' {
		return 0
	}
	return i + 3
}

// groupSpace returns the bytes of the space that separates groups of
// digits at the start of text, 0 when there is none: a space, a no-break
// space, a thin space or a narrow no-break space (how typesetting and
// spreadsheets group digits).
func groupSpace(text string) int {
	for _, s := range []string{" ", "\u00a0", "\u2009", "\u202f"} {
		if strings.HasPrefix(text, s) {
			return len(s)
		}
	}
	return 0
}

// cutNumber cuts a folded word that starts with a number and goes on with
// a letter into the number and the rest: "10кг" is "10" and "кг", "44фз"
// "44" and "фз", so that a number written against its unit meets the same
// number written apart from it. Any other word comes back whole, with
// nothing after it: "а4", "окпд2" and "12345" are one word each.
func cutNumber(word string) (head, rest string) {
	i := 0
	for i < len(word) && '0' <= word[i] && word[i] <= '9' {
		i++
	}
	if r, _ := utf8.DecodeRuneInString(word[i:]); i == 0 || i == len(word) || !unicode.IsLetter(r) {
		return word, ""
	}
	return word[:i], word[i:]
}
