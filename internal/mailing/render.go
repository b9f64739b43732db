package mailing

import (
	"bytes"
	"fmt"
	htmltemplate "html/template"
	"net/url"
	"strings"
	texttemplate "text/template"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/email"
)

// news are what a mailing of new records of each resource says they
// are, in Russian, in the forms that follow 1, 2-4 and 5 and more.
var news = map[string][3]string{
	"ru":        {"новая закупка", "новые закупки", "новых закупок"},
	"world":     {"новая закупка", "новые закупки", "новых закупок"},
	"docs":      {"новый документ", "новых документа", "новых документов"},
	"contracts": {"новый контракт", "новых контракта", "новых контрактов"},
	"torgi":     {"новый лот", "новых лота", "новых лотов"},
	"rnp":       {"новая запись РНП", "новые записи РНП", "новых записей РНП"},
	"plans":     {"новая позиция в планах закупок", "новые позиции в планах закупок", "новых позиций в планах закупок"},
}

// tenders are the forms of "закупка" after a number.
var tenders = [3]string{"закупка", "закупки", "закупок"}

// plural returns n with the form Russian puts after it.
func plural(n int, forms [3]string) string {
	form := forms[2]
	switch n10, n100 := n%10, n%100; {
	case n10 == 1 && n100 != 11:
		form = forms[0]
	case n10 >= 2 && n10 <= 4 && (n100 < 12 || n100 > 14):
		form = forms[1]
	}
	return fmt.Sprintf("%d %s", n, form)
}

// subject returns the subject line of m.
func subject(m tenderbase.Mailing) string {
	if m.Type == tenderbase.MailingWinners {
		return fmt.Sprintf("«%s»: определены победители, %s", m.Name, plural(len(m.Items), tenders))
	}
	return fmt.Sprintf("«%s»: %s%s", m.Name, plural(len(m.Items), news[m.Resource]), over[m.Schedule])
}

// over says what time a digest covers.
var over = map[string]string{tenderbase.ScheduleDaily: " за день", tenderbase.ScheduleWeekly: " за неделю"}

// letter is what the templates of an e-mail read.
type letter struct {
	Mailing     tenderbase.Mailing
	Heading     string
	Unsubscribe string
}

var textLetter = texttemplate.Must(texttemplate.New("text").Funcs(texttemplate.FuncMap{"inc": func(i int) int { return i + 1 }}).Parse(`{{.Heading}}
{{range $i, $item := .Mailing.Items}}
{{$i | inc}}. {{$item.Title}}
{{- range $item.Facts}}
   {{.}}{{end}}
{{- if $item.URL}}
   {{$item.URL}}{{end}}
{{end}}
--
Подписка «{{.Mailing.Name}}»{{if .Mailing.Branch}} ({{.Mailing.Branch}}){{end}}, Tenderbase.
{{- if .Unsubscribe}}
Отписаться: {{.Unsubscribe}}{{end}}
`))

var htmlLetter = htmltemplate.Must(htmltemplate.New("html").Parse(`<!DOCTYPE html>
<html lang="ru"><head><meta charset="utf-8"><title>{{.Heading}}</title></head>
<body style="font-family: Arial, sans-serif; font-size: 14px; color: #222">
<h2 style="font-size: 18px">{{.Heading}}</h2>
{{range .Mailing.Items}}<div style="margin: 0 0 16px 0">
<div style="font-weight: bold">{{if .URL}}<a href="{{.URL}}">{{.Title}}</a>{{else}}{{.Title}}{{end}}</div>
{{range .Facts}}<div>{{.}}</div>
{{end}}</div>
{{end}}<hr>
<p style="color: #666; font-size: 12px">Подписка «{{.Mailing.Name}}»{{if .Mailing.Branch}} ({{.Mailing.Branch}}){{end}}, Tenderbase.
{{if .Unsubscribe}}<a href="{{.Unsubscribe}}">Отписаться</a>{{end}}</p>
</body></html>
`))

// render returns the e-mail of delivery d to recipient; unsubscribe is
// its link, "" when the service has no public address to make one.
func render(d tenderbase.Delivery, recipient, unsubscribe string) (email.Message, error) {
	m := d.Mailing
	l := letter{Mailing: m, Heading: subject(m), Unsubscribe: unsubscribe}
	var text, html bytes.Buffer
	if err := textLetter.Execute(&text, l); err != nil {
		return email.Message{}, fmt.Errorf("render the text of %s: %w", d.ID, err)
	}
	if err := htmlLetter.Execute(&html, l); err != nil {
		return email.Message{}, fmt.Errorf("render the HTML of %s: %w", d.ID, err)
	}
	return email.Message{
		To: recipient, Subject: "Tenderbase · " + subject(m), Text: text.String(), HTML: html.String(),
		ID: d.ID + "@tenderbase", Unsubscribe: unsubscribe,
	}, nil
}

// unsubscribeURL returns the one-click link that takes recipient off sub,
// under the service's public address base; "" without one.
func unsubscribeURL(base string, sub tenderbase.Subscription, recipient string) string {
	if base == "" {
		return ""
	}
	q := url.Values{"s": {sub.ID}, "r": {recipient}, "t": {tenderbase.UnsubscribeToken(sub.Secret, recipient)}}
	return strings.TrimRight(base, "/") + "/unsubscribe?" + q.Encode()
}
