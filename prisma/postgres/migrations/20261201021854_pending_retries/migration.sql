-- AlterTable
ALTER TABLE "pending_run" ADD COLUMN     "listed_by_pass" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "next_check" BIGINT NOT NULL DEFAULT 0;


-- Runs pending before listed_by_pass: taken as listed by the latest pass (the next pass settles it)
UPDATE "pending_run" SET "listed_by_pass" = COALESCE((SELECT MAX("id") FROM "ingest_pass"), 0);
