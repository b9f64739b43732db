package llm

import (
	"math"
	"strconv"
	"strings"

	"github.com/tenderbase/tenderbase"
)

// ParsePrice reads a price in US dollars, such as 0.15 or 2.5, into
// millionths of a dollar, exactly: at most six decimals, not negative.
func ParsePrice(s string) (int64, error) {
	s = strings.TrimPrefix(strings.TrimSpace(s), "$")
	whole, frac, _ := strings.Cut(s, ".")
	bad := tenderbase.Errorf(tenderbase.EINVALID, "%q is not a price in US dollars such as 0.15, with at most six decimals", s)
	if whole == "" && frac == "" || len(frac) > 6 || strings.ContainsAny(whole+frac, "+-") {
		return 0, bad
	}
	w, err := strconv.ParseInt(cmpZero(whole), 10, 64)
	if err != nil || w > math.MaxInt64/1_000_000-1 {
		return 0, bad
	}
	f, err := strconv.ParseInt(cmpZero(frac+strings.Repeat("0", 6-len(frac))), 10, 64)
	if err != nil {
		return 0, bad
	}
	return w*1e6 + f, nil
}

func cmpZero(s string) string {
	if s == "" {
		return "0"
	}
	return s
}

// Cost returns the price of tokens at pricePerM millionths of a dollar a
// million tokens, in millionths of a dollar, rounded half up.
func Cost(tokens int, pricePerM int64) int64 {
	return (int64(tokens)*pricePerM + 500_000) / 1_000_000
}
