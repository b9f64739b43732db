package eis

// regionOf returns the region, the code of the subject of the Russian
// Federation, of an organization: the first two digits of its KPP, the tax
// office where it or the branch that buys is registered, else of its INN. A
// federal body in Moscow buying through its Kalmyk branch has an INN of 77
// and a KPP of 08; it buys in 08. Code 99, the office of the largest
// taxpayers, says nothing of a region. 0 when neither tells.
func regionOf(kpp, inn string) int {
	for _, code := range []string{validKPP(kpp), validINN(inn)} {
		if code == "" {
			continue
		}
		if r := int(code[0]-'0')*10 + int(code[1]-'0'); r >= 1 && r <= 98 {
			return r
		}
	}
	return 0
}

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
