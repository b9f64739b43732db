package sqlite

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tenderbase/tenderbase"
)

func TestPut(t *testing.T) {
	type R = tenderbase.PutResult
	tests := []struct {
		name     string
		before   []tenderbase.Record
		put      []tenderbase.Record
		want     R
		current  string // title of the current version of "1"
		versions []string
	}{
		{"insert", nil, []tenderbase.Record{tender("1", 1, "a", 1)}, R{Inserted: 1}, "a", []string{"a"}},
		{"newer replaces", []tenderbase.Record{tender("1", 1, "a", 1)}, []tenderbase.Record{tender("1", 2, "b", 1)},
			R{Replaced: 1}, "b", []string{"a", "b"}},
		{"older is kept aside", []tenderbase.Record{tender("1", 2, "b", 1)}, []tenderbase.Record{tender("1", 1, "a", 1)},
			R{Older: 1}, "b", []string{"a", "b"}},
		{"same bytes change nothing", []tenderbase.Record{tender("1", 1, "a", 1)}, []tenderbase.Record{tender("1", 1, "a", 1)},
			R{Unchanged: 1}, "a", []string{"a"}},
		{"same older bytes change nothing", []tenderbase.Record{tender("1", 1, "a", 1), tender("1", 2, "b", 1)},
			[]tenderbase.Record{tender("1", 1, "a", 1)}, R{Unchanged: 1}, "b", []string{"a", "b"}},
		{"correction replaces", []tenderbase.Record{tender("1", 1, "a", 1)}, []tenderbase.Record{tender("1", 1, "c", 1)},
			R{Replaced: 1}, "c", []string{"c"}},
		{"correction of an older version", []tenderbase.Record{tender("1", 1, "a", 1), tender("1", 2, "b", 1)},
			[]tenderbase.Record{tender("1", 1, "c", 1)}, R{Older: 1}, "b", []string{"c", "b"}},
		{"one batch, in order", nil, []tenderbase.Record{tender("1", 1, "a", 1), tender("1", 3, "c", 1), tender("1", 2, "b", 1), tender("1", 3, "c", 1)},
			R{Inserted: 1, Replaced: 1, Older: 1, Unchanged: 1}, "c", []string{"a", "b", "c"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := openTest(t)
			ctx := context.Background()
			if len(tt.before) > 0 {
				put(t, s, tt.before...)
			}
			if diff := cmp.Diff(tt.want, put(t, s, tt.put...)); diff != "" {
				t.Errorf("Put result (-want +got):\n%s", diff)
			}
			cur, err := s.Get(ctx, tenderbase.KindTender, "1")
			if err != nil {
				t.Fatal(err)
			}
			if got := cur.(*tenderbase.Tender).Title; got != tt.current {
				t.Errorf("current title %q, want %q", got, tt.current)
			}
			vs, err := s.Versions(ctx, tenderbase.KindTender, "1")
			if err != nil {
				t.Fatal(err)
			}
			var titles []string
			for _, v := range vs {
				titles = append(titles, v.(*tenderbase.Tender).Title)
			}
			if diff := cmp.Diff(tt.versions, titles); diff != "" {
				t.Errorf("versions (-want +got):\n%s", diff)
			}
			// Every Put leaves exactly one indexed row per record.
			if n := count(t, s, "поиск"); n != 0 {
				t.Errorf("unexpected hits: %d", n)
			}
			if got := searchTotal(t, s, tenderbase.Search{Kind: tenderbase.KindTender, Query: q(t, tt.current)}); got != 1 {
				t.Errorf("search for the current title finds %d records, want 1", got)
			}
		})
	}
}

func TestPutAllOrNothing(t *testing.T) {
	s := openTest(t)
	bad := &tenderbase.Tender{Title: "no key"}
	if _, err := s.Put(context.Background(), []tenderbase.Record{tender("1", 1, "a", 1), bad}); err == nil {
		t.Fatal("Put of a record without a key succeeded")
	}
	if _, err := s.Get(context.Background(), tenderbase.KindTender, "1"); tenderbase.ErrorCode(err) != tenderbase.ENOTFOUND {
		t.Errorf("the record before the bad one was stored: Get error %v", err)
	}
}

func TestGetMissing(t *testing.T) {
	s := openTest(t)
	ctx := context.Background()
	if _, err := s.Get(ctx, tenderbase.KindTender, "nope"); tenderbase.ErrorCode(err) != tenderbase.ENOTFOUND {
		t.Errorf("Get: got %v, want ENOTFOUND", err)
	}
	if _, err := s.Versions(ctx, tenderbase.KindTender, "nope"); tenderbase.ErrorCode(err) != tenderbase.ENOTFOUND {
		t.Errorf("Versions: got %v, want ENOTFOUND", err)
	}
}

func TestGetRoundTrip(t *testing.T) {
	s := openTest(t)
	orig := &tenderbase.FASCase{ID: 42, Name: "Дело о закупке", CaseDate: day(3, 0), OrgXML: "<org><inn>7701234567</inn></org>"}
	put(t, s, orig)
	got, err := s.Get(context.Background(), tenderbase.KindFASCase, "42")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(tenderbase.Record(orig), got); diff != "" {
		t.Errorf("Get (-put +got):\n%s", diff)
	}
}
