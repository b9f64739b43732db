-- The text analysis the full-text tables were written with
-- (textproc.AnalysisVersion). It starts empty, so that a store of any
-- earlier layout indexes its records again when it is opened: the lemma
-- table, look-alike letters and XML fields apart all change the words.
CREATE TABLE analysis (version TEXT NOT NULL);
