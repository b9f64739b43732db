package demo

import (
	"strconv"
	"strings"
)

// source is a small deterministic random source (SplitMix64). The demo file
// is committed and compared with the generator's output in a test, so the
// stream must never change between Go releases; math/rand/v2 makes no such
// promise for its derived methods.
type source struct{ state uint64 }

func newSource(seed int64) *source { return &source{state: uint64(seed)} }

func (s *source) next() uint64 {
	s.state += 0x9e3779b97f4a7c15
	z := s.state
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// intn returns a number in [0, n); n must be positive.
func (s *source) intn(n int) int { return int(s.next() % uint64(n)) }

// between returns a number in [lo, hi].
func (s *source) between(lo, hi int) int { return lo + s.intn(hi-lo+1) }

// float returns a number in [0, 1).
func (s *source) float() float64 { return float64(s.next()>>11) / (1 << 53) }

// chance reports true with probability p.
func (s *source) chance(p float64) bool { return s.float() < p }

// digits returns n random decimal digits.
func (s *source) digits(n int) string {
	var b strings.Builder
	for range n {
		b.WriteByte(byte('0' + s.intn(10)))
	}
	return b.String()
}

// hex returns n random upper-case hexadecimal digits, as in EIS file ids.
func (s *source) hex(n int) string {
	const set = "0123456789ABCDEF"
	b := make([]byte, n)
	for i := range b {
		b[i] = set[s.intn(16)]
	}
	return string(b)
}

// pick returns a random element of list.
func pick[T any](s *source, list []T) T { return list[s.intn(len(list))] }

// zipf returns an index in [0, n) skewed towards 0, so that a few words are
// common and most are rare, as in real text.
func (s *source) zipf(n int) int {
	u := s.float()
	return int(float64(n) * u * u * u)
}

// money rounds an amount to kopecks.
func money(x float64) float64 {
	return float64(int64(x*100+0.5)) / 100
}

// pad formats n with at least width digits.
func pad(n, width int) string {
	s := strconv.Itoa(n)
	for len(s) < width {
		s = "0" + s
	}
	return s
}
