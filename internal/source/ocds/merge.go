package ocds

import (
	"slices"
	"strings"
)

// compile merges the releases of one process, oldest first, as the OCDS
// merge routine does: an object merges member by member; an array of
// objects that all have an id merges its items by id; any other value, an
// array of values included, is replaced by the newer one; a null removes the
// member.
func compile(releases []map[string]any) map[string]any {
	sorted := slices.Clone(releases)
	slices.SortStableFunc(sorted, func(a, b map[string]any) int {
		da, _ := a["date"].(string)
		db, _ := b["date"].(string)
		return strings.Compare(da, db)
	})
	out := map[string]any{}
	for _, r := range sorted {
		mergeObject(out, r)
	}
	return out
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
			if dv, ok := dst[k].([]any); ok && identified(sv) && identified(dv) {
				dst[k] = mergeByID(dv, sv)
			} else {
				dst[k] = sv
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
		d, _ := r["date"].(string)
		if d == "" {
			continue
		}
		if first == "" || d < first {
			first = d
		}
		if d > latest {
			latest = d
		}
	}
	return first, latest
}
