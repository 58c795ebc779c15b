-- An outcome's key and its foreign key hold its run's start: on PostgreSQL test_outcome is partitioned
-- by day of started, and a partitioned table's key must hold the partition key. The foreign key on
-- (run_id, started) keeps started its run's, so (run_id, test_id, started) identifies the same rows as
-- (run_id, test_id) did. SQLite has the same keys, so that both engines have one schema.
-- (Prisma's RedefineTables, reordered: migrations run inside a transaction, where PRAGMA foreign_keys
-- does nothing, so the run key the new foreign key references must exist before the rows are copied;
-- started is copied from the run.)

-- CreateIndex
CREATE UNIQUE INDEX "run_id_started_key" ON "run"("id", "started");

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_test_outcome" (
    "run_id" INTEGER NOT NULL,
    "test_id" INTEGER NOT NULL,
    "outcome" INTEGER NOT NULL,
    "signature_id" INTEGER,
    "started" BIGINT NOT NULL,
    "job_id" INTEGER NOT NULL,
    "message" TEXT NOT NULL DEFAULT '',

    PRIMARY KEY ("run_id", "test_id", "started"),
    CONSTRAINT "test_outcome_run_id_started_fkey" FOREIGN KEY ("run_id", "started") REFERENCES "run" ("id", "started") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_test_outcome" ("job_id", "message", "outcome", "run_id", "signature_id", "started", "test_id")
  SELECT o."job_id", o."message", o."outcome", o."run_id", o."signature_id", r."started", o."test_id" FROM "test_outcome" o JOIN "run" r ON r."id" = o."run_id";
DROP TABLE "test_outcome";
ALTER TABLE "new_test_outcome" RENAME TO "test_outcome";
CREATE INDEX "test_outcome_started_test_id_idx" ON "test_outcome"("started", "test_id");
CREATE INDEX "test_outcome_test_id_started_idx" ON "test_outcome"("test_id", "started");
CREATE INDEX "test_outcome_signature_id_started_idx" ON "test_outcome"("signature_id", "started");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
