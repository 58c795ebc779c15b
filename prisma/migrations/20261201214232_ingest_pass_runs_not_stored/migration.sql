-- AlterTable (written as ADD COLUMN: Prisma generates a rebuild of the table, which SQLite does not
-- need for a column with a constant default; the resulting schema is the same)
ALTER TABLE "ingest_pass" ADD COLUMN "runs_not_stored" INTEGER NOT NULL DEFAULT 0;
