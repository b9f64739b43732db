// Package metrics keeps the service's Prometheus metrics and serves them on
// GET /metrics: the requests by route, tool and status and their latency,
// the rate-limit refusals, the store's operations, the records written, the
// sync's progress and the open connections.
package metrics

import (
	"net"
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/tenderbase/tenderbase/internal/reqinfo"
)

// namespace starts every metric's name.
const namespace = "tenderbase"

// Buckets of the latency histograms, in seconds: from a cached lookup to the
// request deadline (20 s by default).
var (
	requestBuckets = []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 20}
	storeBuckets   = []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 20}
)

// Build names the running build in tenderbase_build_info.
type Build struct {
	Version, Commit, GoVersion string
}

// Metrics is the set of the service's metrics, in a registry of its own so
// that two servers in one process (tests) do not share counts. It is safe
// for concurrent use.
type Metrics struct {
	registry *prometheus.Registry

	requests      *prometheus.CounterVec
	toolCalls     *prometheus.CounterVec
	duration      *prometheus.HistogramVec
	inFlight      prometheus.Gauge
	rateLimited   *prometheus.CounterVec
	connections   prometheus.Gauge
	storeDuration *prometheus.HistogramVec
	storeErrors   *prometheus.CounterVec
	written       *prometheus.CounterVec
	syncDone      *prometheus.GaugeVec
	syncPlanned   *prometheus.GaugeVec
	syncFiles     *prometheus.GaugeVec
	syncRecords   *prometheus.GaugeVec
	syncRejected  *prometheus.GaugeVec
	syncThrottled *prometheus.GaugeVec
	syncSetAside  *prometheus.GaugeVec
	syncAsideLast *prometheus.GaugeVec
	mailings      *prometheus.CounterVec
	deliveries    *prometheus.CounterVec
}

// New returns the metrics of a service running build b, with the Go
// runtime's and the process's own.
func New(b Build) *Metrics {
	m := &Metrics{registry: prometheus.NewRegistry()}
	f := factory{m.registry}
	m.requests = f.counterVec("http_requests_total",
		"HTTP requests answered, by route pattern, tool (MCP tool or export mode) and status.", "route", "tool", "status")
	m.toolCalls = f.counterVec("tool_calls_total",
		"Tool calls (MCP and debug endpoints) and exports answered, by tool or export mode and outcome: ok, or the error code "+
			"(invalid, not_found, forbidden, rate_limited, timeout, internal...). A failed MCP call is an HTTP 200 all the same.",
		"tool", "outcome")
	m.duration = f.histogramVec("http_request_duration_seconds",
		"Time from a request's arrival to the end of its answer, by route pattern and tool.",
		requestBuckets, "route", "tool")
	m.inFlight = f.gauge("http_requests_in_flight", "HTTP requests being handled.")
	m.rateLimited = f.counterVec("rate_limited_total",
		"Requests refused for their rate limit, by route pattern and caller (key or anonymous).", "route", "caller")
	m.connections = f.gauge("http_open_connections", "HTTP connections open, idle or not.")
	m.storeDuration = f.histogramVec("store_operation_duration_seconds",
		"Time of a store operation, by operation (get, versions, search, put, standings).",
		storeBuckets, "operation")
	m.storeErrors = f.counterVec("store_errors_total",
		"Store operations that failed for another reason than a record not found, by operation.", "operation")
	m.written = f.counterVec("store_records_written_total",
		"Records put into the store, by result: inserted, replaced (a newer version) or unchanged.", "result")
	m.syncDone = f.gaugeVec("sync_partitions_done", "Partitions (days, regions) a sync run of the source has done.", "source")
	m.syncPlanned = f.gaugeVec("sync_partitions_planned", "Partitions a sync run of the source has planned.", "source")
	m.syncFiles = f.gaugeVec("sync_files_imported", "Files a sync run of the source has imported.", "source")
	m.syncRecords = f.gaugeVec("sync_records_imported", "Records a sync run of the source has imported.", "source")
	m.syncRejected = f.gaugeVec("sync_records_rejected", "Records and files a sync run of the source has rejected.", "source")
	m.syncThrottled = f.gaugeVec("sync_downloads_throttled",
		"Downloads a sync run of the source was told by the publisher to wait for (the EIS's \"download blocked\"), and waited for.", "source")
	m.syncSetAside = f.gaugeVec("sync_partitions_set_aside",
		"Partitions of the source that failed every attempt and are set aside, retried on their own schedule: data missing.", "source")
	m.syncAsideLast = f.gaugeVec("sync_partition_set_aside_last",
		"The partition of the source set aside last, and its error; the value is always 1.", "source", "partition", "error")
	m.mailings = f.counterVec("mailings_decided_total",
		"Mailings of subscriptions decided, by type (new, winners).", "type")
	m.deliveries = f.counterVec("mail_deliveries_total",
		"Attempts at delivering a mailing, by channel (email, webhook) and outcome (sent, retried, failed).", "channel", "outcome")
	build := f.gaugeVec("build_info", "The running build; the value is always 1.", "version", "commit", "goversion")
	build.WithLabelValues(b.Version, b.Commit, b.GoVersion).Set(1)
	m.registry.MustRegister(
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
	)
	return m
}

