package hunspell

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// condition is an affix rule's condition: a sequence of letters, any
// letter (.), or a set of letters ([...], [^...] for any letter but those),
// which the end of a word (suffix) or its start (prefix) must spell.
type condition []charClass

// charClass is one position of a condition.
type charClass struct {
	any     bool
	negated bool
	runes   string
}

func (c charClass) matches(r rune) bool {
	if c.any {
		return true
	}
	return strings.ContainsRune(c.runes, r) != c.negated
}

// parseCondition reads a condition; "." alone means none.
func parseCondition(s string) (condition, error) {
	if s == "." {
		return nil, nil
	}
	var cond condition
	for s != "" {
		switch {
		case s[0] == '.':
			cond = append(cond, charClass{any: true})
			s = s[1:]
		case s[0] == '[':
			end := strings.IndexByte(s, ']')
			if end < 0 {
				return nil, fmt.Errorf("condition %q: [ without ]", s)
			}
			set := s[1:end]
			neg := strings.HasPrefix(set, "^")
			cond = append(cond, charClass{negated: neg, runes: strings.TrimPrefix(set, "^")})
			s = s[end+1:]
		default:
			r, n := utf8.DecodeRuneInString(s)
			cond = append(cond, charClass{runes: string(r)})
			s = s[n:]
		}
	}
	return cond, nil
}

// matchEnd reports whether the last letters of word meet the condition.
func (c condition) matchEnd(word string) bool {
	for i := len(c) - 1; i >= 0; i-- {
		r, n := utf8.DecodeLastRuneInString(word)
		if n == 0 || !c[i].matches(r) {
			return false
		}
		word = word[:len(word)-n]
	}
	return true
}

// matchStart reports whether the first letters of word meet the condition.
func (c condition) matchStart(word string) bool {
	for _, cc := range c {
		r, n := utf8.DecodeRuneInString(word)
		if n == 0 || !cc.matches(r) {
			return false
		}
		word = word[n:]
	}
	return true
}
