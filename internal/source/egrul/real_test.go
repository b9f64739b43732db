package egrul

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tenderbase/tenderbase"
)

// sharedEGRUL is the folder of published register files beside the
// checkout (../shared/data/egrul, see its PROVENANCE.md), laid out as
// <owner>__<repo>/<file>.
var sharedEGRUL = flag.String("shared-egrul", filepath.Join("..", "..", "..", "..", "shared", "data", "egrul"),
	"`DIR` of published EGRUL/EGRIP files, as ../shared/data/egrul lays them out")

// realFile returns the path of a published file under sharedEGRUL, or skips
// the test, naming where the file comes from.
func realFile(t *testing.T, name, from string) string {
	t.Helper()
	path := filepath.Join(*sharedEGRUL, name)
	if _, err := os.Stat(path); err != nil {
		t.Skipf("%s is absent (%v): it is %s; the shared data folder is not beside this checkout or lacks it", path, err, from)
	}
	return path
}

// TestPublishedFiles reads published files and checks facts of them found
// by hand: the header counts of files cut short, names with a double
// space, the full-extract layout, managing organizations, branches and
// names in a foreign language.
func TestPublishedFiles(t *testing.T) {
	t.Run("2014 EGRUL cut short", func(t *testing.T) {
		d := decodeFile(t, realFile(t, "VitalBO__loaderegrulegrip/testEGRUL.XML", "VitalBO/loaderegrulegrip@7fdfa592 src/test/resources/testfiles/testEGRUL.XML"))
		wantNotes(t, d, "the header of <EGRUL_UL_DATA> declares 7449 documents, the file holds 30")
		if o := d.orgs["7813126228"]; o == nil || o.ShortName != "ГБДОУ ДЕТСКИЙ САД №  7 ПЕТРОГРАДСКОГО РАЙОНА САНКТ-ПЕТЕРБУРГА" {
			t.Errorf("7813126228: want the short name with its double space as published, got %+v", o)
		}
		if o := d.orgs["0541002492"]; o == nil || !cmp.Equal(o.Managers, []tenderbase.OrgManager{{
			Name: `ЗАКРЫТОЕ АКЦИОНЕРНОЕ ОБЩЕСТВО "ВНЕШТРАНСАВИА"`, INN: "7810614315", OGRN: "1027804904280",
			Address: "196210, Санкт-Петербург г, Пилотов ул, 8",
		}}) {
			t.Errorf("0541002492: want its managing organization (UL_UPR), got %+v", o)
		}
		if o := d.orgs["7803052947"]; o == nil || o.ForeignNameLanguage != "Английский" ||
			o.ForeignName != `FEDERAL AUTONOMOUS INSTITUTION "RUSSIAN MARITIME REGISTER OF SHIPPING"` {
			t.Errorf("7803052947: want its name in English (NAMEI), got %+v", o)
		}
	})
	t.Run("2014 EGRIP cut short", func(t *testing.T) {
		d := decodeFile(t, realFile(t, "VitalBO__loaderegrulegrip/testEGRIP.XML", "VitalBO/loaderegrulegrip@7fdfa592 src/test/resources/testfiles/testEGRIP.XML"))
		wantNotes(t, d, "the header of <EGRIP_IP_DATA> declares 5425 documents, the file holds 27")
	})
	for _, name := range []string{
		"VitalBO__loaderegrulegrip/testEGRULNF.XML", "VitalBO__loaderegrulegrip/testEGRIPNF.XML",
		"kmakeev__egrul/VO_RIGFO_0000_9965_20240802_0b5d8f51-3f21-40bf-b734-9e57efe34541.xml",
		"kmakeev__egrul/VO_RUGFO_0000_9965_20251116_c16d3011-7d08-44a1-b93c-9af6842a34d0.xml",
	} {
		t.Run("whole "+filepath.Base(name), func(t *testing.T) {
			d := decodeFile(t, realFile(t, name, "listed in ../shared/data/PROVENANCE.md"))
			wantNotes(t, d)
		})
	}

	// The full extract (<EGRUL ДатаВыг>): 149 organizations, one of them
	// run by a managing organization. Not in ../shared/data today.
	t.Run("full extract", func(t *testing.T) {
		d := decodeFile(t, realFile(t, "OlegNyr__egrul/testData.XML", "OlegNyr/egrul@cffb4d9f src/test/resources/testData.XML"))
		wantNotes(t, d)
		if n := len(d.all) + len(d.rejected); n != 149 {
			t.Errorf("%d subjects read, want 149", n)
		}
		o := d.orgs["3523013578"]
		if o == nil {
			t.Fatal("3523013578 is not read")
		}
		if diff := cmp.Diff([]tenderbase.OrgManager{{
			Name: `ОБЩЕСТВО С ОГРАНИЧЕННОЙ ОТВЕТСТВЕННОСТЬЮ "ЛАКОМКА"`, INN: "3528085520", OGRN: "1033500333767",
			Address: "150014, ЯРОСЛАВСКАЯ ОБЛАСТЬ, ГОРОД ЯРОСЛАВЛЬ, ПЛОЩАДЬ ТРУДА, 2",
		}}, o.Managers); diff != "" || o.Head != "" {
			t.Errorf("3523013578: head %q, managers (-want +got):\n%s", o.Head, diff)
		}
		if o := d.orgs["7449067170"]; o == nil || o.Name != `ОБЩЕСТВО С ОГРАНИЧЕННОЙ ОТВЕТСТВЕННОСТЬЮ  "МК-НОРД"` {
			t.Errorf("7449067170: want the name with its double space, got %+v", o)
		}
	})

	// A 4.07 file of 200 documents (169 subjects, some twice) with branches,
	// foreign names and a managing organization. Not in ../shared/data
	// today.
	t.Run("4.07 branches and foreign names", func(t *testing.T) {
		d := decodeFile(t, realFile(t, "kmakeev__egrul/VO_RUGFO_0000_9965_20251102_d17fdf23-7079-4b06-a02b-f74405c08baa.xml",
			"kmakeev/egrul@2c314eba test3/VO_RUGFO_0000_9965_20251102_d17fdf23-7079-4b06-a02b-f74405c08baa.xml"))
		wantNotes(t, d)
		// 21 <СвНаимЮЛПолнИн> in all: 18 of subjects, 3 of foreign founders.
		var branches, foreign, managed int
		for _, o := range d.all {
			branches += len(o.Branches)
			if o.ForeignName != "" {
				foreign++
			}
			if len(o.Managers) > 0 {
				managed++
			}
		}
		if len(d.all) != 200 || branches != 4 || foreign != 18 || managed != 1 {
			t.Errorf("%d organizations, %d branches, %d foreign names, %d managed; want 200, 4, 18, 1", len(d.all), branches, foreign, managed)
		}
		if o := d.orgs["5401953539"]; o == nil || len(o.Branches) != 1 || o.Branches[0].KPP != "540543001" {
			t.Errorf("5401953539: want its branch of KPP 540543001, got %+v", o)
		}
	})
}

func wantNotes(t *testing.T, d decoded, notes ...string) {
	t.Helper()
	if diff := cmp.Diff(notes, d.notes); diff != "" {
		t.Errorf("notes (-want +got):\n%s", diff)
	}
}
