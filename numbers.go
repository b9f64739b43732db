package tenderbase

import (
	"math"
	"strings"
)

// The spec (part 2) types an INN as an integer, and programs that read
// INNs, KPPs and purchase numbers as numbers lose their leading zeros. The
// functions below give such a number back its zeros; each reports false for
// digits that are no integer form of its kind of number.

// PadINN returns the INN whose integer form is digits: 9 or 10 digits are
// an organization's INN of 10, 11 or 12 a person's INN of 12. No INN starts
// with two zeros (its first two digits are a region code from 01), so no
// shorter number is one.
func PadINN(digits string) (string, bool) {
	switch len(digits) {
	case 9, 11:
		return "0" + digits, true
	case 10, 12:
		return digits, true
	}
	return digits, false
}

// PadKPP returns the KPP of 9 digits whose integer form is digits (8 or 9
// digits: its first two are a region code from 01).
func PadKPP(digits string) (string, bool) {
	switch len(digits) {
	case 8:
		return "0" + digits, true
	case 9:
		return digits, true
	}
	return digits, false
}

// PadPurchaseNumber returns the purchase number whose integer form is
// digits. A 44-FZ number has 19 digits and starts with a zero, which a
// number loses; a 223-FZ number has 11 and starts with 3, so that a number
// of up to 11 digits stays as it is.
func PadPurchaseNumber(digits string) (string, bool) {
	switch n := len(digits); {
	case n <= 11:
		return digits, n > 0
	case n <= 19:
		return strings.Repeat("0", 19-n) + digits, true
	}
	return digits, false
}

// Money. A record holds an amount as published, a float64 of its
// currency's units to the kopeck (or cent), which encoding/json writes back
// as published: 640.79. A figure computed of many amounts (a sum, a median,
// a range) would pick up float noise below the kopeck (640.7850000000001),
// so it is computed in whole kopecks, with Kopecks and Amount.

// Kopecks returns amount in whole kopecks, hundredths of its currency's
// unit, rounded half away from zero.
func Kopecks(amount float64) int64 { return int64(math.Round(amount * 100)) }

// Amount returns kopecks as an amount of the currency's units: the float64
// nearest to kopecks/100, which encoding/json writes with two decimals at
// most, exactly.
func Amount(kopecks int64) float64 { return float64(kopecks) / 100 }
