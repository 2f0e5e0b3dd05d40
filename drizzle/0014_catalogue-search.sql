ALTER TABLE "products" ADD COLUMN "search_text" text GENERATED ALWAYS AS (lower(regexp_replace(code || ' ' || brand || ' ' || category || ' ' || name || ' ' || coalesce(operator, ''), '(\d)\.(?=\d{3})', '\1', 'g'))) STORED NOT NULL;--> statement-breakpoint
-- the search's trigram index, where pg_trgm can be had (PostgreSQL's contrib, PGlite's
-- bundled extension): "contains" matching then reads the index instead of every product.
-- Without it the search still works, scanning the table. Not in schema.ts: drizzle-kit
-- can't say "only if the extension exists".
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'pg_trgm') THEN
    CREATE EXTENSION IF NOT EXISTS pg_trgm;
    CREATE INDEX IF NOT EXISTS products_search_trgm ON products USING gin (search_text gin_trgm_ops);
  END IF;
EXCEPTION WHEN OTHERS THEN
  RAISE NOTICE 'no trigram index for the catalogue search (%): searches scan products', SQLERRM;
END $$;
