-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_pending_run" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "job" TEXT NOT NULL,
    "build_id" TEXT NOT NULL,
    "url" TEXT NOT NULL DEFAULT '',
    "state" TEXT NOT NULL,
    "started" BIGINT NOT NULL,
    "first_seen" BIGINT NOT NULL,
    "last_seen" BIGINT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "last_error" TEXT NOT NULL DEFAULT '',
    "record" TEXT NOT NULL DEFAULT '{}',
    "next_check" BIGINT NOT NULL DEFAULT 0,
    "listed_by_pass" INTEGER NOT NULL DEFAULT 0
);
INSERT INTO "new_pending_run" ("attempts", "build_id", "first_seen", "id", "job", "last_error", "last_seen", "record", "started", "state", "url") SELECT "attempts", "build_id", "first_seen", "id", "job", "last_error", "last_seen", "record", "started", "state", "url" FROM "pending_run";
DROP TABLE "pending_run";
ALTER TABLE "new_pending_run" RENAME TO "pending_run";
CREATE UNIQUE INDEX "pending_run_job_build_id_key" ON "pending_run"("job", "build_id");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;


-- Runs pending before listed_by_pass: taken as listed by the latest pass (the next pass settles it)
UPDATE "pending_run" SET "listed_by_pass" = COALESCE((SELECT MAX("id") FROM "ingest_pass"), 0);
