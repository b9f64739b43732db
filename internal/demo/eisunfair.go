package demo

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/xml"
	"fmt"
	"strings"
	"time"

	"github.com/tenderbase/tenderbase"
)

// The demo's register of unfair suppliers as EIS XML: a 44-FZ entry as an
// unfairSupplier2022 in an <export> and, when it was taken out, the
// unfairSupplier2022Exclude that says so; a 223-FZ entry as a
// dishonestSupplier of its own root.

// Namespaces of the documents of the register.
const (
	nsKOTypes     = "http://zakupki.gov.ru/oos/KOTypes/1"
	nsCommonTypes = "http://zakupki.gov.ru/oos/common/1"
	nsDishonest   = "http://zakupki.gov.ru/223fz/dishonestSupplier/1"
	ns223Types    = "http://zakupki.gov.ru/223fz/types/1"
)

// unfair2022Wire is an unfairSupplier2022.
type unfair2022Wire struct {
	XMLName       xml.Name `xml:"http://zakupki.gov.ru/oos/export/1 unfairSupplier2022"`
	SchemeVersion string   `xml:"schemeVersion,attr"`
	UUID          string   `xml:"http://zakupki.gov.ru/oos/KOTypes/1 uuid"`
	CommonInfo    struct {
		RegNumber     string `xml:"http://zakupki.gov.ru/oos/KOTypes/1 regNumber"`
		VersionNumber int    `xml:"http://zakupki.gov.ru/oos/KOTypes/1 versionNumber"`
		PublishDT     string `xml:"http://zakupki.gov.ru/oos/KOTypes/1 publishDT"`
		FirstDT       string `xml:"http://zakupki.gov.ru/oos/KOTypes/1 firstVersionPublishDT"`
		ReasonDate    string `xml:"http://zakupki.gov.ru/oos/KOTypes/1 occurrenceReasonDate,omitempty"`
		AppealDate    string `xml:"http://zakupki.gov.ru/oos/KOTypes/1 appealSubmissionDate,omitempty"`
	} `xml:"http://zakupki.gov.ru/oos/KOTypes/1 commonInfo"`
	ApproveOrg struct {
		RegNum   string `xml:"http://zakupki.gov.ru/oos/common/1 regNum"`
		FullName string `xml:"http://zakupki.gov.ru/oos/common/1 fullName"`
	} `xml:"http://zakupki.gov.ru/oos/KOTypes/1 approveOrgInfo"`
	CreateReason struct {
		Code string `xml:"http://zakupki.gov.ru/oos/KOTypes/1 createReason"`
	} `xml:"http://zakupki.gov.ru/oos/KOTypes/1 createReasonInfo"`
	SupplierInfo unfairSupplierKO `xml:"http://zakupki.gov.ru/oos/KOTypes/1 unfairSupplierInfo"`
	AutoExDate   struct {
		Date string `xml:"http://zakupki.gov.ru/oos/KOTypes/1 autoExDate"`
	} `xml:"http://zakupki.gov.ru/oos/KOTypes/1 autoExDateInfo"`
	PrintForm struct {
		URL string `xml:"http://zakupki.gov.ru/oos/common/1 url"`
	} `xml:"http://zakupki.gov.ru/oos/KOTypes/1 printFormInfo"`
}

// unfairSupplierKO is the unfairSupplierInfo: one of the forms of the
// supplier, then the persons included with it.
type unfairSupplierKO struct {
	LegalEntity *koSubjectRNP  `xml:"http://zakupki.gov.ru/oos/KOTypes/1 legalEntityRFInfo"`
	Person      *koSubjectRNP  `xml:"http://zakupki.gov.ru/oos/KOTypes/1 individualPersonRFInfo"`
	Founders    []koFounderRNP `xml:"http://zakupki.gov.ru/oos/KOTypes/1 founders"`
}

type koSubjectRNP struct {
	FullName  string `xml:"http://zakupki.gov.ru/oos/KOTypes/1 fullName"`
	ShortName string `xml:"http://zakupki.gov.ru/oos/KOTypes/1 shortName,omitempty"`
	INN       string `xml:"http://zakupki.gov.ru/oos/KOTypes/1 INN"`
	KPP       string `xml:"http://zakupki.gov.ru/oos/KOTypes/1 KPP,omitempty"`
}

// koFounderRNP is a person included with the supplier; the demo knows no
// INN of a head, which the scheme then marks as unknown.
type koFounderRNP struct {
	FullName string `xml:"http://zakupki.gov.ru/oos/KOTypes/1 fullName"`
	NoINN    bool   `xml:"http://zakupki.gov.ru/oos/KOTypes/1 incorrectINNOrTaxPayerCode"`
	Type     struct {
		Code string `xml:"http://zakupki.gov.ru/oos/KOTypes/1 code"`
		Name string `xml:"http://zakupki.gov.ru/oos/KOTypes/1 name"`
	} `xml:"http://zakupki.gov.ru/oos/KOTypes/1 type"`
}

