package textproc

import (
	"unicode"
	"unicode/utf8"
)

// Ideographs. Chinese and Japanese write no space between words, and
// Korean not always, so a run of their characters is no one word: a
// title's «北京市政府采购» holds 北京 (Beijing), 市政府 (city government) and
// 采购 (procurement). Without a dictionary of their words, a run is read
// as its overlapping pairs of characters (bigrams, as Lucene's CJK
// analyzer reads it): 北京, 京市, 市政, 政府, 府采, 采购. A query word is
// read the same way, so that 政府 is one of the pairs and 市政府 the phrase
// of two, found in order wherever the run holds them. A character alone
// between other scripts is a word of its own; a query of one character
// finds only such a character, not one inside a run.

// ideograph reports whether r is written without spaces between words:
// Han, Hiragana, Katakana or Hangul.
func ideograph(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul)
}

// cutPart returns the first word of a folded word that holds other
// scripts than Latin and Cyrillic, and the rest. Of a run of ideographs it
// is its first pair of characters; inRun says that the word begins inside
// a run whose pairs began before it, and the rest begins inside one when
// more pairs of its run follow. Other letters are cut as cutNumber cuts
// them, up to the first ideograph.
func cutPart(word string, inRun bool) (head, rest string, restInRun bool) {
	first, size := utf8.DecodeRuneInString(word)
	if !ideograph(first) {
		end := len(word)
		for i, r := range word {
			if ideograph(r) {
				end = i
				break
			}
		}
		head, tail := cutNumber(word[:end])
		return head, tail + word[end:], false
	}
	second, size2 := utf8.DecodeRuneInString(word[size:])
	if size2 == 0 || !ideograph(second) {
		if inRun {
			// The run's last character, in the pair before it already.
			return cutPart(word[size:], false)
		}
		return word[:size], word[size:], false
	}
	third, _ := utf8.DecodeRuneInString(word[size+size2:])
	if !ideograph(third) {
		return word[:size+size2], word[size+size2:], false
	}
	return word[:size+size2], word[size:], true
}
