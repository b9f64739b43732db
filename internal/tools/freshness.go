package tools

import (
	"context"
	"strings"

	"github.com/tenderbase/tenderbase/internal/freshness"
)

// freshnessArgs are the arguments of data.freshness.
type freshnessArgs struct {
	Source string `json:"source,omitempty" jsonschema:"e.g. eis; absent: all."`
}

// SetFreshness says which sources data.freshness reports on, and whether
// this server syncs each: cmd knows, the tools do not.
func (s *Set) SetFreshness(cfg freshness.Config) { s.freshness = cfg }

func (s *Set) dataFreshness() (*Tool, error) {
	return build(definition[freshnessArgs]{
		name:  "data.freshness",
		title: "Data freshness",
		description: "Per sync source: current to, lag, last error, data missing, synced here or not; the newest record " +
			"of each kind. Call before saying nothing new was published.",
		output: outputOf[freshness.Report](""),
		run: func(ctx context.Context, args freshnessArgs) (Output, error) {
			rep, err := freshness.Build(ctx, s.store, s.freshness, strings.TrimSpace(args.Source))
			if err != nil {
				return Output{}, err
			}
			return output(rep, restricted{})
		},
	})
}
