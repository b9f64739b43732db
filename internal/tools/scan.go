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
	total, _, cut, err := s.scanUpTo(ctx, srch, s.scanPages, fn)
	if cut {
		s.logger.WarnContext(ctx, "scan stopped at its bound", "kind", srch.Kind, "where", fmt.Sprint(srch.Where), "total", total)
	}
	return total, cut, err
}

// scanUpTo calls fn with the records of srch, newest first, from at most
// pages pages of the largest size. It returns the exact total, how many
// records it read and whether the bound cut the scan short.
func (s *Set) scanUpTo(ctx context.Context, srch tenderbase.Search, pages int, fn func(tenderbase.Record)) (total, read int, cut bool, err error) {
	srch.PageSize = s.scanPageSize
	for srch.Page = 0; srch.Page < pages; srch.Page++ {
		page, err := s.store.Search(ctx, srch)
		if err != nil {
			return 0, read, false, fmt.Errorf("scan %s by %v: %w", srch.Kind, srch.Where, err)
		}
		for _, r := range page.Items {
			fn(r)
		}
		total, read = page.Total, read+len(page.Items)
		if (srch.Page+1)*srch.PageSize >= total {
			return total, read, false, nil
		}
	}
	return total, read, true, nil
}
