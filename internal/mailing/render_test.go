package mailing

import (
	"strings"
	"testing"
	"time"

	"github.com/tenderbase/tenderbase"
)

func TestSubjectAgreesWithTheCount(t *testing.T) {
	for _, c := range []struct {
		resource, kind, schedule string
		n                        int
		want                     string
	}{
		{"ru", tenderbase.MailingNew, "published", 1, "«Кровля»: 1 новая закупка"},
		{"ru", tenderbase.MailingNew, "published", 3, "«Кровля»: 3 новые закупки"},
		{"ru", tenderbase.MailingNew, "published", 11, "«Кровля»: 11 новых закупок"},
		{"ru", tenderbase.MailingNew, "daily", 21, "«Кровля»: 21 новая закупка за день"},
		{"ru", tenderbase.MailingNew, "weekly", 112, "«Кровля»: 112 новых закупок за неделю"},
		{"contracts", tenderbase.MailingNew, "published", 2, "«Кровля»: 2 новых контракта"},
		{"torgi", tenderbase.MailingNew, "published", 5, "«Кровля»: 5 новых лотов"},
		{"docs", tenderbase.MailingNew, "published", 1, "«Кровля»: 1 новый документ"},
		{"rnp", tenderbase.MailingNew, "published", 4, "«Кровля»: 4 новые записи РНП"},
		{"ru", tenderbase.MailingWinners, "daily", 2, "«Кровля»: определены победители, 2 закупки"},
	} {
		m := tenderbase.Mailing{Name: "Кровля", Resource: c.resource, Type: c.kind, Schedule: c.schedule, Items: make([]tenderbase.MailItem, c.n)}
		if got := subject(m); got != c.want {
			t.Errorf("%s %s of %d: %q, want %q", c.resource, c.kind, c.n, got, c.want)
		}
	}
}

// TestRenderEscapes checks that what records say is text in the HTML part,
// never markup, and that both parts carry every item.
func TestRenderEscapes(t *testing.T) {
	d := tenderbase.Delivery{ID: "d_1", Mailing: tenderbase.Mailing{Name: "<b>x</b>", Resource: "ru", Type: tenderbase.MailingNew, CreatedAt: time.Now(),
		Items: []tenderbase.MailItem{
			{Title: `Поставка <script>alert(1)</script>`, Facts: []string{"Заказчик: ООО «А&Б»"}, URL: "javascript:alert(1)"},
			{Title: "Ремонт кровли", URL: "https://zakupki.gov.ru/x?a=1&b=2"},
		}}}
	m, err := render(d, "buyer@example.com", "https://tenderbase.example.com/unsubscribe?s=s_1")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(m.HTML, "<script>") || strings.Contains(m.HTML, "<b>x") || strings.Contains(m.HTML, `href="javascript:`) {
		t.Errorf("the HTML part lets markup through:\n%s", m.HTML)
	}
	for _, part := range []string{m.Text, m.HTML} {
		if !strings.Contains(part, "Ремонт кровли") || !strings.Contains(part, "unsubscribe?s=s_1") {
			t.Errorf("a part lacks an item or the link:\n%s", part)
		}
	}
	if m.ID != "d_1@tenderbase" || m.Subject != "Tenderbase · «<b>x</b>»: 2 новые закупки" {
		t.Errorf("id %q, subject %q", m.ID, m.Subject)
	}
}
