package export

import (
	"net/url"
	"strconv"
	"strings"

	"github.com/tenderbase/tenderbase"
)

// parseAggregate reads the arguments of analytics.aggregate: resource and
// by, required; level and top; and the search's, one parameter an
// argument. Whether the resource takes a filter, and what a grouping
// asks of it, is the tool's to check, so that the export and the tool
// answer alike.
func (q *Request) parseAggregate(values url.Values) error {
	q.Resource, q.By = values.Get("resource"), values.Get("by")
	switch {
	case q.Resource == "":
		return tenderbase.Errorf(tenderbase.EINVALID, "mode=aggregate needs resource: ru (tenders) or contracts")
	case q.By == "":
		return tenderbase.Errorf(tenderbase.EINVALID, "mode=aggregate needs by, the grouping: %s", strings.Join(dimensions(), ", "))
	}
	var err error
	if q.Level, err = number(values, "level", 1, 9); err != nil {
		return err
	}
	if q.Top, err = number(values, "top", 1, tenderbase.MaxTop); err != nil {
		return err
	}
	q.Search = map[string]any{}
	for _, p := range Params {
		v := values.Get(p.Name)
		if p.Search == "" || v == "" || !p.belongsTo(ModeAggregate) {
			continue
		}
		if q.Search[p.Search], err = p.searchValue(v); err != nil {
			return err
		}
	}
	return nil
}

// searchValue returns the search argument a parameter's value gives, of
// the JSON type the search tool takes.
func (p Param) searchValue(v string) (any, error) {
	switch {
	case p.List:
		var out []int
		for item := range strings.SplitSeq(v, ",") {
			n, err := strconv.Atoi(item)
			if err != nil || !digits.MatchString(item) {
				return nil, tenderbase.Errorf(tenderbase.EINVALID, "%s must be whole numbers separated by commas, such as 77,50, got %s", p.Name, tenderbase.Quote(v))
			}
			out = append(out, n)
		}
		return out, nil
	case p.Enum != nil:
		switch v {
		case "true", "1":
			return true, nil
		case "false", "0":
			return false, nil
		}
		return nil, tenderbase.Errorf(tenderbase.EINVALID, "%s must be true or false (1 or 0), got %s", p.Name, tenderbase.Quote(v))
	case p.Type == "integer":
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || !digits.MatchString(v) {
			return nil, tenderbase.Errorf(tenderbase.EINVALID, "%s must be a whole number of roubles, got %s", p.Name, tenderbase.Quote(v))
		}
		return n, nil
	}
	return v, nil
}

// parseFlags reads the tender whose red flags are asked for: tend_num,
// required, in its integer form too.
func (q *Request) parseFlags(values url.Values) error {
	q.TendNum = values.Get("tend_num")
	padded, ok := tenderbase.PadPurchaseNumber(q.TendNum)
	switch {
	case q.TendNum == "":
		return tenderbase.Errorf(tenderbase.EINVALID, "mode=flags needs tend_num, the purchase number of the tender")
	case !digits.MatchString(q.TendNum):
		return tenderbase.Errorf(tenderbase.EINVALID, "tend_num must be a procurement number of digits, got %s", tenderbase.Quote(q.TendNum))
	case !ok:
		return tenderbase.Errorf(tenderbase.EINVALID, "tend_num must be a procurement number of up to 19 digits, got %s", tenderbase.Quote(q.TendNum))
	}
	q.TendNum = padded
	return nil
}
