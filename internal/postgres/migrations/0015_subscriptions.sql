-- subscriptions are saved searches whose matches are mailed
-- (tenderbase.SubscriptionStore). settings holds what the creator set, as
-- JSON kept as text, not jsonb, so that the search arguments come back as
-- they were given; position is the seq of changes the mailer has read up
-- to, and ran_at when it last read them (unix milliseconds). Ids sort
-- byte by byte (COLLATE "C"), as the SQLite store and Go order them;
-- made numbers them in the order they were created, which lists them.
CREATE TABLE subscriptions (
    id         text COLLATE "C" PRIMARY KEY, -- "s_" and 8 hex digits
    made       bigint GENERATED ALWAYS AS IDENTITY,
    account    text   NOT NULL,
    settings   text   NOT NULL,
    secret     text   NOT NULL,
    position   bigint NOT NULL,
    ran_at     bigint NOT NULL,
    created_at bigint NOT NULL
);
-- subscriptions_account serves an account's list and its count, done on
-- every new subscription.
CREATE INDEX subscriptions_account ON subscriptions (account);

-- deliveries are the mailings decided for each target of a subscription:
-- an e-mail address (mailto:) or a webhook. A pending one is sent from
-- next_attempt on (unix milliseconds), which also holds a sender's claim.
-- The deliveries sent or given up outlive their subscription.
CREATE TABLE deliveries (
    id           text COLLATE "C" PRIMARY KEY,
    subscription text    NOT NULL,
    target       text    NOT NULL,
    mailing      text    NOT NULL, -- tenderbase.Mailing, as JSON
    status       text    NOT NULL, -- pending, sent or failed
    attempts     integer NOT NULL DEFAULT 0,
    next_attempt bigint  NOT NULL,
    sent_at      bigint,
    last_error   text    NOT NULL DEFAULT '',
    created_at   bigint  NOT NULL
);
CREATE INDEX deliveries_due ON deliveries (status, next_attempt);
CREATE INDEX deliveries_subscription ON deliveries (subscription, created_at);
