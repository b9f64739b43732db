package eis

import (
	"encoding/xml"

	"github.com/tenderbase/tenderbase"
)

// unfairSupplier2022Wire is an <unfairSupplier2022> or <unfairSupplierIKZ>
// (ko:unfairSupplier2022Type and its extension, scheme 14.x): an entry of
// the register since 1 April 2022, a version of it. It names no customer,
// purchase or contract; the IKZ form adds the purchase's identification
// codes.
type unfairSupplier2022Wire struct {
	CommonInfo struct {
		RegNumber             string  `xml:"regNumber"`
		VersionNumber         string  `xml:"versionNumber"`
		PublishDT             eisTime `xml:"publishDT"`
		FirstVersionPublishDT eisTime `xml:"firstVersionPublishDT"`
		OccurrenceReasonDate  eisTime `xml:"occurrenceReasonDate"`
		AppealSubmissionDate  eisTime `xml:"appealSubmissionDate"`
	} `xml:"commonInfo"`
	ApproveOrgInfo   koParty `xml:"approveOrgInfo"`
	CreateReason     string  `xml:"createReasonInfo>createReason"`
	SanctionsRefusal bool    `xml:"refusalDueToCustSanctions"`
	SupplierInfo     struct {
		LegalEntityRF         unfairSubject2022   `xml:"legalEntityRFInfo"`
		LegalEntityForeign    unfairSubject2022   `xml:"legalEntityForeignStateInfo"`
		IndividualPersonRF    unfairSubject2022   `xml:"individualPersonRFInfo"`
		IndividualPersonForgn unfairSubject2022   `xml:"individualPersonForeignStateInfo"`
		Founders              []unfairFounder2022 `xml:"founders"`
	} `xml:"unfairSupplierInfo"`
	AutoExDate    eisTime  `xml:"autoExDateInfo>autoExDate"`
	PrintFormURL  string   `xml:"printFormInfo>url"`
	PurchaseCodes []string `xml:"purchaseInfo>purchaseCode"`
}

// unfairSubject2022 is the supplier of an entry of the new form, in each of
// its four forms: a Russian or foreign organization or person.
type unfairSubject2022 struct {
	FullName                       string `xml:"fullName"`
	ShortName                      string `xml:"shortName"`
	INN                            string `xml:"INN"`
	TaxPayerCode                   string `xml:"taxPayerCode"`
	KPP                            string `xml:"KPP"`
	ContractorRegistryNum          string `xml:"contractorRegistryNum"`
	UnfairContractor615RegistryNum string `xml:"unfairContractor615RegistryNum"`
}

type unfairFounder2022 struct {
	FullName     string         `xml:"fullName"`
	INN          string         `xml:"INN"`
	TaxPayerCode string         `xml:"taxPayerCode"`
	Type         unfairTypeWire `xml:"type"`
}

// unfairExclude2022Wire is an <unfairSupplier2022Exclude>: an entry of the
// new form leaves the register, at the end of its term (AUTO) or by hand
// (MANUAL).
type unfairExclude2022Wire struct {
	RegNumber   string  `xml:"unfairSupplier2022ForExcludeInfo>regNumber"`
	ExcludeDT   eisTime `xml:"commonInfo>excludeDT"`
	ExcludeType string  `xml:"commonInfo>excludeType"`
}

// decodeUnfairSuppliers2022 decodes every entry of the new form of the
// export.
func decodeUnfairSuppliers2022(d *xml.Decoder, start xml.StartElement, src source) ([]tenderbase.Record, error) {
	return decodeEach(d, start, func(start xml.StartElement, n int) (tenderbase.Record, error) {
		var w unfairSupplier2022Wire
		if err := d.DecodeElement(&w, &start); err != nil {
			return nil, contractDecodeError(src.kind, n, err)
		}
		return w.record(src.kind, n)
	})
}

