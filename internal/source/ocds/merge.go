package ocds

import (
	"slices"
	"strings"

	"github.com/tenderbase/tenderbase"
)

// compile merges the releases of one process, oldest first (inOrder), as
// the OCDS merge routine does: an object merges member by member; an array
// of objects that all have an id merges its items by id, the last of one
// id in a release standing for it; any other value, an array of values
// included, is replaced by the newer one; a null removes the member.
func compile(releases []map[string]any) map[string]any {
	out := map[string]any{}
	for _, r := range inOrder(releases) {
		mergeObject(out, r)
	}
	return out
}

// inOrder returns releases oldest first: by date, then, for releases of
// one date, by the stage of their tag (a tender before its award) and by
// their id, and, alike in all three, by their content. The reference
// implementation keeps releases of one date in the order it reads them;
// ordering them by what they say instead makes a process merge alike
// whatever order its releases, or the files holding them, are read in.
func inOrder(releases []map[string]any) []map[string]any {
	sorted := slices.Clone(releases)
	slices.SortStableFunc(sorted, compareReleases)
	return sorted
}

func compareReleases(a, b map[string]any) int {
	if c := compareDates(str(a, "date"), str(b, "date")); c != 0 {
		return c
	}
	if c := tenderbase.CompareStages(stageOf(a["tag"]), stageOf(b["tag"])); c != 0 {
		return c
	}
	if c := strings.Compare(idOf(a), idOf(b)); c != 0 {
		return c
	}
	return strings.Compare(jsonString(a), jsonString(b))
}

// compareDates orders two OCDS dates as instants where both read, else
// as text.
func compareDates(a, b string) int {
	ta, tb := date(a), date(b)
	if ta.IsZero() || tb.IsZero() {
		return strings.Compare(a, b)
	}
	return ta.Compare(tb)
}

// stageOf returns the latest stage a release's tags name: "tenderUpdate"
// is of the tender, "contractTermination" of the contract; "compiled" of
// none.
func stageOf(tag any) string {
	tagList := strs(tag)
	if s, ok := tag.(string); ok {
		tagList = []string{s}
	}
	stage := ""
	for _, t := range tagList {
		for _, s := range tenderbase.Stages {
			if strings.HasPrefix(t, s) && tenderbase.CompareStages(s, stage) > 0 {
				stage = s
			}
		}
	}
	return stage
}

func mergeObject(dst, src map[string]any) {
	for k, v := range src {
		switch sv := v.(type) {
		case nil:
			delete(dst, k)
		case map[string]any:
			dv, ok := dst[k].(map[string]any)
			if !ok {
				dv = map[string]any{}
				dst[k] = dv
			}
			mergeObject(dv, sv)
		case []any:
			dv, ok := dst[k].([]any)
			switch {
			case !identified(sv):
				dst[k] = sv
			case ok && identified(dv):
				dst[k] = mergeByID(dv, lastOfEachID(sv))
			default:
				dst[k] = lastOfEachID(sv)
			}
		default:
			dst[k] = v
		}
	}
}

// identified reports whether every item of an array is an object with an id.
func identified(arr []any) bool {
	for _, x := range arr {
		m, ok := x.(map[string]any)
		if !ok || m["id"] == nil {
			return false
		}
	}
	return len(arr) > 0
}

// lastOfEachID returns the items of an array of identified objects, the
// last of each id in the place of the first: the reference implementation
// keeps only the last object of an id within one release.
func lastOfEachID(arr []any) []any {
	out := make([]any, 0, len(arr))
	for _, x := range arr {
		if i := slices.IndexFunc(out, func(y any) bool { return idOf(y) == idOf(x) }); i >= 0 {
			out[i] = x
			continue
		}
		out = append(out, x)
	}
	return out
}

// mergeByID merges the items of src into those of dst with the same id, and
// adds the others.
func mergeByID(dst, src []any) []any {
	out := slices.Clone(dst)
	for _, x := range src {
		s := x.(map[string]any)
		i := slices.IndexFunc(out, func(y any) bool { return idOf(y) == idOf(s) })
		if i < 0 {
			out = append(out, s)
			continue
		}
		merged := map[string]any{}
		mergeObject(merged, out[i].(map[string]any))
		mergeObject(merged, s)
		out[i] = merged
	}
	return out
}

func idOf(v any) string {
	m, _ := v.(map[string]any)
	switch id := m["id"].(type) {
	case string:
		return id
	case nil:
		return ""
	default:
		return strings.TrimSpace(strings.Trim(jsonString(id), `"`))
	}
}

// dateRange returns the earliest and latest release dates.
func dateRange(releases []map[string]any) (first, latest string) {
	for _, r := range releases {
		d := str(r, "date")
		if d == "" {
			continue
		}
		if first == "" || compareDates(d, first) < 0 {
			first = d
		}
		if compareDates(d, latest) > 0 {
			latest = d
		}
	}
	return first, latest
}
