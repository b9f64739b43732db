-- Every tender gets a lookup "state", the state its protocols and events
-- give it (tenderbase.TenderState), so that a search can select tenders by
-- it with exact totals. Put derives it anew, in its transaction, whenever a
-- tender, a protocol or an event of it is put; Go derives it here for the
-- tenders stored before (settleAllStates, internal/postgres/state.go). No
-- table changes: the lookup lives in lookups.
SELECT 1;
