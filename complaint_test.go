package tenderbase_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tenderbase/tenderbase"
)

func TestXMLTexts(t *testing.T) {
	tests := []struct {
		fragment string
		want     []string
	}{
		{"", nil},
		{`<a>Истец <b>ООО «Вега»</b></a>`, []string{"Истец", "ООО «Вега»"}},
		{"<org>\n  <role>Заявитель</role>\n  <inn>7707083893</inn>\n</org>", []string{"Заявитель", "7707083893"}},
		{`<a>ООО &quot;Вега&quot; &amp; сыновья</a>`, []string{`ООО "Вега" & сыновья`}},
		{`plain text`, []string{"plain text"}},
		{`<a>unclosed`, []string{"unclosed"}},
		{`<a></a>`, nil},
	}
	for _, tt := range tests {
		got := tenderbase.XMLTexts(tt.fragment)
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("XMLTexts(%q) mismatch (-want +got):\n%s", tt.fragment, diff)
		}
	}
}

// orgXML names a party by role and name, as a FAS case's orgXML does.
const orgXML = `<org><role>Заявитель</role><name>ОБЩЕСТВО С ОГРАНИЧЕННОЙ ОТВЕТСТВЕННОСТЬЮ "РОМАШКА"</name><inn>7707083893</inn></org>`

func TestFASCaseSearchTextKeepsElementsApart(t *testing.T) {
	c := &tenderbase.FASCase{ID: 1, Name: "Дело № 1", OrgXML: orgXML}
	want := []tenderbase.Text{
		{Field: "name", Value: "Дело № 1"},
		{Field: "orgXML", Value: "Заявитель"},
		{Field: "orgXML", Value: `ОБЩЕСТВО С ОГРАНИЧЕННОЙ ОТВЕТСТВЕННОСТЬЮ "РОМАШКА"`},
		{Field: "orgXML", Value: "7707083893"},
	}
	if diff := cmp.Diff(want, c.SearchText()); diff != "" {
		t.Errorf("SearchText mismatch (-want +got):\n%s", diff)
	}
}

func TestComplaintSearchTextKeepsIndictedElementsApart(t *testing.T) {
	indicted := `<indicted><customer><fullName>ГБУЗ «Больница № 1»</fullName><INN>7707083893</INN></customer></indicted>`
	tests := []struct {
		name, text string
		want       []string
	}{
		{"the text joined from the XML", tenderbase.XMLText(indicted), []string{"ГБУЗ «Больница № 1»", "7707083893"}},
		{"a text written otherwise", "Заказчик: ГБУЗ «Больница № 1», ИНН 7707083893",
			[]string{"Заказчик: ГБУЗ «Больница № 1», ИНН 7707083893"}},
		{"no text", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &tenderbase.Complaint{ComplaintNumber: "1", ComplaintIndictedTextXML: indicted, ComplaintIndictedText: tt.text}
			var got []string
			for _, text := range c.SearchText() {
				if text.Field == "complaint_indicted_text" {
					got = append(got, text.Value)
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("indicted texts mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
