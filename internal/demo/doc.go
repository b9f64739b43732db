package demo

import (
	"fmt"
	"strings"

	"github.com/tenderbase/tenderbase"
)

// docKinds are the files a notice publishes: file name, description, and
// whether the demo gives the file's extracted text.
var docKinds = []struct {
	File, Description string
	Text              bool
}{
	{"Описание объекта закупки.docx", "Описание объекта закупки (техническое задание)", true},
	{"Проект контракта.docx", "Проект государственного контракта", true},
	{"Обоснование НМЦК.xlsx", "Обоснование начальной (максимальной) цены контракта", false},
	{"Требования к содержанию и составу заявки.pdf", "Требования к содержанию, составу заявки на участие в закупке и инструкция по её заполнению", true},
	{"Локальный сметный расчёт.xlsx", "Смета на выполнение работ", false},
}

// attachDocs publishes two or three files with p and lists them as the
// attachments of every version.
func (b *builder) attachDocs(p *purchase) {
	s := b.s
	t := p.versions[0]
	n := s.between(2, 3)
	first := s.intn(len(docKinds))
	var atts []tenderbase.Attachment
	for i := range n {
		k := docKinds[(first+i)%len(docKinds)]
		d := &tenderbase.Doc{
			ID:             s.hex(32),
			PurchaseNumber: t.PurchaseNumber,
			TenderTitle:    t.Title,
			Customer:       p.customer.Party,
			Region:         t.Region,
			FileName:       k.File,
			Description:    k.Description,
			Size:           int64(s.between(18_000, 2_400_000)),
			PublishedAt:    t.PublishedAt,
		}
		d.URL = docURL(t.Law, d.ID)
		if k.Text {
			d.Text = docText(k.File, p)
		}
		b.docs = append(b.docs, d)
		atts = append(atts, tenderbase.Attachment{FileName: d.FileName, Description: d.Description, URL: d.URL, Size: d.Size})
	}
	for _, v := range p.versions {
		v.Attachments = atts
	}
}

func docURL(law, id string) string {
	if law == tenderbase.Law223 {
		return "https://zakupki.gov.ru/223/purchase/public/download/download.html?id=" + id
	}
	return "https://zakupki.gov.ru/44fz/filestore/public/1.0/download/priz/file.html?uid=" + id
}

// docText writes the opening of a document the way such files begin.
func docText(file string, p *purchase) string {
	t, c := p.versions[0], p.customer
	var objs []string
	for _, o := range t.Lots[0].Objects {
		objs = append(objs, fmt.Sprintf("%s (ОКПД2 %s) — %s %s", o.Name, o.OKPD2Code, formatQty(o.Quantity), o.Unit))
	}
	items := strings.Join(objs, "; ")
	switch {
	case strings.HasPrefix(file, "Описание"):
		return fmt.Sprintf("ОПИСАНИЕ ОБЪЕКТА ЗАКУПКИ. %s. Заказчик: %s. Наименование и количество: %s. "+
			"Товар должен быть новым, не бывшим в употреблении, не восстановленным. Место поставки: %s. "+
			"Срок гарантии — не менее 12 месяцев с даты подписания документа о приёмке.", t.Title, c.Name, items, c.Address)
	case strings.HasPrefix(file, "Проект"):
		return fmt.Sprintf("КОНТРАКТ № ___ г. %s «___» ________ 20__ г. %s, именуемое в дальнейшем «Заказчик», в лице %s, "+
			"действующего на основании Устава, с одной стороны, и ____________, именуемое в дальнейшем «Поставщик», с другой стороны, "+
			"заключили настоящий контракт о нижеследующем: 1. Предмет контракта. %s.", c.Region.City, c.Name, c.Head, t.Title)
	}
	return fmt.Sprintf("Заявка на участие в закупке № %s должна содержать: информацию и документы об участнике закупки; "+
		"предложение участника в отношении объекта закупки (%s); документы, подтверждающие соответствие требованиям "+
		"статьи 31 Федерального закона от 05.04.2013 № 44-ФЗ.", t.PurchaseNumber, items)
}

// formatQty prints a quantity the Russian way, with a decimal comma.
func formatQty(q float64) string {
	return strings.ReplaceAll(fmt.Sprintf("%g", q), ".", ",")
}