// unfairExclude2022Wire is an unfairSupplier2022Exclude.
type unfairExclude2022Wire struct {
	XMLName       xml.Name `xml:"http://zakupki.gov.ru/oos/export/1 unfairSupplier2022Exclude"`
	SchemeVersion string   `xml:"schemeVersion,attr"`
	UUID          string   `xml:"http://zakupki.gov.ru/oos/KOTypes/1 uuid"`
	Entry         struct {
		UUID          string `xml:"http://zakupki.gov.ru/oos/KOTypes/1 uuid"`
		RegNumber     string `xml:"http://zakupki.gov.ru/oos/KOTypes/1 regNumber"`
		VersionNumber int    `xml:"http://zakupki.gov.ru/oos/KOTypes/1 versionNumber"`
	} `xml:"http://zakupki.gov.ru/oos/KOTypes/1 unfairSupplier2022ForExcludeInfo"`
	CommonInfo struct {
		ExcludeDT   string `xml:"http://zakupki.gov.ru/oos/KOTypes/1 excludeDT"`
		ExcludeType string `xml:"http://zakupki.gov.ru/oos/KOTypes/1 excludeType"`
	} `xml:"http://zakupki.gov.ru/oos/KOTypes/1 commonInfo"`
}

// founderKO returns a person included with the supplier.
func founderKO(f tenderbase.UnfairPerson) koFounderRNP {
	k := koFounderRNP{FullName: f.Name, NoINN: true}
	k.Type.Code, k.Type.Name = f.TypeCode, f.Type
	return k
}

// unfairFiles returns the documents of entry u: the entry, and the
// exclusion that took it out, if any.
func unfairFiles(u *tenderbase.UnfairSupplier) ([]File, error) {
	if u.Law == tenderbase.Law223 {
		f, err := dishonestSupplierFile(u)
		return []File{f}, err
	}
	entry, err := unfair2022File(u)
	if err != nil || u.Exclusion == nil {
		return []File{entry}, err
	}
	x := &unfairExclude2022Wire{SchemeVersion: "14.1", UUID: documentUUID(u.RegistryNumber, "exclude")}
	x.CommonInfo.ExcludeDT, x.CommonInfo.ExcludeType = eisTime(u.Exclusion.Date), u.Exclusion.Type
	x.Entry.UUID, x.Entry.RegNumber, x.Entry.VersionNumber = documentUUID(u.RegistryNumber, "entry"), u.RegistryNumber, u.Version
	exclusion, err := encodeEIS(fmt.Sprintf("unfairSupplier2022Exclude_%s.xml", u.RegistryNumber), eisExport{Document: x})
	return []File{entry, exclusion}, err
}

// unfair2022File returns 44-FZ entry u.
func unfair2022File(u *tenderbase.UnfairSupplier) (File, error) {
	w := &unfair2022Wire{SchemeVersion: "14.1", UUID: documentUUID(u.RegistryNumber, "entry")}
	w.CreateReason.Code, w.AutoExDate.Date, w.PrintForm.URL = u.Reason, u.ExcludeOn, u.URL
	ci := &w.CommonInfo
	ci.RegNumber, ci.VersionNumber = u.RegistryNumber, u.Version
	ci.PublishDT, ci.FirstDT = eisTime(u.PublishedAt), eisTime(u.IncludedAt)
	ci.ReasonDate, ci.AppealDate = u.ReasonDate, u.ApplicationDate
	w.ApproveOrg.RegNum, w.ApproveOrg.FullName = u.PublishOrg.RegNum, u.PublishOrg.Name
	s := &koSubjectRNP{FullName: u.Supplier.Name, ShortName: u.Supplier.ShortName, INN: u.Supplier.INN, KPP: u.Supplier.KPP}
	if u.Supplier.Type == "P" {
		w.SupplierInfo.Person = s
	} else {
		w.SupplierInfo.LegalEntity = s
	}
	for _, f := range u.Founders {
		w.SupplierInfo.Founders = append(w.SupplierInfo.Founders, founderKO(f))
	}
	return encodeEIS(fmt.Sprintf("unfairSupplier2022_%s_%d.xml", u.RegistryNumber, u.Version), eisExport{Document: w})
}

