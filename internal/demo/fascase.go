package demo

import (
	"fmt"
	"html"
	"strings"
	"time"

	"github.com/tenderbase/tenderbase"
)

// Document types of FAS cases in the demo: the source's own codes.
const (
	caseDecision = 1 // решение
	caseOrder    = 2 // предписание
	caseRuling   = 3 // определение
)

var caseTypeNames = map[int]string{caseDecision: "Решение", caseOrder: "Предписание", caseRuling: "Определение"}

// caseSpheres are the spheres of the antimonopoly service's work with the
// procedure a case of each goes through.
var caseSpheres = []struct{ Sphere, Procedure, Article string }{
	{"Государственные закупки", "Рассмотрение жалобы на действия заказчика", "06/106"},
	{"Антимонопольное регулирование", "Рассмотрение дела о нарушении антимонопольного законодательства (статья 17 Закона о защите конкуренции)", "01/17"},
	{"Торги", "Рассмотрение жалобы в порядке статьи 18.1 Закона о защите конкуренции", "07/18.1"},
	{"Контроль органов власти", "Рассмотрение дела о нарушении статьи 15 Закона о защите конкуренции", "01/15"},
}

// buildCases opens n cases: the first ones follow decided complaints, the
// rest are antimonopoly cases against customers and suppliers.
func (b *builder) buildCases(n int) {
	for i := range n {
		b.cases = append(b.cases, b.fasCase(i))
	}
}

func (b *builder) fasCase(i int) *tenderbase.FASCase {
	s := b.s
	sphere := caseSpheres[i%len(caseSpheres)]
	l := b.lodged[(i*3)%len(b.lodged)]
	customer, applicant, office := l.purchase.customer, l.applicant, l.office
	at := l.latest().DatePubl.AddDate(0, 0, s.between(6, 40))
	if at.After(lastDay) {
		at = lastDay.Add(-time.Duration(s.between(24, 300)) * time.Hour)
	}
	typ := []int{caseDecision, caseDecision, caseOrder, caseRuling}[i%4]
	number := fmt.Sprintf("%03d/%s-%d/%d", customer.Region.Code, sphere.Article, s.between(100, 29999), at.Year())
	c := &tenderbase.FASCase{
		ID:            int64(3_100_000 + i*137 + s.intn(100)),
		RemoteID:      strings.ToLower(s.hex(24)),
		Name:          fmt.Sprintf("%s по делу № %s", caseTypeNames[typ], number),
		Type:          typ,
		CaseDate:      at,
		Upr:           office.ShortName,
		Sphera:        sphere.Sphere,
		Delo:          fmt.Sprintf("№ %s по заявлению %s в отношении %s", number, applicant.ShortName, customer.ShortName),
		ProcedureName: sphere.Procedure,
		OrgXML:        orgXML(applicant, customer),
	}
	c.Attachment = fmt.Sprintf("%s_%s.pdf", strings.ToLower(translitWord(caseTypeNames[typ])), strings.NewReplacer("/", "-", ".", "-").Replace(number))
	t := l.purchase.versions[0]
	c.Text = fmt.Sprintf("%s. %s: %s. Заявитель — %s, ответчик — %s. Закупка № %s «%s».",
		sphere.Procedure, caseTypeNames[typ], office.ShortName, applicant.Name, customer.Name, t.PurchaseNumber, t.Title)
	c.Link = fmt.Sprintf("https://br.fas.gov.ru/cases/%s/", c.RemoteID)
	return c
}

// orgXML names the parties of a case with their INNs, the way the source
// embeds them.
func orgXML(applicant, respondent *party) string {
	var b strings.Builder
	b.WriteString("<orgs>")
	for _, o := range []struct {
		role string
		p    *party
	}{{"Заявитель", applicant}, {"Ответчик", respondent}} {
		fmt.Fprintf(&b, "<org><role>%s</role><name>%s</name><inn>%s</inn>", o.role, html.EscapeString(o.p.Name), o.p.INN)
		if o.p.KPP != "" {
			fmt.Fprintf(&b, "<kpp>%s</kpp>", o.p.KPP)
		}
		fmt.Fprintf(&b, "<address>%s</address></org>", html.EscapeString(o.p.Address))
	}
	b.WriteString("</orgs>")
	return b.String()
}

// translitWord transliterates one Russian word for a file name.
func translitWord(w string) string { return translit(strings.ToLower(w)) }
