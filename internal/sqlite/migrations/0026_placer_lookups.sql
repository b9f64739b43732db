-- placer_inn finds a tender by who placed it: its organizer, or its
-- customer when the notice names no other organizer
-- (tenderbase.LookupPlacerINN), as the facts' organizer_inn already say
-- (0023, filled by 0025).
INSERT OR IGNORE INTO lookups (kind, field, value, rid)
SELECT 'tender', 'placer_inn', organizer_inn, rid FROM facts WHERE kind = 'tender' AND organizer_inn IS NOT NULL;
