package egrul

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/tenderbase/tenderbase"
)

// decoded is what Decode made of a file: its organizations in order and by
// INN (the last of an INN the file holds twice), the reasons of its
// rejections and the notes of the file as a whole.
type decoded struct {
	all      []*tenderbase.Org
	orgs     map[string]*tenderbase.Org
	rejected []string
	notes    []string
}

// decodeFile decodes path as the importer does, after checking that Detect
// takes the file.
func decodeFile(t *testing.T, path string) decoded {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !(Format{}).Detect(data[:min(len(data), 64<<10)]) {
		t.Fatalf("%s is not detected as EGRUL/EGRIP XML", path)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	d := decoded{orgs: map[string]*tenderbase.Org{}}
	err = Format{}.Decode(filepath.Base(path), f, func(_ int, rec tenderbase.Record, err error) error {
		var note interface{ FileNote() bool }
		switch {
		case errors.As(err, &note) && note.FileNote():
			d.notes = append(d.notes, err.Error())
		case err != nil:
			d.rejected = append(d.rejected, err.Error())
		default:
			o := rec.(*tenderbase.Org)
			d.all = append(d.all, o)
			d.orgs[o.INN] = o
		}
		return nil
	})
	if err != nil {
		t.Fatalf("decode %s: %v", path, err)
	}
	return d
}

func moscow(date string) time.Time {
	t, err := time.ParseInLocation(time.DateOnly, date, tenderbase.Moscow)
	if err != nil {
		panic(err)
	}
	return t
}

// registerPart leaves out of a comparison what the cases do not state: the
// activities and the contacts the extract gives, and the bookkeeping of
// the record.
var registerPart = cmpopts.IgnoreFields(tenderbase.Org{},
	"MainActivity", "ActivityCodes", "ActivityNames", "ActivityVersion", "Contacts", "UpdatedAt", "Sources")

// TestDecodeDetails decodes the fixtures of testdata, each in a shape the
// tax service publishes, and compares the register part of chosen subjects.
func TestDecodeDetails(t *testing.T) {
	cases := []struct {
		name, file string
		subjects   int
		notes      []string
		want       *tenderbase.Org
	}{
		{
			name: "full extract: a company run by a managing organization", file: "EGRUL_FULL_2017-01-01_1.xml", subjects: 2,
			want: &tenderbase.Org{
				INN: "3523013578", KPP: "780601001", OGRN: "1053500552797",
				Name: `ОБЩЕСТВО С ОГРАНИЧЕННОЙ ОТВЕТСТВЕННОСТЬЮ "РТ- ЭКСПОРТ"`, ShortName: `ООО "РТ- ЭКСПОРТ"`,
				LegalForm: "Общества с ограниченной ответственностью",
				Address:   "190000, САНКТ-ПЕТЕРБУРГ ГОРОД, ПРОСПЕКТ НОВОЧЕРКАССКИЙ, 58, 106", Region: 78,
				Status: tenderbase.OrgActive, RegisteredAt: moscow("2005-03-09"),
				Managers: []tenderbase.OrgManager{{
					Name: `ОБЩЕСТВО С ОГРАНИЧЕННОЙ ОТВЕТСТВЕННОСТЬЮ "ЛАКОМКА"`, INN: "3528085520", OGRN: "1033500333767",
					Address: "150014, ЯРОСЛАВСКАЯ ОБЛАСТЬ, ГОРОД ЯРОСЛАВЛЬ, ПЛОЩАДЬ ТРУДА, 2",
				}},
				RegisterSource: "egrul", RegisterExtracted: moscow("2017-01-24"),
			},
		},
		{
			name: "full extract: a name with a double space, kept", file: "EGRUL_FULL_2017-01-01_1.xml", subjects: 2,
			want: &tenderbase.Org{
				INN: "7449067170", KPP: "744901001", OGRN: "1077449005490",
				Name: `ОБЩЕСТВО С ОГРАНИЧЕННОЙ ОТВЕТСТВЕННОСТЬЮ  "МК-НОРД"`, ShortName: `ООО "МК-НОРД"`,
				LegalForm: "Общества с ограниченной ответственностью",
				Address:   "454129, ЧЕЛЯБИНСКАЯ ОБЛАСТЬ, ГОРОД ЧЕЛЯБИНСК, УЛИЦА ЕРЕВАНСКАЯ, 6", Region: 74,
				Status: tenderbase.OrgActive, RegisteredAt: moscow("2007-05-03"),
				Head: "КОСТЕНКО МАРИЯ СЕРГЕЕВНА", HeadPosition: "Директор",
				RegisterSource: "egrul", RegisterExtracted: moscow("2017-01-26"),
			},
		},
		{
			name: "full extract of EGRIP", file: "EGRIP_FULL_2025-11-05_1.xml", subjects: 1,
			want: &tenderbase.Org{
				INN: "360207609557", OGRN: "325300000035596", Name: "САБИРОВ АНЗОР ВАЛЕРИКОВИЧ",
				LegalForm: "Индивидуальный предприниматель", Region: 30, Status: tenderbase.OrgActive,
				RegisteredAt: moscow("2025-07-24"), RegisterSource: "egrip", RegisterExtracted: moscow("2025-11-04"),
			},
		},
		{
			name: "4.07: the name in a foreign language", file: "VO_RUGFO_4.07_details.xml", subjects: 4,
			want: &tenderbase.Org{
				INN: "5404319120", KPP: "540401001", OGRN: "1235400031570",
				Name: `ОБЩЕСТВО С ОГРАНИЧЕННОЙ ОТВЕТСТВЕННОСТЬЮ "ЭНИ ЛОГИСТИК"`, ShortName: `ООО "ЭНИ ЛОГИСТИК"`,
				ForeignName: "LIMITED LIABILITY COMPANY «ANY LOGISTIC»", ForeignShortName: "ANY LOGISTIC LLC",
				ForeignNameLanguage: "Английский",
				LegalForm:           "Общества с ограниченной ответственностью",
				Address:             "630073, НОВОСИБИРСКАЯ ОБЛАСТЬ, ГОРОД НОВОСИБИРСК, Г НОВОСИБИРСК, МКР ГОРСКИЙ, Д. 5, КВ. 163",
				Region:              54, Status: tenderbase.OrgActive, RegisteredAt: moscow("2023-07-28"),
				Head: "АНИСИМОВА АННА ЕВГЕНЬЕВНА", HeadPosition: "ДИРЕКТОР",
				RegisterSource: "egrul", RegisterExtracted: moscow("2025-10-29"),
			},
		},
		{
			name: "4.07: a branch, its address under the state register and its KPP", file: "VO_RUGFO_4.07_details.xml", subjects: 4,
			want: &tenderbase.Org{
				INN: "5401953539", KPP: "541001001", OGRN: "1155476056339",
				Name: `ОБЩЕСТВО С ОГРАНИЧЕННОЙ ОТВЕТСТВЕННОСТЬЮ "ТОРГОВЫЙ ДОМ СИБИРЬ-4"`, ShortName: `ООО "ТД СИБИРЬ-4"`,
				LegalForm: "Общества с ограниченной ответственностью",
				Address:   "630129, НОВОСИБИРСКАЯ ОБЛАСТЬ, ГОРОД НОВОСИБИРСК, Г НОВОСИБИРСК, УЛ ТАЙГИНСКАЯ, Д. 11",
				Region:    54, Status: tenderbase.OrgActive, RegisteredAt: moscow("2015-05-22"),
				Branches: []tenderbase.OrgBranch{{
					Kind: tenderbase.BranchOffice, KPP: "540543001",
					Name:    `ФИЛИАЛ ОБЩЕСТВА С ОГРАНИЧЕННОЙ ОТВЕТСТВЕННОСТЬЮ "ТОРГОВЫЙ ДОМ СИБИРЬ-4" В ГОРОДЕ НОВОСИБИРСКЕ`,
					Address: "630082, НОВОСИБИРСКАЯ ОБЛАСТЬ, ГОРОД НОВОСИБИРСК, Г НОВОСИБИРСК, УЛ ДАЧНАЯ, Д. 21/2, ПОМЕЩ. 8",
				}},
				RegisterSource: "egrul", RegisterExtracted: moscow("2025-10-29"),
			},
		},
		{
			name: "4.07: a managing organization and no director", file: "VO_RUGFO_4.07_details.xml", subjects: 4,
			want: &tenderbase.Org{
				INN: "2464045157", KPP: "540701001", OGRN: "1022402312910",
				Name:      `ОБЩЕСТВО С ОГРАНИЧЕННОЙ ОТВЕТСТВЕННОСТЬЮ "РЕСТОРАННАЯ ОБЪЕДИНЕННАЯ СЕТЬ И НОВЕЙШИЕ ТЕХНОЛОГИИ ЕВРОАМЕРИКАНСКОГО РАЗВИТИЯ РЕСТОРАНТС КРАСНОЯРСК"`,
				ShortName: `ООО "РОСИНТЕР РЕСТОРАНТС КРАСНОЯРСК"`, LegalForm: "Общества с ограниченной ответственностью",
				Address: "630099, НОВОСИБИРСКАЯ ОБЛАСТЬ, ГОРОД НОВОСИБИРСК, Г НОВОСИБИРСК, УЛ МАКСИМА ГОРЬКОГО, Д. 53",
				Region:  54, Status: tenderbase.OrgActive, RegisteredAt: moscow("2002-12-31"),
				Managers: []tenderbase.OrgManager{{
					Name: `ОБЩЕСТВО С ОГРАНИЧЕННОЙ ОТВЕТСТВЕННОСТЬЮ "РЕСТОРАННАЯ ОБЪЕДИНЕННАЯ СЕТЬ И НОВЕЙШИЕ ТЕХНОЛОГИИ ЕВРОАМЕРИКАНСКОГО РАЗВИТИЯ РЕСТОРАНТС"`,
					INN:  "7737115648", OGRN: "1027739718280",
				}},
				RegisterSource: "egrul", RegisterExtracted: moscow("2025-10-30"),
			},
		},
		{
			name: "a representative office abroad", file: "VO_RUGFO_4.07_details.xml", subjects: 4,
			want: &tenderbase.Org{
				INN: "5400000010", KPP: "540001001", OGRN: "1025400000010",
				Name: `АКЦИОНЕРНОЕ ОБЩЕСТВО "ПРИМЕР"`, ShortName: `АО "ПРИМЕР"`, LegalForm: "Непубличные акционерные общества",
				Region: 0, Status: tenderbase.OrgActive, RegisteredAt: moscow("2002-10-01"),
				Branches: []tenderbase.OrgBranch{{
					Kind: tenderbase.RepresentativeOffice, KPP: "540051001",
					Name:    `ПРЕДСТАВИТЕЛЬСТВО АКЦИОНЕРНОГО ОБЩЕСТВА "ПРИМЕР" В РЕСПУБЛИКЕ КАЗАХСТАН`,
					Address: "КАЗАХСТАН, АЛМАТЫ, ПР. АБАЯ, 1",
				}},
				RegisterSource: "egrul", RegisterExtracted: moscow("2025-10-30"),
			},
		},
		{
			name: "a header counting more documents than the file holds", file: "VO_RIGFO_count_short.xml", subjects: 2,
			notes: []string{"the header of <Файл> declares 3 documents, the file holds 2"},
			want: &tenderbase.Org{
				INN: "300005055308", OGRN: "325300000041446", Name: "ГАСЫМОВ МИРГАСЫМ",
				LegalForm: "Индивидуальный предприниматель", Region: 30, Status: tenderbase.OrgActive,
				RegisteredAt: moscow("2025-09-01"), RegisterSource: "egrip", RegisterExtracted: moscow("2025-11-04"),
			},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := decodeFile(t, filepath.Join("testdata", c.file))
			if len(d.all) != c.subjects || len(d.rejected) != 0 {
				t.Fatalf("%d subjects, rejected %q; want %d, none rejected", len(d.all), d.rejected, c.subjects)
			}
			if diff := cmp.Diff(c.notes, d.notes); diff != "" {
				t.Errorf("notes (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(c.want, d.orgs[c.want.INN], registerPart); diff != "" {
				t.Errorf("subject %s (-want +got):\n%s", c.want.INN, diff)
			}
		})
	}
}
