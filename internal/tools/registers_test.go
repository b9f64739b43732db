package tools

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/importer"
	"github.com/tenderbase/tenderbase/internal/source/egrul"
	"github.com/tenderbase/tenderbase/internal/source/rsmp"
)

// sharedData is the folder of real published files beside the checkout.
var sharedData = filepath.Join("..", "..", "..", "shared", "data")

// registerCard is what the test reads of contragent.byInn's org.
type registerCard struct {
	INN               string            `json:"inn"`
	KPP               string            `json:"kpp"`
	OGRN              string            `json:"ogrn"`
	Name              string            `json:"name"`
	ShortName         string            `json:"short_name"`
	Address           string            `json:"address"`
	Region            int               `json:"region"`
	Status            string            `json:"status"`
	RegisteredAt      string            `json:"registered_at"`
	LiquidatedAt      string            `json:"liquidated_at"`
	Head              string            `json:"head"`
	MainActivity      string            `json:"main_activity"`
	ActivityCodes     []string          `json:"activity_codes"`
	ActivityNames     map[string]string `json:"activity_names"`
	ActivityVersion   string            `json:"activity_version"`
	RegisterSource    string            `json:"register_source"`
	RegisterExtracted string            `json:"register_extracted"`
	Contacts          []struct {
		Email string `json:"email"`
		Phone string `json:"phone"`
	} `json:"contacts"`
}

// TestRegistersThroughTheStores imports the published EGRUL and EGRIP files,
// both layouts, into each store and reads subjects chosen by hand back
// through contragent.byInn.
func TestRegistersThroughTheStores(t *testing.T) {
	dir := filepath.Join(sharedData, "egrul")
	for name, store := range bothStores(t) {
		t.Run(name, func(t *testing.T) {
			sum, err := importer.Import(context.Background(), store, []string{dir}, importer.Options{Decoders: []importer.Decoder{egrul.Format{}}})
			if err != nil {
				t.Fatalf("import: %v", err)
			}
			if sum.Files == 0 {
				t.Skipf("no published register file under %s: the shared data folder is not beside this checkout", dir)
			}
			if sum.Rejected != 0 || len(sum.Skipped) != 0 || sum.Files != 12 {
				t.Fatalf("import of %s: %d files, %d rejected, skipped %v", dir, sum.Files, sum.Rejected, sum.Skipped)
			}
			// The 2014 samples are cut from files of thousands of subjects:
			// their headers still count the whole.
			vitalBO := filepath.Join(dir, "VitalBO__loaderegrulegrip")
			if diff := cmp.Diff([]importer.Note{
				{File: filepath.Join(vitalBO, "testEGRIP.XML"), Reason: "the header of <EGRIP_IP_DATA> declares 5425 documents, the file holds 27"},
				{File: filepath.Join(vitalBO, "testEGRUL.XML"), Reason: "the header of <EGRUL_UL_DATA> declares 7449 documents, the file holds 30"},
			}, sum.Noted); diff != "" {
				t.Errorf("notes (-want +got):\n%s", diff)
			}
			checkRegisterCards(t, New(store, nil))
		})
	}
}

func checkRegisterCards(t *testing.T, set *Set) {
	card := func(inn string) registerCard {
		t.Helper()
		v, _ := decodeCall[struct {
			Org registerCard `json:"org"`
		}](t, set, tenderbase.PlanGuru, "contragent.byInn", `{"inn": "`+inn+`"}`)
		return v.Org
	}
	// The current layout, 4.07: a Baikonur cooperative whose address is
	// given under the state address register.
	gsk := card("9901003878")
	if diff := cmp.Diff(registerCard{
		INN: "9901003878", KPP: "990101001", OGRN: "1039923000732",
		Name: `ПОТРЕБИТЕЛЬСКИЙ КООПЕРАТИВ "ГАРАЖНО-СТРОИТЕЛЬНЫЙ КООПЕРАТИВ № 53"`, ShortName: "ПК ГСК № 53",
		Address: "468325, Г.БАЙКОНУР, МКР 7-Й, Д. 26, КВ. 19", Region: 99, Status: tenderbase.OrgActive,
		RegisteredAt: "2003-04-23T00:00:00+03:00", Head: "АДИЛБЕКОВ ТЕМИРХАН НАРТАЕВИЧ",
		MainActivity: "52.21.24", ActivityCodes: []string{"52.21.24"},
		ActivityNames:   map[string]string{"52.21.24": "Деятельность стоянок для транспортных средств"},
		ActivityVersion: "OKVED2", RegisterSource: "egrul", RegisterExtracted: "2025-11-10T00:00:00+03:00",
		Contacts: gsk.Contacts,
	}, gsk); diff != "" {
		t.Errorf("EGRUL 4.07 subject (-want +got):\n%s", diff)
	}

	// The current EGRIP layout: an entrepreneur with an e-mail.
	if ip := card("300005055308"); ip.Name != "ГАСЫМОВ МИРГАСЫМ" || ip.OGRN != "325300000041446" || ip.Region != 30 ||
		ip.RegisteredAt != "2025-09-01T00:00:00+03:00" || ip.MainActivity != "41.20" || len(ip.ActivityCodes) != 5 ||
		ip.RegisterSource != "egrip" || !hasEmail(ip, "AZER_AZER1989@MAIL.RU") {
		t.Errorf("EGRIP 4.06 subject: %+v", ip)
	}

	// A single-subject EGRIP extract, in UTF-8: an entrepreneur who stopped.
	if ip := card("010300484422"); ip.Name != "ДАНИЛОВА ЕКАТЕРИНА ТИХОНОВНА" || ip.Status != tenderbase.OrgLiquidated ||
		ip.LiquidatedAt != "2005-06-29T00:00:00+03:00" || ip.MainActivity != "52.1" || ip.ActivityVersion != "OKVED" {
		t.Errorf("single EGRIP extract: %+v", ip)
	}

	// The 2014 layout: an association in Saint Petersburg, its main OKVED
	// code marked MAIN="1" though listed second.
	if ul := card("7807061533"); ul.Name != `МЕСТНАЯ АССОЦИАЦИЯ РАЗВИТИЯ САДОВОДЧЕСКИХ НЕКОММЕРЧЕСКИХ ТОВАРИЩЕСТВ "ТОРИКИ"` ||
		ul.ShortName != `МАРСНТ "ТОРИКИ"` || ul.Region != 78 || ul.MainActivity != "74.14" ||
		!cmp.Equal(ul.ActivityCodes, []string{"74.14", "74.11"}) || ul.Head != "ГРОМОВ ЭДУАРД ВИТАЛЬЕВИЧ" ||
		ul.Address != "198326, САНКТ-ПЕТЕРБУРГ Г, КРАСНОЕ СЕЛО Г, ЦЕНТРАЛЬНАЯ УЛ, 137" || ul.RegisterExtracted != "2014-12-01T00:00:00+03:00" {
		t.Errorf("EGRUL 2014 subject: %+v", ul)
	}

	// The 2014 EGRIP layout: an entrepreneur who stopped.
	if ip := card("780711748065"); ip.Name != "КУЛИКОВА ВЕРА ВИКТОРОВНА" || ip.Status != tenderbase.OrgLiquidated ||
		ip.MainActivity != "52.62" || ip.RegisterSource != "egrip" {
		t.Errorf("EGRIP 2014 subject: %+v", ip)
	}
}

