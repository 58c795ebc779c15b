-- AlterTable
ALTER TABLE "ingest_pass" ADD COLUMN     "downloaded_bytes" BIGINT NOT NULL DEFAULT 0,
ADD COLUMN     "runs_failed" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "runs_lost" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "seconds" DOUBLE PRECISION NOT NULL DEFAULT 0,
ADD COLUMN     "warnings" TEXT NOT NULL DEFAULT '[]';


-- Passes before: their duration to the second
UPDATE "ingest_pass" SET "seconds" = "finished_at" - "started_at" WHERE "finished_at" IS NOT NULL;
