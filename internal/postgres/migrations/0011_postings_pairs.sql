-- The postings hold the pairs of words side by side too (internal/postings),
-- so that a phrase of two words is counted from them. The records stored
-- before are indexed again when the store opens (checkAnalysis).
DELETE FROM analysis;
