package tenderbase

// Languaged is a record that knows the language of its texts, so that
// search analyses them by that language's rules. A record that is not
// Languaged, or says "", is analysed as Russian and English are.
type Languaged interface {
	// TextLanguage returns the ISO 639-1 code of the record's texts, or "".
	TextLanguage() string
}

// TextLanguage returns the language of r's texts, "" when unknown.
func TextLanguage(r Record) string {
	if l, ok := r.(Languaged); ok {
		return l.TextLanguage()
	}
	return ""
}

// TextLanguage returns the notice's language.
func (w *WorldTender) TextLanguage() string { return w.Language }
