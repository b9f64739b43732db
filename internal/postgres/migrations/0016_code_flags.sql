-- The prefixes of OKPD2 and CPV codes are flags of their records, not
-- lookups (tenderbase.Lookup.Flag): four in five lookup rows were theirs.
-- The records stored before get the flags when the store opens and
-- indexes them again (checkAnalysis), which writes their flags too.
DELETE FROM lookups WHERE field IN ('okpd2', 'cpv');
DELETE FROM analysis;
