-- AlterTable
ALTER TABLE "pending_run" ADD COLUMN     "next_check" BIGINT NOT NULL DEFAULT 0;
