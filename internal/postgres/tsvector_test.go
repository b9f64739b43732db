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
