-- AlterTable (written as ADD COLUMN: Prisma generates a rebuild of the table, which SQLite does not
-- need for columns with a constant default; the resulting schema is the same)
ALTER TABLE "pending_run" ADD COLUMN "next_check" BIGINT NOT NULL DEFAULT 0;
ALTER TABLE "pending_run" ADD COLUMN "listed_by_pass" INTEGER NOT NULL DEFAULT 0;

-- Runs pending before listed_by_pass: taken as listed by the latest pass (the next pass settles it)
UPDATE "pending_run" SET "listed_by_pass" = COALESCE((SELECT MAX("id") FROM "ingest_pass"), 0);