// Handler serves the metrics in the Prometheus text format (or OpenMetrics
// when the scraper asks for it).
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.registry, promhttp.HandlerOpts{EnableOpenMetrics: true})
}

// Registry is where the metrics are registered, for a test to gather them.
func (m *Metrics) Registry() *prometheus.Registry { return m.registry }

// RequestStarted counts a request in flight until the function it returns
// is called with the request's status.
func (m *Metrics) RequestStarted() (done func(info *reqinfo.Info, status int)) {
	start := time.Now()
	m.inFlight.Inc()
	return func(info *reqinfo.Info, status int) {
		// Out of flight last, once counted: a scrape that sees no other
		// request in flight sees every answered one counted.
		defer m.inFlight.Dec()
		route := info.Route
		if route == "" {
			route = "unmatched"
		}
		m.requests.WithLabelValues(route, info.Tool, strconv.Itoa(status)).Inc()
		m.duration.WithLabelValues(route, info.Tool).Observe(time.Since(start).Seconds())
		if info.Tool != "" {
			m.toolCalls.WithLabelValues(info.Tool, outcome(info, status)).Inc()
		}
		if info.RateLimited {
			caller := "key"
			if info.KeyID == "" {
				caller = "anonymous"
			}
			m.rateLimited.WithLabelValues(route, caller).Inc()
		}
	}
}

// outcome is the outcome label of a tool call or an export: its failure's
// code, else "ok" for a success, else "error" for an answer of another
// error status that said no code.
func outcome(info *reqinfo.Info, status int) string {
	switch {
	case info.Failure != "":
		return info.Failure
	case status < 400:
		return "ok"
	}
	return "error"
}

// ConnState counts the open connections; it is an http.Server's ConnState.
func (m *Metrics) ConnState(_ net.Conn, state http.ConnState) {
	switch state {
	case http.StateNew:
		m.connections.Inc()
	case http.StateClosed, http.StateHijacked:
		m.connections.Dec()
	}
}

// factory registers each metric it makes under the namespace.
type factory struct{ r *prometheus.Registry }

func (f factory) counterVec(name, help string, labels ...string) *prometheus.CounterVec {
	c := prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: namespace, Name: name, Help: help}, labels)
	f.r.MustRegister(c)
	return c
}

func (f factory) histogramVec(name, help string, buckets []float64, labels ...string) *prometheus.HistogramVec {
	h := prometheus.NewHistogramVec(prometheus.HistogramOpts{Namespace: namespace, Name: name, Help: help, Buckets: buckets}, labels)
	f.r.MustRegister(h)
	return h
}

func (f factory) gauge(name, help string) prometheus.Gauge {
	g := prometheus.NewGauge(prometheus.GaugeOpts{Namespace: namespace, Name: name, Help: help})
	f.r.MustRegister(g)
	return g
}

func (f factory) gaugeVec(name, help string, labels ...string) *prometheus.GaugeVec {
	g := prometheus.NewGaugeVec(prometheus.GaugeOpts{Namespace: namespace, Name: name, Help: help}, labels)
	f.r.MustRegister(g)
	return g
}

// MailingDecided counts a mailing of a subscription decided; it is a
// mailing.Observer's.
func (m *Metrics) MailingDecided(kind string) { m.mailings.WithLabelValues(kind).Inc() }

// DeliveryAttempted counts an attempt at a delivery by its outcome.
func (m *Metrics) DeliveryAttempted(channel, outcome string) {
	m.deliveries.WithLabelValues(channel, outcome).Inc()
}
