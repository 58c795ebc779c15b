-- AlterTable
ALTER TABLE "ingest_pass" ADD COLUMN     "runs_not_stored" INTEGER NOT NULL DEFAULT 0;
