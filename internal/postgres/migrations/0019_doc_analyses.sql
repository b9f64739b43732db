-- doc_analyses keeps the analyses of tenders' documentation
-- (tenderbase.AnalysisStore), one per purchase number and version of the
-- documentation read; made_at in unix milliseconds.
CREATE TABLE doc_analyses (
    purchase text   NOT NULL,
    version  text   NOT NULL,
    body     text   NOT NULL,
    made_at  bigint NOT NULL,
    PRIMARY KEY (purchase, version)
);

-- analysis_counts counts the analyses each account made in a month
-- ("2026-12"), against its plan's allowance.
CREATE TABLE analysis_counts (
    account text    NOT NULL,
    month   text    NOT NULL,
    made    integer NOT NULL,
    PRIMARY KEY (account, month)
);

-- analysis_jobs are the jobs a CRM makes over HTTP. purchases holds the
-- purchase numbers as a JSON array; result the analysis once done; made
-- numbers them in the order they were created.
CREATE TABLE analysis_jobs (
    id            text COLLATE "C" PRIMARY KEY,
    made          bigint GENERATED ALWAYS AS IDENTITY,
    account       text   NOT NULL,
    key_id        text   NOT NULL,
    plan          text   NOT NULL,
    purchases     text   NOT NULL,
    state         text   NOT NULL,
    error         text   NOT NULL DEFAULT '',
    result        text,
    webhook_url   text   NOT NULL DEFAULT '',
    secret        text   NOT NULL,
    webhook       text   NOT NULL DEFAULT '',
    webhook_error text   NOT NULL DEFAULT '',
    created_at    bigint NOT NULL,
    updated_at    bigint NOT NULL
);
CREATE INDEX analysis_jobs_unfinished ON analysis_jobs (state, webhook);
