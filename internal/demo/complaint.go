package demo

import (
	"fmt"
	"html"
	"time"

	"github.com/tenderbase/tenderbase"
)

// Results of the check of a complaint, as EIS names them.
const (
	resultViolations   = "COMPLAINT_VIOLATIONS"
	resultNoViolations = "COMPLAINT_NO_VIOLATIONS"
	resultPartlyValid  = "COMPLAINT_PARTLY_VALID"
)

// complaintGrounds are what applicants complain of.
var complaintGrounds = []string{
	"Заказчиком в описании объекта закупки установлены требования к товару, влекущие ограничение количества участников закупки",
	"Комиссия по осуществлению закупок неправомерно отклонила заявку заявителя как не соответствующую требованиям извещения",
	"Извещение не содержит обязательных требований к участникам закупки, установленных статьёй 31 Закона о контрактной системе",
	"Проект контракта не содержит условия об ответственности заказчика за ненадлежащее исполнение обязательств",
	"Заказчиком неправомерно объединены в один объект закупки технологически и функционально не связанные товары",
}

// lodged is a complaint with what the builder needs to decide it.
type lodged struct {
	versions  []*tenderbase.Complaint
	purchase  *purchase
	applicant *party
	office    *party
}

// buildComplaints lodges up to n complaints against 44-FZ purchases; every
// fifth gets a second version.
func (b *builder) buildComplaints(n int) {
	seq := 0
	for i, p := range b.purchases {
		if len(b.lodged) >= n {
			return
		}
		t := p.versions[0]
		if t.Law != tenderbase.Law44 || i%2 != 1 {
			continue
		}
		seq++
		l := b.lodge(p, seq)
		if seq%5 == 0 {
			l.versions = append(l.versions, b.revise(l.versions[0]))
		}
		b.lodged = append(b.lodged, l)
	}
}

func (b *builder) lodge(p *purchase, seq int) *lodged {
	s, t := b.s, p.versions[0]
	applicant := b.applicant(p)
	office := b.cast.offices[p.customer.Region.Code]
	at := t.ApplicationsDeadline.AddDate(0, 0, -s.between(2, 4)).Add(time.Duration(s.between(0, 6)) * time.Hour)
	if !at.After(t.PublishedAt) {
		at = t.PublishedAt.Add(26 * time.Hour)
	}
	c := &tenderbase.Complaint{
		PurchasePlacingDate:  t.PublishedAt,
		ComplaintNumber:      fmt.Sprintf("%d%03d%06d", at.Year(), p.customer.Region.Code, s.between(1, 999999)),
		ComplaintID:          pad(s.between(10_000_000, 39_999_999), 8),
		VersionNumber:        1,
		RegNum:               fmt.Sprintf("%d%05d%06d", at.Year(), p.customer.Region.Code*100+1, seq),
		RegistrationFullName: office.Name,
		RegistrationINN:      office.INN,
		RegistrationKPP:      office.KPP,
		PurchaseObjectInfo:   t.Title,
		PurchaseNumber:       t.PurchaseNumber,
		SupplierName:         applicant.Name,
		SupplierINN:          applicant.INN,
		CustomerINN:          p.customer.INN,
		DatePubl:             at,
	}
	ground := pick(s, complaintGrounds)
	c.Text = fmt.Sprintf("Жалоба %s на действия заказчика %s при проведении закупки № %s «%s». %s.",
		applicant.ShortName, p.customer.ShortName, t.PurchaseNumber, t.Title, ground)
	c.Link = "https://zakupki.gov.ru/epz/complaint/card/complaint-information.html?id=" + c.ComplaintID
	c.ComplaintIndictedTextXML, c.ComplaintIndictedText = indicted(p.customer)
	if s.chance(0.5) {
		c.ApplicantRD = fmt.Sprintf("ОГРН %s, дата регистрации %s", applicant.OGRN, applicant.Registered.Format("02.01.2006"))
	}
	return &lodged{versions: []*tenderbase.Complaint{c}, purchase: p, applicant: applicant, office: office}
}

// applicant returns a bidder who did not win, or any supplier of the sector.
func (b *builder) applicant(p *purchase) *party {
	for _, pt := range p.latest().Participants {
		if !pt.Winner {
			return b.cast.supplier(pt.INN)
		}
	}
	return pick(b.s, b.cast.suppliersFor(p.subject.Sector))
}

// indicted returns the block naming the customer complained of, as XML and
// as text.
func indicted(c *party) (string, string) {
	x := fmt.Sprintf("<indicted><customer><regNum>%s</regNum><fullName>%s</fullName><INN>%s</INN><KPP>%s</KPP></customer></indicted>",
		c.RegNum, html.EscapeString(c.Name), c.INN, c.KPP)
	t := fmt.Sprintf("Заказчик: %s, ИНН %s, КПП %s, реестровый номер %s", c.Name, c.INN, c.KPP, c.RegNum)
	return x, t
}

// revise returns the second version of a complaint: the applicant clarified
// its arguments.
func (b *builder) revise(c *tenderbase.Complaint) *tenderbase.Complaint {
	v := *c
	v.VersionNumber = 2
	v.DatePubl = c.DatePubl.Add(time.Duration(b.s.between(20, 50)) * time.Hour)
	v.Text = c.Text + " Дополнение: заявитель уточнил доводы жалобы и приложил сравнительную таблицу характеристик товара."
	return &v
}

// latest returns the newest version of the complaint.
func (l *lodged) latest() *tenderbase.Complaint { return l.versions[len(l.versions)-1] }
