package demo

import (
	"bytes"
	"crypto/md5"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/tenderbase/tenderbase"
)

// The demo's torgi.gov.ru lots as the documents internal/source/torgi reads
// (its testdata): the open-data notice of each lot's notice, which names
// the organizer, under opendata/, and the lot's card of the public API
// (/lotcards/{id}), which gives the rest, under public/lotcards/. The two
// date a lot alike; the card, read after the notice as the folders sort,
// is the lot's latest state, and the notice adds the organizer.

// TorgiBorn reports whether r comes in as torgi.gov.ru documents.
func TorgiBorn(r tenderbase.Record) bool {
	l, ok := r.(*tenderbase.Lot)
	return ok && l.Source == tenderbase.LotSourceTorgi
}

// WriteTorgi returns the notice and the lot card of each torgi.gov.ru lot
// of recs.
func WriteTorgi(recs []tenderbase.Record) ([]File, error) {
	var files []File
	for _, r := range recs {
		if !TorgiBorn(r) {
			continue
		}
		l := r.(*tenderbase.Lot)
		notice, err := encodeJSON("opendata/"+l.NoticeNumber+".json", openDataNotice(l))
		if err != nil {
			return nil, fmt.Errorf("lot %s notice: %w", l.ID, err)
		}
		card, err := encodeJSON("public/lotcards/"+l.ID+".json", lotCard(l))
		if err != nil {
			return nil, fmt.Errorf("lot %s card: %w", l.ID, err)
		}
		files = append(files, notice, card)
	}
	return files, nil
}

// encodeJSON returns the file name holding v, indented.
func encodeJSON(name string, v any) (File, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", " ")
	if err := enc.Encode(v); err != nil {
		return File{}, err
	}
	return File{Name: name, Data: buf.Bytes()}, nil
}

// Where torgi.gov.ru serves the files of a card, and the type of a notice's
// file.
const (
	torgiFileStore  = "https://torgi.gov.ru/new/file-store/v1/"
	torgiNoticeFile = "Извещение"
)

// codeName is a reference value of torgi.gov.ru.
type codeName struct {
	Code string `json:"code"`
	Name string `json:"name,omitempty"`
}

// biddTypes are the bidding types of the demo's lots.
var biddTypes = map[string]codeName{
	"178FZ": {"178FZ", "Приватизация государственного и муниципального имущества"},
	"229FZ": {"229FZ", "Реализация имущества должников"},
}

// torgiCard is a lot card of the public API (/lotcards/{id}), its members in the
// order torgi.gov.ru gives them.
type torgiCard struct {
	ID                string     `json:"id"`
	LotName           string     `json:"lotName"`
	LotStatus         string     `json:"lotStatus"`
	BiddForm          codeName   `json:"biddForm"`
	NoticeNumber      string     `json:"noticeNumber"`
	LotNumber         int        `json:"lotNumber"`
	BiddType          codeName   `json:"biddType"`
	SubjectRFCode     string     `json:"subjectRFCode"`
	LotDescription    string     `json:"lotDescription"`
	PriceMin          float64    `json:"priceMin"`
	PriceMinExact     string     `json:"priceMinExact"`
	PriceStep         float64    `json:"priceStep"`
	PriceFin          float64    `json:"priceFin,omitempty"`
	LotAttachments    []cardFile `json:"lotAttachments"`
	NoticeAttachments []cardFile `json:"noticeAttachments"`
	Characteristics   []feature  `json:"characteristics"`
	CurrencyCode      string     `json:"currencyCode"`
	EtpCode           string     `json:"etpCode"`
	Category          codeName   `json:"category"`
	TimeZoneName      string     `json:"timeZoneName"`
	TimezoneOffset    string     `json:"timezoneOffset"`
	Deposit           float64    `json:"deposit"`
	EstateAddress     string     `json:"estateAddress,omitempty"`
	Attributes        []cardAttr `json:"attributes"`
	HasAppeals        bool       `json:"hasAppeals"`
	IsStopped         bool       `json:"isStopped"`
	AuctionStartDate  string     `json:"auctionStartDate"`
	BiddStartTime     string     `json:"biddStartTime"`
	BiddEndTime       string     `json:"biddEndTime"`
	FirstPublished    string     `json:"noticeFirstVersionPublicationDate"`
	IsAnnulled        bool       `json:"isAnnulled"`
	TypeTransaction   string     `json:"typeTransaction"`
}

// cardFile is a file of a lot or of its notice.
type cardFile struct {
	FileID     string `json:"fileId"`
	FileName   string `json:"fileName"`
	FileSize   int64  `json:"fileSize"`
	UploadDate string `json:"uploadDate"`
	TypeCode   string `json:"attachmentTypeCode,omitempty"`
	TypeName   string `json:"attachmentTypeName,omitempty"`
}

