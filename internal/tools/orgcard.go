package tools

import (
	"context"
	"time"

	"github.com/tenderbase/tenderbase"
)

// orgCard is what the card of a tender or a contract tells of an
// organization from the registers (EGRUL or EGRIP, the SME register, the
// tax service's open data), for the plans that include it.
type orgCard struct {
	INN          string    `json:"inn"`
	KPP          string    `json:"kpp,omitempty"`
	OGRN         string    `json:"ogrn,omitempty"`
	Name         string    `json:"name"`
	LegalForm    string    `json:"legal_form,omitempty" jsonschema:"The OKOPF name of the legal form."`
	Address      string    `json:"address,omitempty"`
	Status       string    `json:"status,omitempty" jsonschema:"active, liquidating, liquidated..., as the register says."`
	RegisteredAt time.Time `json:"registered_at,omitzero"`
	LiquidatedAt time.Time `json:"liquidated_at,omitzero"`
	Head         string    `json:"head,omitempty"`
	HeadPosition string    `json:"head_position,omitempty"`
	MainActivity string    `json:"main_activity,omitempty" jsonschema:"The main OKVED code, with its name when the register gives it."`
	SME          string    `json:"sme,omitempty" jsonschema:"micro, small or medium when the SME register lists it."`
	Employees    *int      `json:"employees,omitempty" jsonschema:"The average headcount the tax service publishes."`
	Income       *float64  `json:"income,omitempty"`
	Expenses     *float64  `json:"expenses,omitempty"`
	AsOf         time.Time `json:"as_of,omitzero" jsonschema:"The date of the register's extract."`
}

func cardOf(o *tenderbase.Org) orgCard {
	activity := o.MainActivity
	if name := o.ActivityNames[o.MainActivity]; name != "" {
		activity += " " + name
	}
	return orgCard{INN: o.INN, KPP: o.KPP, OGRN: o.OGRN, Name: o.Name, LegalForm: o.LegalForm, Address: o.Address,
		Status: o.Status, RegisteredAt: o.RegisteredAt, LiquidatedAt: o.LiquidatedAt, Head: o.Head, HeadPosition: o.HeadPosition,
		MainActivity: activity, SME: o.SME, Employees: o.Employees, Income: o.Income, Expenses: o.Expenses, AsOf: o.RegisterExtracted}
}

// orgCards returns the cards of the organizations of inns that the store
// knows, in the order of inns, each once, for a plan that includes them;
// for another it notes fields as hidden and returns ok false, the members
// then null.
func (s *Set) orgCards(ctx context.Context, inns []string, hidden restricted, fields ...string) ([]orgCard, bool, error) {
	if !callerOf(ctx).limits.OrgInfo {
		hidden.add(fields...)
		return nil, false, nil
	}
	cards := []orgCard{}
	seen := map[string]bool{}
	for _, inn := range inns {
		if inn == "" || seen[inn] {
			continue
		}
		seen[inn] = true
		rec, err := s.get(ctx, tenderbase.KindOrg, inn)
		if err != nil {
			return nil, false, err
		}
		if o, ok := rec.(*tenderbase.Org); ok {
			cards = append(cards, cardOf(o))
		}
	}
	return cards, true, nil
}
