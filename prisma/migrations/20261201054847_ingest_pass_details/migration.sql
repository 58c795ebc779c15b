-- AlterTable (written as ADD COLUMN: Prisma generates a rebuild of the table, which SQLite does not
-- need for columns with a constant default; the resulting schema is the same)
ALTER TABLE "ingest_pass" ADD COLUMN "runs_failed" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "ingest_pass" ADD COLUMN "runs_lost" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "ingest_pass" ADD COLUMN "downloaded_bytes" BIGINT NOT NULL DEFAULT 0;
ALTER TABLE "ingest_pass" ADD COLUMN "seconds" REAL NOT NULL DEFAULT 0;
ALTER TABLE "ingest_pass" ADD COLUMN "warnings" TEXT NOT NULL DEFAULT '[]';

-- Passes before: their duration to the second
UPDATE "ingest_pass" SET "seconds" = "finished_at" - "started_at" WHERE "finished_at" IS NOT NULL;
