package httpserver

import (
	"crypto/subtle"
	"html/template"
	"net/http"

	"github.com/tenderbase/tenderbase"
)

// unsubscribePage is what a person who follows an unsubscribe link reads:
// a button to confirm, the outcome, or why the link does not work. A GET
// changes nothing, since mail scanners open links; the mail client's
// one-click POST (RFC 8058) and the button unsubscribe.
var unsubscribePage = template.Must(template.New("unsubscribe").Parse(`<!DOCTYPE html>
<html lang="ru"><head><meta charset="utf-8"><title>Tenderbase: отписка</title></head>
<body style="font-family: Arial, sans-serif; font-size: 15px; max-width: 40em; margin: 3em auto">
{{if .Done}}<p>Адрес {{.Recipient}} отписан от рассылки «{{.Name}}». Писем по ней больше не будет.</p>
{{else if .Confirm}}<p>Отписать {{.Recipient}} от рассылки «{{.Name}}»?</p>
<form method="post"><button type="submit">Отписаться</button></form>
{{else}}<p>Эта ссылка для отписки недействительна: рассылки уже нет, или адрес уже отписан.</p>{{end}}
</body></html>
`))

// unsubscribe answers the unsubscribe link of a mailing:
// /unsubscribe?s=<subscription>&r=<recipient>&t=<token>.
func (s *Server) unsubscribe(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	id, recipient, token := q.Get("s"), q.Get("r"), q.Get("t")
	page := struct {
		Name, Recipient string
		Confirm, Done   bool
	}{Recipient: recipient}
	status := http.StatusNotFound
	sub, err := s.cfg.Subscriptions.Subscription(r.Context(), id)
	switch {
	case tenderbase.ErrorCode(err) == tenderbase.ENOTFOUND:
	case err != nil:
		s.writeError(w, r, err)
		return
	case subtle.ConstantTimeCompare([]byte(tenderbase.UnsubscribeToken(sub.Secret, recipient)), []byte(token)) != 1:
	case r.Method == http.MethodGet:
		page.Name, page.Confirm, status = sub.Name, true, http.StatusOK
	default:
		err := s.cfg.Subscriptions.RemoveRecipient(r.Context(), id, recipient)
		if err != nil && tenderbase.ErrorCode(err) != tenderbase.ENOTFOUND {
			s.writeError(w, r, err)
			return
		}
		// Unsubscribed now or before: either way the recipient is off it.
		page.Name, page.Done, status = sub.Name, true, http.StatusOK
		s.logger.InfoContext(r.Context(), "unsubscribed by link", "subscription", id)
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	if err := unsubscribePage.Execute(w, page); err != nil {
		s.logger.WarnContext(r.Context(), "write the unsubscribe page", "err", err)
	}
}
