-- API keys. The secret is never stored, only its SHA-256, by which a
-- presented secret is found. seq keeps the order keys were created in,
-- which a clock set back would not.
CREATE TABLE keys (
    seq         bigserial   NOT NULL UNIQUE,
    id          text        PRIMARY KEY,   -- public, "k_" and 8 hex digits
    name        text        NOT NULL,
    account     text        NOT NULL,
    plan        text        NOT NULL,
    status      text        NOT NULL CHECK (status IN ('active', 'suspended', 'revoked')),
    created_at  timestamptz NOT NULL,
    overrides   jsonb       NOT NULL DEFAULT '{}', -- tenderbase.Limits
    secret_hash bytea       NOT NULL UNIQUE
);

-- keys_account serves the seat count of an account, done on every new key.
CREATE INDEX keys_account ON keys (account, status);
