package demo

import (
	"fmt"
	"time"

	"github.com/tenderbase/tenderbase"
)

// decisions say what the commission decided, by result.
var decisions = map[string]string{
	resultViolations: "Признать жалобу %s обоснованной. Признать в действиях заказчика нарушение части 2 статьи 33 и пункта 1 части 1 статьи 42 " +
		"Федерального закона от 05.04.2013 № 44-ФЗ. Выдать заказчику предписание об устранении нарушений.",
	resultPartlyValid: "Признать жалобу %s частично обоснованной. Признать в действиях комиссии по осуществлению закупок нарушение " +
		"пункта 1 части 5 статьи 49 Закона о контрактной системе. Выдать предписание об устранении нарушений.",
	resultNoViolations: "Признать жалобу %s необоснованной. Нарушений законодательства о контрактной системе в действиях заказчика не выявлено.",
}

// buildResults decides up to n of the lodged complaints. The first decided
// complaint is checked twice, so that one complaint has two results and its
// resultFAS follows the later one; its first result is withdrawn, as a court
// set it aside before the second check.
func (b *builder) buildResults(n int) {
	outcomes := []string{resultNoViolations, resultViolations, resultPartlyValid, resultNoViolations}
	for i, l := range b.lodged {
		if len(b.results) >= n {
			break
		}
		at := l.latest().DatePubl.AddDate(0, 0, b.s.between(5, 8))
		if at.After(lastDay) {
			continue
		}
		r := b.result(l, outcomes[i%len(outcomes)], at)
		b.results = append(b.results, r)
		if i == 0 {
			b.results = append(b.results, b.result(l, resultPartlyValid, at.AddDate(0, 0, 21)))
			b.withdrawals = append(b.withdrawals, withdrawal(r))
		}
	}
	b.settleComplaints()
}

func (b *builder) result(l *lodged, outcome string, at time.Time) *tenderbase.ComplaintResult {
	s, c, p := b.s, l.latest(), l.purchase
	t := p.versions[0]
	decision := fmt.Sprintf("%03d/06/106-%d/%d", p.customer.Region.Code, s.between(1000, 99999), at.Year())
	r := &tenderbase.ComplaintResult{
		CheckResultNumber:    fmt.Sprintf("%d%08d", at.Year(), s.between(1, 99_999_999)),
		ComplaintNumber:      c.ComplaintNumber,
		ComplaintID:          c.ComplaintID,
		RegNumber:            fmt.Sprintf("%d%03d%08d", at.Year(), p.customer.Region.Code, s.between(1, 99_999_999)),
		DocNumber:            "РКЖ-" + pad(s.between(1, 9999), 4),
		CreateDate:           at.Add(-2 * time.Hour),
		PublishDate:          at,
		OwnerRegNum:          p.customer.RegNum,
		OwnerFullName:        p.customer.Name,
		OwnerINN:             p.customer.INN,
		OwnerKPP:             p.customer.KPP,
		ComplaintRegNumber:   c.RegNum,
		ComplaintPublishDate: l.versions[0].DatePubl,
		SubjectFullName:      l.applicant.Name,
		SubjectShortName:     l.applicant.ShortName,
		SubjectINN:           l.applicant.INN,
		SubjectKPP:           l.applicant.KPP,
		SubjectOKPO:          s.digits(8),
		SubjectAddress:       l.applicant.Address,
		PurchaseNumber:       t.PurchaseNumber,
		PurchaseCode:         purchaseCode(p, t),
		PurchaseName:         t.Title,
		PurchasePlacingDate:  t.PublishedAt,
		DecisionNumber:       decision,
		DecisionDate:         at.Add(-26 * time.Hour),
		DecisionText:         fmt.Sprintf(decisions[outcome], l.applicant.ShortName),
		ComplaintResult:      outcome,
		IsGISNR:              at.Year() >= 2025,
	}
	r.AttachmentFileName = "Решение по жалобе № " + decision + ".pdf"
	r.AttachmentDocDescription = "Решение комиссии " + l.office.ShortName + " по жалобе " + l.applicant.ShortName
	r.AttachmentDocNumber = decision
	r.AttachmentURL = "https://zakupki.gov.ru/controlfilestore/download?uid=" + s.hex(32)
	r.PrintFormURL = "https://zakupki.gov.ru/epz/complaint/printForm/checkResult.html?id=" + s.digits(8)
	if outcome != resultNoViolations {
		b.prescribe(r, at)
	}
	return r
}

// prescribe adds the order that comes with a complaint found valid.
func (b *builder) prescribe(r *tenderbase.ComplaintResult, at time.Time) {
	r.PrescriptionNumber = r.DecisionNumber + "-П"
	r.PrescriptionDate = r.DecisionDate
	r.PrescriptionText = "Заказчику, комиссии по осуществлению закупок отменить протоколы, составленные в ходе определения поставщика, " +
		"внести изменения в извещение об осуществлении закупки и продлить срок подачи заявок не менее чем на 15 дней."
	r.PrescriptionAttachmentFileName = "Предписание № " + r.PrescriptionNumber + ".pdf"
	r.PrescriptionAttachmentDocDescription = "Предписание об устранении нарушений законодательства о контрактной системе"
	r.PrescriptionAttachmentDocNumber = r.PrescriptionNumber
	r.PrescriptionAttachmentURL = "https://zakupki.gov.ru/controlfilestore/download?uid=" + b.s.hex(32)
}

// purchaseCode returns the 36-digit identification code of a purchase: the
// year, the customer's INN and KPP, plan and order positions, the OKPD2
// group and the expense type.
func purchaseCode(p *purchase, t *tenderbase.Tender) string {
	okpd := t.Lots[0].Objects[0].OKPD2Code
	group := okpd[0:2] + okpd[3:5]
	return fmt.Sprintf("%02d%s%s0%04d%03d%s244", t.PublishedAt.Year()%100, p.customer.INN, p.customer.KPP,
		int(t.PublishedAt.YearDay()), len(t.PurchaseNumber)*7%1000, group)
}

// settleComplaints sets resultFAS of every version of a complaint to the
// result of its latest check that was not withdrawn, as the export shows it.
func (b *builder) settleComplaints() {
	latest := map[string]*tenderbase.ComplaintResult{}
	for _, r := range b.standing() {
		if prev := latest[r.ComplaintNumber]; prev == nil || r.PublishDate.After(prev.PublishDate) {
			latest[r.ComplaintNumber] = r
		}
	}
	for _, l := range b.lodged {
		if r := latest[l.versions[0].ComplaintNumber]; r != nil {
			for _, v := range l.versions {
				v.ResultFAS = r.ComplaintResult
			}
		}
	}
}
