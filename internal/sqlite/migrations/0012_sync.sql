-- What the sync has done: the partitions of each source it completed, and
-- each source's state (a JSON of tenderbase.SyncState).
CREATE TABLE sync_checkpoints (
    source    TEXT NOT NULL,
    partition TEXT NOT NULL,           -- "77/PRIZ/epNotificationEF2020/2026-11-25"
    value     TEXT NOT NULL DEFAULT '',
    at        TEXT NOT NULL,           -- RFC 3339, UTC
    PRIMARY KEY (source, partition)
) WITHOUT ROWID;

CREATE TABLE sync_states (
    source TEXT PRIMARY KEY,
    state  TEXT NOT NULL
) WITHOUT ROWID;
