package demo

// Russian registry numbers carry check digits; the demo data computes them so
// that validators in the importers and the API accept the fictional parties.

var (
	inn10Weights = []int{2, 4, 10, 3, 5, 9, 4, 6, 8}
	inn11Weights = []int{7, 2, 4, 10, 3, 5, 9, 4, 6, 8}
	inn12Weights = []int{3, 7, 2, 4, 10, 3, 5, 9, 4, 6, 8}
)

func checkDigit(digits string, weights []int) byte {
	sum := 0
	for i, w := range weights {
		sum += int(digits[i]-'0') * w
	}
	return byte('0' + sum%11%10)
}

// legalINN returns the 10-digit INN of an organization registered at tax
// office taxOffice (four digits: region and office) with serial number serial
// (five digits).
func legalINN(taxOffice, serial string) string {
	base := taxOffice + serial
	return base + string(checkDigit(base, inn10Weights))
}

// personINN returns the 12-digit INN of an individual entrepreneur.
func personINN(taxOffice, serial string) string {
	base := taxOffice + serial
	base += string(checkDigit(base, inn11Weights))
	return base + string(checkDigit(base, inn12Weights))
}

// validINN reports whether inn has 10 or 12 digits and correct check digits.
func validINN(inn string) bool {
	for _, r := range inn {
		if r < '0' || r > '9' {
			return false
		}
	}
	switch len(inn) {
	case 10:
		return inn[9] == checkDigit(inn, inn10Weights)
	case 12:
		return inn[10] == checkDigit(inn, inn11Weights) && inn[11] == checkDigit(inn, inn12Weights)
	}
	return false
}

// ogrn returns a 13-digit OGRN (or a 15-digit OGRNIP when individual) whose
// last digit is the remainder check of the digits before it.
func ogrn(individual bool, year int, region string, serial string) string {
	kind, mod := "1", uint64(11)
	if individual {
		kind, mod = "3", 13
	}
	base := kind + pad(year%100, 2) + region + serial
	var n uint64
	for _, c := range base {
		n = n*10 + uint64(c-'0')
	}
	return base + string(byte('0'+n%mod%10))
}

// validOGRN reports whether s is an OGRN or OGRNIP with a correct check digit.
func validOGRN(s string) bool {
	if len(s) != 13 && len(s) != 15 {
		return false
	}
	mod := uint64(11)
	if len(s) == 15 {
		mod = 13
	}
	var n uint64
	for _, c := range s[:len(s)-1] {
		if c < '0' || c > '9' {
			return false
		}
		n = n*10 + uint64(c-'0')
	}
	return s[len(s)-1] == byte('0'+n%mod%10)
}