func (w *unfairSupplier2022Wire) record(kind string, n int) (*tenderbase.UnfairSupplier, error) {
	ci := w.CommonInfo
	reg := cleanText(ci.RegNumber)
	if reg == "" {
		return nil, tenderbase.Errorf(tenderbase.EINVALID, "%s %d of the file has no commonInfo/regNumber", kind, n)
	}
	version, err := parseVersion(ci.VersionNumber, 1)
	if err != nil {
		return nil, err
	}
	u := &tenderbase.UnfairSupplier{
		RegistryNumber: reg, Law: "44", Version: version, State: tenderbase.UnfairIncluded,
		PublishedAt: ci.PublishDT.Time, IncludedAt: firstTime(ci.FirstVersionPublishDT.Time, ci.PublishDT.Time),
		ReasonDate: ci.OccurrenceReasonDate.date(), ApplicationDate: ci.AppealSubmissionDate.date(),
		ExcludeOn: w.AutoExDate.date(), Reason: cleanText(w.CreateReason), SanctionsRefusal: w.SanctionsRefusal,
		PublishOrg: tenderbase.Party{RegNum: cleanText(w.ApproveOrgInfo.RegNum), Name: cleanText(w.ApproveOrgInfo.FullName)},
		Supplier:   w.supplier(),
		URL:        cleanText(w.PrintFormURL),
	}
	for _, f := range w.SupplierInfo.Founders {
		u.Founders = append(u.Founders, tenderbase.UnfairPerson{
			Name: cleanText(f.FullName), INN: firstOf(f.INN, f.TaxPayerCode), TypeCode: cleanText(f.Type.Code), Type: cleanText(f.Type.Name),
		})
	}
	if len(w.PurchaseCodes) > 0 {
		u.Purchase = &tenderbase.UnfairBuy{}
		for _, c := range w.PurchaseCodes {
			u.Purchase.Codes = append(u.Purchase.Codes, cleanText(c))
		}
	}
	return u, nil
}

// supplier returns the supplier of the entry with the type code the old
// form gave it: U, UF, P or PF.
func (w *unfairSupplier2022Wire) supplier() tenderbase.UnfairParty {
	si := w.SupplierInfo
	for _, form := range []struct {
		code string
		s    unfairSubject2022
	}{{"U", si.LegalEntityRF}, {"UF", si.LegalEntityForeign}, {"P", si.IndividualPersonRF}, {"PF", si.IndividualPersonForgn}} {
		s := form.s
		if s.FullName == "" {
			continue
		}
		return tenderbase.UnfairParty{
			Type: form.code, Name: cleanText(s.FullName), ShortName: cleanText(s.ShortName),
			INN: firstOf(s.INN, s.TaxPayerCode), KPP: cleanText(s.KPP),
			RegistryNumber: firstOf(s.ContractorRegistryNum, s.UnfairContractor615RegistryNum),
		}
	}
	return tenderbase.UnfairParty{}
}

// decodeUnfairExclusions2022 decodes every exclusion of the export, each
// into an entry holding only its exclusion, which the store merges into the
// entry it names.
func decodeUnfairExclusions2022(d *xml.Decoder, start xml.StartElement, src source) ([]tenderbase.Record, error) {
	return decodeEach(d, start, func(start xml.StartElement, n int) (tenderbase.Record, error) {
		var w unfairExclude2022Wire
		if err := d.DecodeElement(&w, &start); err != nil {
			return nil, contractDecodeError(src.kind, n, err)
		}
		reg := cleanText(w.RegNumber)
		if reg == "" {
			return nil, tenderbase.Errorf(tenderbase.EINVALID, "%s %d of the file names no entry (unfairSupplier2022ForExcludeInfo/regNumber)", src.kind, n)
		}
		return &tenderbase.UnfairSupplier{
			RegistryNumber: reg,
			Exclusion:      &tenderbase.UnfairExclude{Date: w.ExcludeDT.Time, Type: cleanText(w.ExcludeType)},
		}, nil
	})
}
