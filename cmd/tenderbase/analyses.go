package main

import (
	"context"
	"log/slog"

	"github.com/tenderbase/tenderbase"
	"github.com/tenderbase/tenderbase/internal/docanalysis"
	"github.com/tenderbase/tenderbase/internal/docjobs"
	"github.com/tenderbase/tenderbase/internal/webhook"
)

// analyzerID names the analyser serve wires in: the deterministic
// extraction of internal/docanalysis, and the model that writes the prose
// when one is configured. Another analyser takes another name, and so
// makes the stored analyses again.
func analyzerID(prose docanalysis.ProseWriter) string {
	const rules = "rules-1"
	if m, ok := prose.(interface{ Model() string }); ok {
		return rules + "+" + m.Model()
	}
	return rules
}

// analyzer returns the analyser of the documentation: the extraction,
// and the prose of the model when prose is not nil.
func analyzer(prose docanalysis.ProseWriter) func(context.Context, []docanalysis.File) (docanalysis.Analysis, error) {
	return func(ctx context.Context, files []docanalysis.File) (docanalysis.Analysis, error) {
		return docanalysis.AnalyzeWith(ctx, files, prose)
	}
}

// analyses builds the service of docs.analyze and the analysis jobs over
// store, or nil for a store that keeps no analyses.
func analyses(cfg *serveConfig, store tenderbase.Store, logger *slog.Logger) *docjobs.Service {
	as, ok := tenderbase.StoreAs[tenderbase.AnalysisStore](store)
	if !ok {
		return nil
	}
	return docjobs.New(docjobs.Config{
		Store: store, Analyses: as, Analyze: analyzer(cfg.Prose), AnalyzerID: analyzerID(cfg.Prose),
		Timeout:       cfg.AnalysisTimeout,
		Webhooks:      webhook.NewSender(cfg.Mail.Webhooks, "tenderbase/"+currentBuild().shortVersion()),
		WebhookPolicy: cfg.Mail.Webhooks,
		Logger:        logger.With("part", "analyses"),
	})
}

// startAnalyses runs the analysis jobs, those a stop left unfinished
// first, and returns what stops them and waits for them to stop.
func startAnalyses(ctx context.Context, cfg serveConfig) func() {
	svc := cfg.HTTP.Analyses
	if svc == nil {
		return func() {}
	}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		svc.Run(ctx)
	}()
	return func() { cancel(); <-done }
}
