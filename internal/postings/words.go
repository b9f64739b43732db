package postings

import "strings"

// FormRange is the terms of one column of words' forms: those from Low,
// included, to High, excluded, in byte order.
type FormRange struct{ Low, High string }

// FormRanges are the columns of the forms of words, open and tariff: the
// store's vocabulary (spelling.Source) is their terms, which a btree of
// (kind, term) holds side by side.
var FormRanges = []FormRange{{form, "e!"}, {tariffForm, "u!"}}

// WordOf returns the word of a term of a FormRange.
func WordOf(term string) string {
	for _, r := range FormRanges {
		if strings.HasPrefix(term, r.Low) {
			return term[len(r.Low):]
		}
	}
	return term
}
