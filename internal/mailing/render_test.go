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
		{"plans", tenderbase.MailingNew, "published", 1, "«Кровля»: 1 новая позиция в планах закупок"},
		{"plans", tenderbase.MailingNew, "daily", 5, "«Кровля»: 5 новых позиций в планах закупок за день"},
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

// TestMailingsOfMany checks that what matched beyond a mailing's bound
// goes in further mailings of the same round, each to every target, in
// the order decided.
func TestMailingsOfMany(t *testing.T) {
	sub := tenderbase.Subscription{ID: "s_1", Name: "n", Resource: "ru", Recipients: []string{"a@example.com"}, Webhook: "https://h.example.com/x"}
	news := make([]tenderbase.MailItem, 250)
	for i := range news {
		news[i].Key = strings.Repeat("x", i%7+1)
	}
	now := time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC)
	mailings, err := mailingsOf(sub, news, news[:1], now)
	if err != nil {
		t.Fatal(err)
	}
	var sizes []int
	for _, m := range mailings {
		sizes = append(sizes, len(m.Items))
	}
	if len(mailings) != 4 || sizes[0] != 100 || sizes[1] != 100 || sizes[2] != 50 || mailings[3].Type != tenderbase.MailingWinners || sizes[3] != 1 {
		t.Fatalf("mailings of 250 new and 1 won: %v", sizes)
	}
	ds, err := deliveriesOf(sub, mailings, now)
	if err != nil {
		t.Fatal(err)
	}
	if len(ds) != 8 || ds[0].Target != "mailto:a@example.com" || ds[1].Target != sub.Webhook || ds[1].Mailing.ID != ds[0].Mailing.ID {
		t.Fatalf("deliveries: %d, first %+v", len(ds), ds[:2])
	}
	for i := 1; i < len(ds); i++ {
		if !ds[i].CreatedAt.After(ds[i-1].CreatedAt) {
			t.Errorf("delivery %d is not after the one before", i)
		}
	}
}
