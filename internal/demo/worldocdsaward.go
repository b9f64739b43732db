package demo

import (
	"strings"
	"time"

	"github.com/tenderbase/tenderbase"
)

// The award and contract release of a demo OCDS process, the release its
// publisher adds to the package once the contract is signed: the same
// ocid, tags award and contract, the winners among the parties with the
// role supplier, each award with its contract (awardID), and in the
// tender what the award tells of it, the number of tenderers.

type ocdsTenderResult struct {
	ID                string `json:"id"`
	NumberOfTenderers int    `json:"numberOfTenderers"`
}

type ocdsAward struct {
	ID        string    `json:"id"`
	Status    string    `json:"status"`
	Date      string    `json:"date"`
	Value     ocdsValue `json:"value"`
	Suppliers []ocdsRef `json:"suppliers"`
}

type ocdsContract struct {
	ID         string    `json:"id"`
	AwardID    string    `json:"awardID"`
	Title      string    `json:"title"`
	Status     string    `json:"status"`
	Value      ocdsValue `json:"value"`
	DateSigned string    `json:"dateSigned"`
}

// ocdsScales are OCDS's scales (party details.scale) of the sizes eForms
// names.
var ocdsScales = map[string]string{"micro": "micro", "small": "sme", "medium": "sme", "large": "large"}

// awardRelease returns the award and contract release of w, the award of
// its process, from the buyer buyer of country c.
func awardRelease(w *tenderbase.WorldTender, c country, buyer ocdsRef) ocdsDoc {
	ocid := strings.TrimPrefix(w.ID, "ocds:")
	r := ocdsDoc{
		OCID: ocid, ID: w.ReleaseID, Date: w.Updated.Format(time.RFC3339), Language: w.Language,
		Tag: []string{"award", "contract"}, InitiationType: "tender", Buyer: buyer,
	}
	var tenderers int
	for i, a := range w.Awards {
		award := ocdsAward{ID: ocid + "-" + pad(i+1, 1), Status: a.Status, Date: a.AwardDate.Format(time.RFC3339),
			Value: ocdsValue{Amount: a.Value, Currency: a.Currency}}
		for _, win := range a.Winners {
			ref := ocdsRef{ID: c.Alpha2 + "-" + uuidOf(win.Name)[:8], Name: win.Name}
			award.Suppliers = append(award.Suppliers, ref)
			r.Parties = append(r.Parties, ocdsParty{ID: ref.ID, Name: win.Name,
				Identifier: &ocdsIdentifier{ID: win.ID, LegalName: win.Name},
				Address:    ocdsAddress{Locality: win.Town, CountryName: c.Name},
				Details:    &ocdsDetails{Scale: win.Size}, Roles: []string{"supplier"}})
		}
		r.Awards = append(r.Awards, award)
		r.Contracts = append(r.Contracts, ocdsContract{ID: a.ContractID, AwardID: award.ID, Title: a.Title, Status: "active",
			Value: award.Value, DateSigned: a.ContractDate.Format(time.RFC3339)})
		tenderers = max(tenderers, a.TendersReceived)
	}
	r.Tender = ocdsTenderResult{ID: ocid, NumberOfTenderers: tenderers}
	return r
}