func hasEmail(c registerCard, email string) bool {
	for _, ct := range c.Contacts {
		if ct.Email == email {
			return true
		}
	}
	return false
}

// smeCard is what the test reads of contragent.byInn's org for the SME
// open data.
type smeCard struct {
	INN           string   `json:"inn"`
	OGRN          string   `json:"ogrn"`
	Name          string   `json:"name"`
	ShortName     string   `json:"short_name"`
	Region        int      `json:"region"`
	MainActivity  string   `json:"main_activity"`
	SME           string   `json:"sme"`
	SMESince      string   `json:"sme_since"`
	SMEReported   string   `json:"sme_reported"`
	Employees     *int     `json:"employees"`
	EmployeesAsOf string   `json:"employees_as_of"`
	Income        *float64 `json:"income"`
	Expenses      *float64 `json:"expenses"`
	FinancesAsOf  string   `json:"finances_as_of"`
}

// TestSMEOpenDataThroughTheStores imports the published SME register,
// headcount and income archives into each store and reads subjects chosen
// by hand back through contragent.byInn.
func TestSMEOpenDataThroughTheStores(t *testing.T) {
	dir := filepath.Join(sharedData, "rsmp")
	for name, store := range bothStores(t) {
		t.Run(name, func(t *testing.T) {
			sum, err := importer.Import(context.Background(), store, []string{dir}, importer.Options{Decoders: []importer.Decoder{rsmp.Format{}}})
			if err != nil {
				t.Fatalf("import: %v", err)
			}
			if sum.Files == 0 {
				t.Skipf("no published SME archive under %s: the shared data folder is not beside this checkout", dir)
			}
			if sum.Rejected != 0 || len(sum.Skipped) != 0 || sum.Files != 18 {
				t.Fatalf("import of %s: %d files, %d rejected, skipped %v", dir, sum.Files, sum.Rejected, sum.Skipped)
			}
			set := New(store, nil)
			card := func(inn string) smeCard {
				t.Helper()
				v, _ := decodeCall[struct {
					Org smeCard `json:"org"`
				}](t, set, tenderbase.PlanGuru, "contragent.byInn", `{"inn": "`+inn+`"}`)
				return v.Org
			}
			employees, income, expenses := 72, 712000.0, 705000.0
			tests := []struct {
				inn  string
				want smeCard
			}{
				{"8901037297", smeCard{INN: "8901037297", Name: `ОБЩЕСТВО С ОГРАНИЧЕННОЙ ОТВЕТСТВЕННОСТЬЮ "УРАЛ ПОЛЯРНЫЙ"`,
					ShortName: `ООО "УРАЛ ПОЛЯРНЫЙ"`, Region: 89, MainActivity: "41.20", SME: "micro",
					SMESince: "2018-12-10T00:00:00+03:00", SMEReported: "2019-02-10T00:00:00+03:00"}},
				{"941000024155", smeCard{INN: "941000024155", OGRN: "322940100061930", Name: "СЛОСТИН ДМИТРИЙ АЛЕКСАНДРОВИЧ",
					Region: 94, MainActivity: "47.11", SME: "micro",
					SMESince: "2023-01-10T00:00:00+03:00", SMEReported: "2023-05-10T00:00:00+03:00"}},
				{"7720885085", smeCard{INN: "7720885085", Name: `ОБЩЕСТВО С ОГРАНИЧЕННОЙ ОТВЕТСТВЕННОСТЬЮ "ОММАНИ"`,
					Employees: &employees, EmployeesAsOf: "2023-12-31T00:00:00+03:00"}},
				{"9724163542", smeCard{INN: "9724163542", Name: `ОБЩЕСТВО С ОГРАНИЧЕННОЙ ОТВЕТСТВЕННОСТЬЮ "МЕРИДИАН"`,
					Income: &income, Expenses: &expenses, FinancesAsOf: "2023-12-31T00:00:00+03:00"}},
			}
			for _, tt := range tests {
				if diff := cmp.Diff(tt.want, card(tt.inn)); diff != "" {
					t.Errorf("INN %s (-want +got):\n%s", tt.inn, diff)
				}
			}
		})
	}
}
