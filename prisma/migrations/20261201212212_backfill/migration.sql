-- CreateTable
CREATE TABLE "backfill_cursor" (
    "job" TEXT NOT NULL PRIMARY KEY,
    "covered_from" BIGINT NOT NULL,
    "covered_to" BIGINT NOT NULL
);

-- AlterTable (written as ADD COLUMN: Prisma generates a rebuild of the table, which SQLite does not
-- need for columns with a constant default; the resulting schema is the same)
ALTER TABLE "ingest_pass" ADD COLUMN "runs_backfilled" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "ingest_pass" ADD COLUMN "runs_pruned" INTEGER NOT NULL DEFAULT 0;

-- first_seen was the time of the pass that stored the first run, and is now the start of the earliest
-- stored run: exact for jobs, and for tests as far as the stored failures tell (test sets cannot be read here)
UPDATE "job" SET "first_seen" = (SELECT MIN("started") FROM "run" WHERE "run"."job_id" = "job"."id") WHERE EXISTS (SELECT 1 FROM "run" WHERE "run"."job_id" = "job"."id");
UPDATE "test" SET "first_seen" = (SELECT MIN("started") FROM "test_outcome" WHERE "test_outcome"."test_id" = "test"."id")
  WHERE (SELECT MIN("started") FROM "test_outcome" WHERE "test_outcome"."test_id" = "test"."id") < "first_seen";