// feature is a characteristic of what a lot sells: the card gives its unit
// as unit, the open-data notice as OKEI.
type feature struct {
	Value any       `json:"characteristicValue"`
	Name  string    `json:"name"`
	Code  string    `json:"code"`
	Unit  *unitName `json:"unit,omitempty"`
	OKEI  *unitName `json:"OKEI,omitempty"`
	Type  string    `json:"type,omitempty"`
}

type unitName struct {
	Code   string `json:"code"`
	Name   string `json:"name"`
	Symbol string `json:"symbol,omitempty"`
}

// cardAttr is a dynamic attribute of a card, in the group of a lot's main
// information.
type cardAttr struct {
	Code      string    `json:"code"`
	FullName  string    `json:"fullName"`
	Value     string    `json:"value"`
	Type      string    `json:"attributeType"`
	Group     attrGroup `json:"group"`
	SortOrder int       `json:"sortOrder"`
}

type attrGroup struct {
	Code        string `json:"code"`
	Name        string `json:"name"`
	DisplayType string `json:"displayGroupType"`
}

// lotCard returns the card of l.
func lotCard(l *tenderbase.Lot) torgiCard {
	c := torgiCard{
		ID: l.ID, LotName: l.Title, LotStatus: l.SourceStatus, BiddForm: codeName{"EA", l.BiddingForm},
		NoticeNumber: l.NoticeNumber, LotNumber: l.LotNumber, BiddType: biddTypes[l.BiddingType],
		SubjectRFCode: strconv.Itoa(l.Region), LotDescription: l.Description,
		PriceMin: l.StartPrice, PriceMinExact: decimal(l.StartPrice), PriceStep: l.PriceStep,
		LotAttachments: []cardFile{}, NoticeAttachments: []cardFile{}, Characteristics: features(l, false),
		CurrencyCode: "643", EtpCode: l.Platform, Category: codeName{l.CategoryCode, l.Category},
		TimeZoneName: "МСК", TimezoneOffset: "180", Deposit: l.Deposit, EstateAddress: l.Address, Attributes: []cardAttr{},
		AuctionStartDate: utc(l.AuctionDate), BiddStartTime: utc(l.BiddingStart), BiddEndTime: utc(l.BiddingEnd),
		FirstPublished: utc(l.PublishedAt), TypeTransaction: "sale",
	}
	if l.Result != nil {
		c.PriceFin = l.Result.Price
	}
	for _, a := range l.Attachments {
		f := cardFile{FileID: strings.TrimPrefix(a.URL, torgiFileStore), FileName: a.FileName, FileSize: a.Size,
			UploadDate: utc(l.PublishedAt.Add(-time.Hour))}
		if a.Description == torgiNoticeFile {
			f.TypeCode, f.TypeName = "Notice_Document", a.Description
			c.NoticeAttachments = append(c.NoticeAttachments, f)
		} else {
			c.LotAttachments = append(c.LotAttachments, f)
		}
	}
	if l.BiddingType == "229FZ" {
		c.Attributes = seizedAttributes(l.Debtor.Name)
	}
	return c
}

// seizedAttributes are the attributes of a card of seized property: the
// basis of its sale and its owner.
func seizedAttributes(owner string) []cardAttr {
	group := attrGroup{"NL250", "5.3 Лот_основная_информация", "LOT"}
	return []cardAttr{
		{"DA_basis_EA(229)", "Основание реализации имущества", "Постановление СПИ о передаче арестованного имущества на торги", "Text(1000)", group, 1},
		{"DA_owner_EA(229)", "Собственник имущества", owner, "Text(100)", group, 2},
	}
}

// units are the units of the characteristics the demo gives, by symbol.
var units = map[string]unitName{squareMetre: {"055", "Квадратный метр", squareMetre}}

// features returns the characteristics of l: a number where it has a
// unit, with the unit as the card (unit) or the notice (OKEI) gives it.
func features(l *tenderbase.Lot, notice bool) []feature {
	out := []feature{}
	for _, p := range l.Properties {
		f := feature{Value: p.Value, Name: p.Name, Code: p.Code, Type: "Text(500)"}
		if u, ok := units[p.Unit]; ok {
			f.Value, f.Type = json.Number(p.Value), "Decimal"
			if notice {
				f.OKEI = &unitName{Code: u.Code, Name: u.Name}
			} else {
				f.Unit = &u
			}
		}
		if notice {
			f.Type = ""
		}
		out = append(out, f)
	}
	return out
}

