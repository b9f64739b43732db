package tools

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"testing"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/demo"
	"github.com/tenderbase/tenderbase/internal/sqlite"
)

// demoSet is the tools over a SQLite store loaded with the demo dataset,
// shared by the tests that only read.
var demoSet *Set

func TestMain(m *testing.M) {
	flag.Parse()
	dir, err := os.MkdirTemp("", "tools-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := func() int {
		store, err := openDemo(context.Background(), dir+"/demo.db")
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		defer store.Close()
		demoSet = New(store, nil)
		demoSet.SetFreshness(freshnessConfig())
		return m.Run()
	}()
	os.RemoveAll(dir)
	os.Exit(code)
}

// openDemo opens a SQLite store at path loaded with the demo dataset.
func openDemo(ctx context.Context, path string) (*sqlite.Store, error) {
	store, err := sqlite.Open(ctx, path, nil)
	if err != nil {
		return nil, err
	}
	recs, err := demo.Records()
	if err == nil {
		_, err = store.Put(ctx, recs)
	}
	if err != nil {
		store.Close()
		return nil, err
	}
	return store, nil
}

// asPlan returns a context whose caller holds a key of plan p; PlanFree
// stands for a caller without a key.
func asPlan(p tenderbase.Plan) context.Context {
	if p == tenderbase.PlanFree {
		return context.Background()
	}
	return asAccount(p, "acct_test")
}

// asAccount returns a context whose caller holds a key of plan p of
// account.
func asAccount(p tenderbase.Plan, account string) context.Context {
	return tenderbase.NewContextWithKey(context.Background(), tenderbase.Key{ID: "k_test", Account: account, Plan: p, Status: tenderbase.KeyActive})
}

// call calls the tool name of set with args.
func call(t *testing.T, set *Set, ctx context.Context, name, args string) (Output, error) {
	t.Helper()
	tool, ok := set.Lookup(name)
	if !ok {
		t.Fatalf("no tool %s", name)
	}
	return tool.Call(ctx, json.RawMessage(args))
}

// mustCall calls a tool that must succeed and decodes its value.
func mustCall(t *testing.T, ctx context.Context, name, args string) (Output, map[string]any) {
	t.Helper()
	out, err := call(t, demoSet, ctx, name, args)
	if err != nil {
		t.Fatalf("%s %s: %v", name, args, err)
	}
	return out, decodeObject(t, out.Value)
}

func decodeObject(t *testing.T, v json.RawMessage) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(v, &m); err != nil {
		t.Fatalf("value is no JSON object: %v\n%s", err, v)
	}
	return m
}

// errorCode returns "argument" for an *ArgumentError and the code of err
// otherwise.
func errorCode(err error) string {
	var ae *ArgumentError
	if errors.As(err, &ae) {
		return "argument"
	}
	return tenderbase.ErrorCode(err)
}
