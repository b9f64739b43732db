package importer_test

import (
	"bytes"
	"context"
	"errors"
	"slices"

	"github.com/tenderbase/tenderbase"
)

// fakeStore keeps records in memory with the version rules of
// tenderbase.Store.Put, enough to tell what an import stored.
type fakeStore struct {
	current map[string]stored // by kind and key
	puts    int               // calls to Put that stored something
	sizes   []int             // records given to each of those calls
	// invalid names keys that Put refuses as invalid, as a store that
	// checks records further than the decoder would.
	invalid []string
	// fail, if set, is returned by every Put.
	fail error
	// afterPut, if set, is called after every successful Put.
	afterPut func()
}

type stored struct {
	revision int
	body     []byte
}

var _ tenderbase.Store = (*fakeStore)(nil)

func newFakeStore() *fakeStore { return &fakeStore{current: map[string]stored{}} }

func (s *fakeStore) Put(ctx context.Context, recs []tenderbase.Record) (tenderbase.PutResult, error) {
	if err := ctx.Err(); err != nil {
		return tenderbase.PutResult{}, err
	}
	if s.fail != nil {
		return tenderbase.PutResult{}, s.fail
	}
	for _, r := range recs {
		if slices.Contains(s.invalid, r.Key()) {
			return tenderbase.PutResult{}, tenderbase.Errorf(tenderbase.EINVALID, "%s %s: refused", r.Kind(), r.Key())
		}
	}
	var res tenderbase.PutResult
	for _, r := range recs {
		s.putOne(r, &res)
	}
	s.puts++
	s.sizes = append(s.sizes, len(recs))
	if s.afterPut != nil {
		s.afterPut()
	}
	return res, nil
}

func (s *fakeStore) putOne(r tenderbase.Record, res *tenderbase.PutResult) {
	body, _ := tenderbase.EncodeEnvelope(r)
	id := string(r.Kind()) + "/" + r.Key()
	old, ok := s.current[id]
	switch {
	case !ok:
		res.Inserted++
	case r.Revision() < old.revision:
		res.Older++
		return
	case r.Revision() == old.revision && bytes.Equal(body, old.body):
		res.Unchanged++
		return
	default:
		res.Replaced++
	}
	s.current[id] = stored{revision: r.Revision(), body: body}
}

func (s *fakeStore) Get(ctx context.Context, k tenderbase.Kind, key string) (tenderbase.Record, error) {
	return nil, errors.New("not used by the importer")
}

func (s *fakeStore) Versions(ctx context.Context, k tenderbase.Kind, key string) ([]tenderbase.Record, error) {
	return nil, errors.New("not used by the importer")
}

func (s *fakeStore) Search(ctx context.Context, q tenderbase.Search) (tenderbase.Page, error) {
	return tenderbase.Page{}, errors.New("not used by the importer")
}

func (s *fakeStore) Close() error { return nil }
