package ocds

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestPublishedSamplesRead checks, on published files, the buyer's name
// where the buyer reference leaves it empty, CPV codes without their check digit, an amount of
// 0 kept with its currency, and titles without their padding.
func TestPublishedSamplesRead(t *testing.T) {
	t.Run("buyer named by its identifier's English legal name", func(t *testing.T) {
		w := decodeFile(t, sample(t, "canada-buyandsell__releases__ocds-34a6hz-01B68-160000_001_CY-01B68-160000_001_CY.json"))
		if w.Buyer.Name != "Agriculture and Agri-Food Canada" {
			t.Errorf("buyer %q, want the party's identifier.legalName_en", w.Buyer.Name)
		}
	})
	t.Run("buyer named by its identifier's legal name", func(t *testing.T) {
		w := decodeFile(t, sample(t, "taiwan__releases__ocid-6as3t2-51180009.json"))
		if w.Buyer.Name != "台灣中油股份有限公司探採事業部" || w.Buyer.RegNum != "3.13.50.50" {
			t.Errorf("buyer %+v, want the party's identifier.legalName and id", w.Buyer)
		}
	})
	t.Run("CPV code without its check digit", func(t *testing.T) {
		w := decodeFile(t, sample(t, "moldova__releases__ocds-ngfbwp-19733168-19733168.json"))
		if diff := cmp.Diff([]string{"45261000"}, w.CPVCodes); diff != "" {
			t.Errorf("CPV codes (-want +got):\n%s", diff)
		}
	})
	t.Run("amount of 0 kept as published", func(t *testing.T) {
		w := decodeFile(t, sample(t, "nigeria-open-contracting-portal__records__ocds-gyl66f-borbda-3t7hsh.json"))
		if w.Value != 0 || w.Currency != "NGN" {
			t.Errorf("value %v %q, want tender.value's 0 NGN", w.Value, w.Currency)
		}
	})
	t.Run("title without its padding", func(t *testing.T) {
		w := decodeFile(t, sample(t, "canada-montreal__records__ocds-a1234567-mt-5adcb283673490e8d8cd2da25f135ecd5457ac5a.json"))
		if want := "Entretien et réparation SPVM NoFactMaximo:436001."; !strings.HasPrefix(w.Title, want) {
			t.Errorf("title %q, want it to start %q", w.Title, want)
		}
	})
}

func TestCleanText(t *testing.T) {
	for in, want := range map[string]string{
		"Roads":                        "Roads",
		"Roads  and bridges":           "Roads  and bridges", // a double space stays as published
		"Roads\n    and bridges":       "Roads and bridges",
		"Roads,\r\n\tlot 1":            "Roads, lot 1",
		"Roads                    lot": "Roads lot",
	} {
		if got := cleanText(in); got != want {
			t.Errorf("cleanText(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSchemeCountry(t *testing.T) {
	for scheme, want := range map[string]int{
		"GB-COH": 826, "UA-EDR": 804, "MX-RFC": 484, "GB-GOVUK-crown_comercial_service": 826,
		"MK-009KDH999": 0, // a Mexican buyer's own scheme, not North Macedonia's
		"XM-EORI":      0, "NGA-BRBDA": 0, "RFC": 0, "": 0,
	} {
		if got := schemeCountry(scheme); got != want {
			t.Errorf("schemeCountry(%q) = %d, want %d", scheme, got, want)
		}
	}
}