// dishonestSupplierWire is a 223-FZ dishonestSupplier with one item.
type dishonestSupplierWire struct {
	XMLName xml.Name `xml:"http://zakupki.gov.ru/223fz/dishonestSupplier/1 dishonestSupplier"`
	Header  struct {
		GUID    string `xml:"http://zakupki.gov.ru/223fz/types/1 guid"`
		Created string `xml:"http://zakupki.gov.ru/223fz/types/1 createDateTime"`
	} `xml:"http://zakupki.gov.ru/223fz/types/1 header"`
	Item struct {
		GUID string        `xml:"http://zakupki.gov.ru/223fz/types/1 guid"`
		Data dishonestData `xml:"http://zakupki.gov.ru/223fz/dishonestSupplier/1 dishonestSupplierData"`
	} `xml:"http://zakupki.gov.ru/223fz/dishonestSupplier/1 body>item"`
}

type dishonestData struct {
	GUID   string `xml:"guid"`
	Placer struct {
		Main mainInfo223 `xml:"http://zakupki.gov.ru/223fz/types/1 mainInfo"`
	} `xml:"placer"`
	RegNumber         string          `xml:"registrationNumber"`
	Version           int             `xml:"version"`
	Status            string          `xml:"status"`
	URL               string          `xml:"urlEIS"`
	Published         string          `xml:"publicationDateTime"`
	Created           string          `xml:"createDateTime"`
	ApplicationNumber string          `xml:"applicationNumber"`
	IncludeReasonInfo string          `xml:"includeReasonInfo"`
	Application       dishonestCommon `xml:"commonApplicationInfo"`
	ApproveStatus     string          `xml:"approveStatus"`
	IncludeDate       string          `xml:"includeDate"`
}

// mainInfo223 is a customerMainInfoType: its elements are of the types
// namespace.
type mainInfo223 struct {
	FullName string `xml:"http://zakupki.gov.ru/223fz/types/1 fullName"`
	INN      string `xml:"http://zakupki.gov.ru/223fz/types/1 inn"`
	KPP      string `xml:"http://zakupki.gov.ru/223fz/types/1 kpp"`
}

type dishonestCommon struct {
	IncludeReason string      `xml:"includeReason"`
	ControlAgency mainInfo223 `xml:"controlAgency"`
	TopSecret     bool        `xml:"topSecret"`
	Supplier      struct {
		Name    string `xml:"name"`
		INN     string `xml:"inn"`
		KPP     string `xml:"kpp,omitempty"`
		Address struct {
			Zip    string `xml:"http://zakupki.gov.ru/223fz/types/1 zip"`
			Street string `xml:"http://zakupki.gov.ru/223fz/types/1 street"`
		} `xml:"address"`
	} `xml:"supplier"`
}

// reasons223 are the 223-FZ codes of the reasons the demo gives.
var reasons223 = map[string]string{"WINNER_DEVIATION": "WD"}

// dishonestSupplierFile returns 223-FZ entry u.
func dishonestSupplierFile(u *tenderbase.UnfairSupplier) (File, error) {
	w := &dishonestSupplierWire{}
	created := eisLocal(u.PublishedAt.Add(-5 * time.Minute))
	w.Header.GUID, w.Header.Created = documentUUID(u.RegistryNumber, "packet"), created
	w.Item.GUID = documentUUID(u.RegistryNumber, "item")
	org := mainInfo223{FullName: u.PublishOrg.Name, INN: u.PublishOrg.INN, KPP: u.PublishOrg.KPP}
	w.Item.Data = dishonestData{
		GUID: documentUUID(u.RegistryNumber, "entry"), RegNumber: u.RegistryNumber, Version: u.Version,
		Status: "P", URL: u.URL, Published: eisLocal(u.PublishedAt), Created: created,
		ApplicationNumber: u.ApplicationNumber, IncludeReasonInfo: u.Decision.Name,
		Application:   dishonestCommon{IncludeReason: reasons223[u.Reason], ControlAgency: org},
		ApproveStatus: u.StateCode, IncludeDate: eisLocal(u.IncludedAt),
	}
	w.Item.Data.Placer.Main = org
	s := &w.Item.Data.Application.Supplier
	s.Name, s.INN, s.KPP = u.Supplier.Name, u.Supplier.INN, u.Supplier.KPP
	s.Address.Zip, s.Address.Street = u.Supplier.Zip, strings.TrimPrefix(u.Supplier.Address, u.Supplier.Zip+", ")
	return encodeEIS(fmt.Sprintf("dishonestSupplier_%s_%d.xml", strings.TrimPrefix(u.RegistryNumber, "Р"), u.Version), w)
}

// eisLocal writes a time as 223-FZ documents do: Moscow time without an
// offset.
func eisLocal(t time.Time) string { return t.In(msk).Format("2006-01-02T15:04:05") }

// documentUUID returns a GUID for a document of the demo's entry numbered
// reg, the same on every run.
func documentUUID(reg, what string) string {
	sum := sha256.Sum256([]byte(reg + "/" + what))
	h := hex.EncodeToString(sum[:16])
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:32]
}
