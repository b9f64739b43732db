-- subscriptions are saved searches whose matches are mailed
-- (tenderbase.SubscriptionStore). settings holds what the creator set, as
-- JSON; position is the seq of changes the mailer has read up to, and
-- ran_at when it last read them (unix milliseconds).
CREATE TABLE subscriptions (
    id         TEXT    PRIMARY KEY,
    account    TEXT    NOT NULL,
    settings   TEXT    NOT NULL,
    secret     TEXT    NOT NULL,
    position   INTEGER NOT NULL,
    ran_at     INTEGER NOT NULL,
    created_at INTEGER NOT NULL
);
CREATE INDEX subscriptions_account ON subscriptions (account);

-- deliveries are the mailings decided for each target of a subscription:
-- an e-mail address (mailto:) or a webhook. A pending one is sent from
-- next_attempt on (unix milliseconds), which also holds a sender's claim.
CREATE TABLE deliveries (
    id           TEXT    PRIMARY KEY,
    subscription TEXT    NOT NULL,
    target       TEXT    NOT NULL,
    mailing      TEXT    NOT NULL,
    status       TEXT    NOT NULL,
    attempts     INTEGER NOT NULL DEFAULT 0,
    next_attempt INTEGER NOT NULL,
    sent_at      INTEGER,
    last_error   TEXT    NOT NULL DEFAULT '',
    created_at   INTEGER NOT NULL
);
CREATE INDEX deliveries_due ON deliveries (status, next_attempt);
CREATE INDEX deliveries_subscription ON deliveries (subscription, created_at);