// utc writes a time as the public API does: UTC, with milliseconds.
func utc(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

// exportNotice is an open-data document holding a notice.
type exportNotice struct {
	ExportObject struct {
		StructuredObject struct {
			Notice torgiNotice `json:"notice"`
		} `json:"structuredObject"`
	} `json:"exportObject"`
}

// torgiNotice is a notice of the open data, with its one lot.
type torgiNotice struct {
	SchemeVersion string `json:"schemeVersion"`
	ID            string `json:"id"`
	RootID        string `json:"rootId"`
	Version       int    `json:"version"`
	CommonInfo    struct {
		NoticeNumber  string   `json:"noticeNumber"`
		PublishDate   string   `json:"publishDate"`
		Href          string   `json:"href"`
		ProcedureName string   `json:"procedureName"`
		BiddType      codeName `json:"biddType"`
		BiddForm      codeName `json:"biddForm"`
		Etp           codeName `json:"etp"`
	} `json:"commonInfo"`
	BidderOrg struct {
		OrgInfo struct {
			Name          string `json:"name"`
			INN           string `json:"INN"`
			KPP           string `json:"KPP"`
			OGRN          string `json:"OGRN"`
			LegalAddress  string `json:"legalAddress"`
			ActualAddress string `json:"actualAddress"`
		} `json:"orgInfo"`
		ContactInfo struct {
			Person string `json:"contPerson"`
			Phone  string `json:"tel"`
			Email  string `json:"email"`
		} `json:"contactInfo"`
	} `json:"bidderOrg"`
	RightHolderInfo struct {
		IsOrganizer bool `json:"biddOrgRightHolder"`
	} `json:"rightHolderInfo"`
	BiddConditions struct {
		BiddStartTime string `json:"biddStartTime"`
		BiddEndTime   string `json:"biddEndTime"`
	} `json:"biddConditions"`
	TimeZone codeName         `json:"timeZone"`
	Lots     []torgiNoticeLot `json:"lots"`
}

// torgiNoticeLot is a lot of a notice; the open data writes its prices as
// strings.
type torgiNoticeLot struct {
	LotNumber      int      `json:"lotNumber"`
	LotStatus      string   `json:"lotStatus"`
	LotName        string   `json:"lotName"`
	LotDescription string   `json:"lotDescription"`
	PriceMin       string   `json:"priceMin"`
	PriceStep      string   `json:"priceStep"`
	Deposit        string   `json:"deposit"`
	Currency       codeName `json:"currency"`
	Object         struct {
		SubjectRF       codeName  `json:"subjectRF"`
		EstateAddress   string    `json:"estateAddress,omitempty"`
		Category        codeName  `json:"category"`
		Characteristics []feature `json:"characteristics"`
	} `json:"biddingObjectInfo"`
}

// procedureNames name the procedures of the demo's bidding types.
var procedureNames = map[string]string{
	"178FZ": "Продажа государственного имущества на электронном аукционе",
	"229FZ": "Реализация арестованного имущества на электронном аукционе",
}

// etpNames are the names of the platforms torgiPlatforms codes.
var etpNames = map[string]string{"ETP_RTS": "РТС-тендер", "ETP_MMVB": "ЭТП ММВБ"}

// openDataNotice returns the open-data notice of l's notice.
func openDataNotice(l *tenderbase.Lot) exportNotice {
	var doc exportNotice
	n := &doc.ExportObject.StructuredObject.Notice
	sum := md5.Sum([]byte("torgi notice " + l.NoticeNumber))
	n.SchemeVersion, n.Version = "3.1", 1
	n.ID = fmt.Sprintf("%x-%x-%x-%x-%x", sum[0:4], sum[4:6], sum[6:8], sum[8:10], sum[10:16])
	n.RootID = n.ID
	ci := &n.CommonInfo
	ci.NoticeNumber, ci.PublishDate = l.NoticeNumber, utc(l.PublishedAt)
	ci.Href = "https://torgi.gov.ru/new/public/notices/view/" + l.NoticeNumber
	ci.ProcedureName, ci.BiddType = procedureNames[l.BiddingType], biddTypes[l.BiddingType]
	ci.BiddForm, ci.Etp = codeName{"EA", l.BiddingForm}, codeName{l.Platform, etpNames[l.Platform]}
	o, org := &n.BidderOrg.OrgInfo, l.Organizer
	o.Name, o.INN, o.KPP, o.OGRN, o.LegalAddress, o.ActualAddress = org.Name, org.INN, org.KPP, org.OGRN, org.Address, org.Address
	c := &n.BidderOrg.ContactInfo
	c.Person, c.Phone, c.Email = org.Contact.Person, org.Contact.Phone, org.Contact.Email
	n.RightHolderInfo.IsOrganizer = true
	n.BiddConditions.BiddStartTime, n.BiddConditions.BiddEndTime = utc(l.BiddingStart), utc(l.BiddingEnd)
	n.TimeZone = codeName{"MSK", "МСК"}
	nl := torgiNoticeLot{LotNumber: l.LotNumber, LotStatus: l.SourceStatus, LotName: l.Title, LotDescription: l.Description,
		PriceMin: decimal(l.StartPrice), PriceStep: decimal(l.PriceStep), Deposit: decimal(l.Deposit),
		Currency: codeName{"643", "Российский рубль"}}
	nl.Object.SubjectRF = codeName{Code: strconv.Itoa(l.Region)}
	nl.Object.EstateAddress = l.Address
	nl.Object.Category = codeName{l.CategoryCode, l.Category}
	nl.Object.Characteristics = features(l, true)
	n.Lots = []torgiNoticeLot{nl}
	return doc
}
