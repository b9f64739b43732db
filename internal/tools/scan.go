package tools

import (
	"context"
	"fmt"

	"github.com/tenderbase/tenderbase"
)

// lookup returns the search for records of kind k whose field is value.
func lookup(k tenderbase.Kind, field, value string, pageSize int) tenderbase.Search {
	return tenderbase.Search{Kind: k, Where: []tenderbase.Lookup{{Field: field, Value: value}}, PageSize: pageSize}
}

// Bounds of a scan through every record of a lookup: 50 pages of 1000.
const maxScanPages = 50

// scan calls fn with every record of srch, newest first, up to the scan
// bound (maxScanPages pages of the largest size). It returns the exact total
// and whether the bound cut the scan short.
func (s *Set) scan(ctx context.Context, srch tenderbase.Search, fn func(tenderbase.Record)) (int, bool, error) {
	srch.PageSize = s.scanPageSize
	total := 0
	for srch.Page = 0; srch.Page < s.scanPages; srch.Page++ {
		page, err := s.store.Search(ctx, srch)
		if err != nil {
			return 0, false, fmt.Errorf("scan %s by %v: %w", srch.Kind, srch.Where, err)
		}
		for _, r := range page.Items {
			fn(r)
		}
		total = page.Total
		if (srch.Page+1)*srch.PageSize >= total {
			return total, false, nil
		}
	}
	s.logger.WarnContext(ctx, "scan stopped at its bound", "kind", srch.Kind, "where", fmt.Sprint(srch.Where), "total", total)
	return total, true, nil
}
