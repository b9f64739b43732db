package postgres

import (
	"testing"

	"github.com/tenderbase/tenderbase/internal/textproc"
)

// TestDocumentWeights checks the tsvector of a record with open and tariff
// text: tariff positions are labelled A, after a gap that keeps phrases
// apart, and a word in both texts has positions of both weights.
func TestDocumentWeights(t *testing.T) {
	st := textproc.Stemmer{}
	open, tariff := st.FieldsApart(textproc.Default, []string{"Поставка бумаги"}, []string{"ООО Бумага"})
	got := newDocument(open, tariff).tsv
	want := `'=бумага':5A '=бумаги':2 '=ооо':4A '=поставка':1 'бумаг':2,5A 'оо':4A 'поставк':1`
	if got != want {
		t.Errorf("tsvector\n%s\nwant\n%s", got, want)
	}
}

// TestDocumentHomograph checks that a word of two lemmas has a lexeme for
// each at its position, so that a phrase of either lemma finds it.
func TestDocumentHomograph(t *testing.T) {
	open, _ := textproc.Stemmer{}.FieldsApart(textproc.Default, []string{"листовой стали"}, nil)
	got := newDocument(open, nil).tsv
	want := `'=листовой':1 '=стали':2 'листов':1 'стал':2 'стат':2`
	if got != want {
		t.Errorf("tsvector\n%s\nwant\n%s", got, want)
	}
}
