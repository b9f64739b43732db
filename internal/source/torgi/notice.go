package torgi

import (
	"encoding/json"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/source/jsonread"
)

// exportObject is an open-data document: its structuredObject holds one
// member named by the document's type (notice, noticeCancel, ...).
type exportObject struct {
	StructuredObject map[string]json.RawMessage `json:"structuredObject"`
}

// decode reads the lots of a notice. The other documents of the notice
// data set (noticeCancel, noticeStop, noticeResumption, clarifications,
// noticeAnnulment) have no published shape, and are refused with a word
// saying so: the entries of the daily lists for the first four are read as
// lot events instead (docs/torgi.md).
func (e *exportObject) decode(emit func(line int, rec tenderbase.Record, err error) error) error {
	raw, ok := e.StructuredObject["notice"]
	if !ok {
		for kind := range e.StructuredObject {
			return emit(0, nil, tenderbase.Errorf(tenderbase.EINVALID,
				"a torgi.gov.ru %s document names a notice, not its lots: only notices (structuredObject.notice) are read; "+
					"a cancellation, stop, resumption or annulment is read from its entry in the daily list", kind))
		}
		return emit(0, nil, tenderbase.Errorf(tenderbase.EINVALID, "a torgi.gov.ru open-data document without a structuredObject"))
	}
	var n notice
	if err := json.Unmarshal(raw, &n); err != nil {
		return emit(0, nil, tenderbase.Errorf(tenderbase.EINVALID, "torgi.gov.ru notice does not parse: %v", err))
	}
	if n.Common.NoticeNumber == "" {
		return emit(0, nil, tenderbase.Errorf(tenderbase.EINVALID, "torgi.gov.ru notice without commonInfo.noticeNumber"))
	}
	if len(n.Lots) == 0 {
		return emit(0, nil, errNoLots(n.Common.NoticeNumber))
	}
	for i, nl := range n.Lots {
		if err := emit(i+1, n.lot(nl, i+1), nil); err != nil {
			return err
		}
	}
	return nil
}

// notice is a notice of the open data.
type notice struct {
	Common struct {
		NoticeNumber  string   `json:"noticeNumber"`
		PublishDate   string   `json:"publishDate"`
		Href          string   `json:"href"`
		BiddType      codeName `json:"biddType"`
		BiddForm      codeName `json:"biddForm"`
		ProcedureName string   `json:"procedureName"`
		Etp           codeName `json:"etp"`
	} `json:"commonInfo"`
	BidderOrg struct {
		OrgInfo     orgInfo `json:"orgInfo"`
		ContactInfo struct {
			Person string `json:"contPerson"`
			Phone  string `json:"tel"`
			Email  string `json:"email"`
		} `json:"contactInfo"`
	} `json:"bidderOrg"`
	RightHolder struct {
		IsOrganizer bool    `json:"biddOrgRightHolder"`
		Org         orgInfo `json:"rightHolderOrg"`
	} `json:"rightHolderInfo"`
	Conditions struct {
		BiddStartTime string `json:"biddStartTime"`
		BiddEndTime   string `json:"biddEndTime"`
	} `json:"biddConditions"`
	Lots []noticeLot `json:"lots"`
}

// orgInfo is an organization of a notice: the organizer or the right
// holder. The open data writes INN, KPP and OGRN in capitals.
type orgInfo struct {
	Name          string `json:"name"`
	INN           string `json:"INN"`
	KPP           string `json:"KPP"`
	OGRN          string `json:"OGRN"`
	LegalAddress  string `json:"legalAddress"`
	ActualAddress string `json:"actualAddress"`
}

func (o orgInfo) party() tenderbase.Party {
	return tenderbase.Party{INN: clean(o.INN), KPP: clean(o.KPP), OGRN: clean(o.OGRN), Name: clean(o.Name),
		Address: clean(first(o.LegalAddress, o.ActualAddress))}
}

// noticeLot is a lot of a notice. Its prices are strings in the open data.
type noticeLot struct {
	LotNumber      int             `json:"lotNumber"`
	LotStatus      string          `json:"lotStatus"`
	LotName        string          `json:"lotName"`
	LotDescription string          `json:"lotDescription"`
	PriceMin       jsonread.Number `json:"priceMin"`
	PriceStep      jsonread.Number `json:"priceStep"`
	Deposit        jsonread.Number `json:"deposit"`
	Currency       codeName        `json:"currency"`
	Object         struct {
		SubjectRF       codeName         `json:"subjectRF"`
		EstateAddress   string           `json:"estateAddress"`
		Category        codeName         `json:"category"`
		Characteristics []characteristic `json:"characteristics"`
	} `json:"biddingObjectInfo"`
}

// lot returns the lot nl of the notice; a lot without its number is
// numbered by its place.
func (n *notice) lot(nl noticeLot, place int) *tenderbase.Lot {
	number := nl.LotNumber
	if number == 0 {
		number = place
	}
	c := n.Common
	organizer := n.BidderOrg.OrgInfo.party()
	ci := n.BidderOrg.ContactInfo
	organizer.Contact = tenderbase.Contact{Person: clean(ci.Person), Phone: clean(ci.Phone), Email: clean(ci.Email)}
	l := &tenderbase.Lot{
		ID:           lotID(c.NoticeNumber, number),
		Source:       tenderbase.LotSourceTorgi,
		NoticeNumber: c.NoticeNumber,
		LotNumber:    number,
		Title:        clean(first(nl.LotName, nl.LotDescription)),
		Description:  clean(nl.LotDescription),
		Category:     clean(nl.Object.Category.Name),
		CategoryCode: nl.Object.Category.Code,
		BiddingType:  c.BiddType.Code,
		BiddingForm:  clean(c.BiddForm.Name),
		SourceStatus: nl.LotStatus,
		Status:       state(nl.LotStatus, false),
		Region:       region(nl.Object.SubjectRF.Code),
		Address:      clean(nl.Object.EstateAddress),
		StartPrice:   float64(nl.PriceMin),
		Deposit:      float64(nl.Deposit),
		PriceStep:    float64(nl.PriceStep),
		Currency:     currency(nl.Currency.Code),
		Organizer:    organizer,
		Platform:     c.Etp.Code,
		Properties:   properties(nl.Object.Characteristics),
		PublishedAt:  parseTime(c.PublishDate),
		BiddingStart: parseTime(n.Conditions.BiddStartTime),
		BiddingEnd:   parseTime(n.Conditions.BiddEndTime),
		URL:          first(clean(c.Href), "https://torgi.gov.ru/new/public/notices/view/"+c.NoticeNumber),
	}
	if !n.RightHolder.IsOrganizer {
		l.Holder = n.RightHolder.Org.party()
	}
	if l.Description == l.Title {
		l.Description = ""
	}
	l.Result = result(nl.LotStatus, 0)
	return l
}
