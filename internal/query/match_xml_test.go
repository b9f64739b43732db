package query

import (
	"testing"

	"github.com/tenderbase/tenderbase"
)

// TestMatchRecordPhraseStaysInOneXMLElement checks that a phrase matches
// within the text of one element of a record's XML, never across a party's
// role and name or a customer's name and INN.
func TestMatchRecordPhraseStaysInOneXMLElement(t *testing.T) {
	fasCase := &tenderbase.FASCase{ID: 1, OrgXML: `<org><role>Заявитель</role>` +
		`<name>ОБЩЕСТВО С ОГРАНИЧЕННОЙ ОТВЕТСТВЕННОСТЬЮ "РОМАШКА"</name></org>`}
	indicted := `<indicted><customer><fullName>ГБУЗ «Больница № 1»</fullName><INN>7707083893</INN></customer></indicted>`
	complaint := &tenderbase.Complaint{ComplaintNumber: "1",
		ComplaintIndictedTextXML: indicted, ComplaintIndictedText: tenderbase.XMLText(indicted)}
	tests := []struct {
		record tenderbase.Record
		query  string
		want   bool
	}{
		{fasCase, `"Заявитель ОБЩЕСТВО"`, false},
		{fasCase, `"ОБЩЕСТВО С ОГРАНИЧЕННОЙ"`, true},
		{fasCase, `Заявитель ОБЩЕСТВО`, true},
		{complaint, `"больница 1 7707083893"`, false},
		{complaint, `"больница 1"`, true},
		{complaint, `7707083893`, true},
	}
	for _, tt := range tests {
		q, err := Parse(tt.query, MCP)
		if err != nil {
			t.Fatalf("Parse(%q): %v", tt.query, err)
		}
		if got := MatchRecord(q, tt.record, false); got != tt.want {
			t.Errorf("MatchRecord(%s, %s) = %v, want %v", tt.query, tt.record.Kind(), got, tt.want)
		}
	}
}
