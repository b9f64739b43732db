package eisdocs

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"
)

// Namespace is the namespace of the service's operations, for 44-FZ and
// 223-FZ alike (getDocsIP-ws-api.xsd).
const Namespace = "http://zakupki.gov.ru/fz44/get-docs-ip/ws"

// docRequest is one request of documents: by region, type and period, or by
// registry number.
type docRequest struct {
	region    string // two digits, "07"
	subsystem string // "PRIZ"
	docType   string // "epNotificationEF2020"
	law223    bool   // docType is a documentType223
	day       time.Time
	hour      int // 0-23 for one hour of day; -1 for the whole day
	number    string
}

// envelope writes the SOAP request of q. The schema's elements are
// unqualified (elementFormDefault="unqualified"): only the operation
// carries the namespace, and the service refuses a prefixed child (error
// 28). The token goes in the header as individualPerson_token, unqualified,
// as every public client sends it; the WSDL declares no header.
func envelope(q docRequest, token string, now time.Time) []byte {
	var b bytes.Buffer
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` +
		`<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:ws="` + Namespace + `">` +
		`<soapenv:Header>`)
	element(&b, "individualPerson_token", token)
	b.WriteString(`</soapenv:Header><soapenv:Body>`)
	op := "getDocsByOrgRegionRequest"
	if q.number != "" {
		op = "getDocsByReestrNumberRequest"
	}
	b.WriteString("<ws:" + op + "><index>")
	element(&b, "id", uuid.NewString())
	element(&b, "createDateTime", now.In(moscow).Format("2006-01-02T15:04:05"))
	element(&b, "mode", "PROD")
	b.WriteString("</index><selectionParams>")
	if q.number != "" {
		element(&b, "subsystemType", q.subsystem)
		element(&b, "reestrNumber", q.number)
	} else {
		selection(&b, q)
	}
	b.WriteString("</selectionParams></ws:" + op + "></soapenv:Body></soapenv:Envelope>")
	return b.Bytes()
}

// selection writes the selection of a request by region, in the order the
// schema gives: orgRegion, subsystemType, documentType44|223, periodInfo.
func selection(b *bytes.Buffer, q docRequest) {
	element(b, "orgRegion", q.region)
	element(b, "subsystemType", q.subsystem)
	if q.law223 {
		element(b, "documentType223", q.docType)
	} else {
		element(b, "documentType44", q.docType)
	}
	b.WriteString("<periodInfo>")
	day := q.day.In(moscow).Format(time.DateOnly)
	if q.hour < 0 {
		element(b, "exactDate", day)
	} else {
		b.WriteString("<oneHourInfo>")
		element(b, "date", day)
		element(b, "fromHour", fmt.Sprint(q.hour))
		element(b, "offsetTimeZone", "+03:00")
		b.WriteString("</oneHourInfo>")
	}
	b.WriteString("</periodInfo>")
}

func element(b *bytes.Buffer, name, value string) {
	b.WriteString("<" + name + ">")
	xml.EscapeText(b, []byte(value))
	b.WriteString("</" + name + ">")
}

// answer is what a response says: archives to download, none, or an error.
type answer struct {
	archives []string
	noData   bool
	errCode  int
	errText  string
}

// response is the SOAP response of either operation, read by local names:
// the service writes the operation with a prefix of its choosing.
type response struct {
	Body struct {
		Fault *struct {
			Code   string `xml:"faultcode"`
			String string `xml:"faultstring"`
		} `xml:"Fault"`
		Result *struct {
			XMLName  xml.Name
			DataInfo *struct {
				ArchiveURL []string `xml:"archiveUrl"`
				NoData     *string  `xml:"noData"`
				ErrorInfo  *struct {
					Code    int    `xml:"code"`
					Message string `xml:"message"`
				} `xml:"errorInfo"`
			} `xml:"dataInfo"`
		} `xml:",any"`
	} `xml:"Body"`
}

// parseAnswer reads a response. A response that does not parse, or that
// holds neither archives nor noData nor an error, is an error: the service
// was cut off or answered something else, and asking again may mend it.
func parseAnswer(body []byte) (answer, error) {
	var r response
	if err := xml.Unmarshal(body, &r); err != nil {
		return answer{}, fmt.Errorf("the answer is not the service's XML: %v", err)
	}
	if f := r.Body.Fault; f != nil {
		return answer{}, fmt.Errorf("SOAP fault %s: %s", strings.TrimSpace(f.Code), strings.TrimSpace(f.String))
	}
	if r.Body.Result == nil || r.Body.Result.DataInfo == nil {
		return answer{}, fmt.Errorf("the answer holds no dataInfo")
	}
	d := r.Body.Result.DataInfo
	var a answer
	for _, u := range d.ArchiveURL {
		if u = strings.TrimSpace(u); u != "" {
			a.archives = append(a.archives, u)
		}
	}
	switch {
	case d.ErrorInfo != nil:
		a.errCode, a.errText = d.ErrorInfo.Code, strings.TrimSpace(d.ErrorInfo.Message)
	case d.NoData != nil:
		a.noData = true
	case len(a.archives) == 0:
		return answer{}, fmt.Errorf("the answer's dataInfo holds no archiveUrl, noData or errorInfo")
	}
	return a, nil
}
