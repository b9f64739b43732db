-- doc_analyses keeps the analyses of tenders' documentation
-- (tenderbase.AnalysisStore), one per purchase number and version of the
-- documentation read; made_at in unix milliseconds.
CREATE TABLE doc_analyses (
    purchase TEXT    NOT NULL,
    version  TEXT    NOT NULL,
    body     TEXT    NOT NULL,
    made_at  INTEGER NOT NULL,
    PRIMARY KEY (purchase, version)
);

-- analysis_counts counts the analyses each account made in a month
-- ("2026-12"), against its plan's allowance.
CREATE TABLE analysis_counts (
    account TEXT    NOT NULL,
    month   TEXT    NOT NULL,
    made    INTEGER NOT NULL,
    PRIMARY KEY (account, month)
);

-- analysis_jobs are the jobs a CRM makes over HTTP. purchases holds the
-- purchase numbers as a JSON array; result the analysis once done.
CREATE TABLE analysis_jobs (
    id            TEXT    PRIMARY KEY,
    account       TEXT    NOT NULL,
    key_id        TEXT    NOT NULL,
    plan          TEXT    NOT NULL,
    purchases     TEXT    NOT NULL,
    state         TEXT    NOT NULL,
    error         TEXT    NOT NULL DEFAULT '',
    result        TEXT,
    webhook_url   TEXT    NOT NULL DEFAULT '',
    secret        TEXT    NOT NULL,
    webhook       TEXT    NOT NULL DEFAULT '',
    webhook_error TEXT    NOT NULL DEFAULT '',
    created_at    INTEGER NOT NULL,
    updated_at    INTEGER NOT NULL
);
CREATE INDEX analysis_jobs_unfinished ON analysis_jobs (state, webhook);
