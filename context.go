package tenderbase

import "context"

type keyContextKey struct{}

// NewContextWithKey returns a copy of ctx that carries the caller's API key.
func NewContextWithKey(ctx context.Context, k Key) context.Context {
	return context.WithValue(ctx, keyContextKey{}, k)
}

// KeyFromContext returns the caller's API key, and false for a caller without
// one (an export request without api_code), who gets the free view.
func KeyFromContext(ctx context.Context) (Key, bool) {
	k, ok := ctx.Value(keyContextKey{}).(Key)
	return k, ok
}

// PlanFromContext returns the plan of the caller's key, or PlanFree.
func PlanFromContext(ctx context.Context) Plan {
	if k, ok := KeyFromContext(ctx); ok {
		return k.Plan
	}
	return PlanFree
}
