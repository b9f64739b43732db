-- API keys. The secret is never stored, only its SHA-256, by which a
-- presented secret is found.
CREATE TABLE keys (
    id          TEXT    PRIMARY KEY,          -- public, "k_" and 8 hex digits
    name        TEXT    NOT NULL,
    account     TEXT    NOT NULL,
    plan        TEXT    NOT NULL,
    status      TEXT    NOT NULL CHECK (status IN ('active', 'suspended', 'revoked')),
    created_at  TEXT    NOT NULL,             -- RFC 3339, UTC
    overrides   TEXT    NOT NULL DEFAULT '{}', -- JSON of tenderbase.Limits
    secret_hash BLOB    NOT NULL UNIQUE
);

-- keys_account serves the seat count of an account, done on every new key.
CREATE INDEX keys_account ON keys (account, status);
