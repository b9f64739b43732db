-- What the sync has done: the partitions of each source it completed, and
-- each source's state (tenderbase.SyncState).
CREATE TABLE sync_checkpoints (
    source    text        NOT NULL,
    partition text        NOT NULL,   -- "77/PRIZ/epNotificationEF2020/2026-11-25"
    value     text        NOT NULL DEFAULT '',
    at        timestamptz NOT NULL,
    PRIMARY KEY (source, partition)
);

CREATE TABLE sync_states (
    source text  PRIMARY KEY,
    state  jsonb NOT NULL
);
