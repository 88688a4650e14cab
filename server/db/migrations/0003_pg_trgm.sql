-- Trigram indexes (gin_trgm_ops) serve the lists' substring search ($search). pg_trgm ships with
-- PostgreSQL (a trusted extension: the database owner may create it) and with PGlite's contrib.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
