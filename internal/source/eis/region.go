package eis

// regionOf returns the region, the code of the subject of the Russian
// Federation, of an organization: the first two digits of its KPP, the tax
// office where it or the branch that buys is registered, else of its INN. A
// federal body in Moscow buying through its Kalmyk branch has an INN of 77
// and a KPP of 08; it buys in 08. 0 when neither tells.
//
// Code 99 is two things. In the list of subjects it is "other territories,
// including the city and cosmodrome of Baikonur", whose organizations are
// registered with the tax office of Baikonur, 9901: an INN or KPP starting
// with 9901 is region 99. Every other tax office of 99 is an inter-regional
// office of the largest taxpayers (9971 to 9979...), which says nothing of
// where they buy, so the next number is asked.
func regionOf(kpp, inn string) int {
	for _, code := range []string{validKPP(kpp), validINN(inn)} {
		if code == "" {
			continue
		}
		if code[:4] == baikonurTaxOffice {
			return 99
		}
		if r := int(code[0]-'0')*10 + int(code[1]-'0'); r >= 1 && r <= 98 {
			return r
		}
	}
	return 0
}

// baikonurTaxOffice is the code of the tax office of Baikonur, which the INN
// and KPP of the organizations registered there begin with.
const baikonurTaxOffice = "9901"

func validKPP(kpp string) string {
	if len(kpp) == 9 && allDigits(kpp[:4]) {
		return kpp
	}
	return ""
}

func validINN(inn string) string {
	if (len(inn) == 10 || len(inn) == 12) && allDigits(inn) {
		return inn
	}
	return ""
}
