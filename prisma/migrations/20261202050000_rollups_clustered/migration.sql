-- The rollups are read by key ranges (a test's days, a day's jobs). As WITHOUT ROWID tables their
-- rows are stored in key order, so a range is a few contiguous pages instead of one table lookup per
-- row: at 24,000 runs a day the 100 tests of a hot list have about 430,000 rows of rollup_test_day in
-- 14 days, 2.6-3.7 s through the key's index into a rowid table. Prisma's schema cannot say WITHOUT
-- ROWID; the tables' columns and keys are unchanged.
-- Outcomes are read by test and time with their outcome, job, run and signature (a window's partial
-- days, a test's latest runs): the (test_id, started) index now holds those columns too, so those
-- reads never visit the table's rows, whose failure texts make it the largest table.

-- rollup_run_day
CREATE TABLE "new_rollup_run_day" (
    "day" INTEGER NOT NULL,
    "job_id" INTEGER NOT NULL,
    "test_set_id" INTEGER NOT NULL,
    "runs" INTEGER NOT NULL DEFAULT 0,
    "broken" INTEGER NOT NULL DEFAULT 0,

    PRIMARY KEY ("day", "job_id", "test_set_id")
) WITHOUT ROWID;
INSERT INTO "new_rollup_run_day" ("day", "job_id", "test_set_id", "runs", "broken") SELECT "day", "job_id", "test_set_id", "runs", "broken" FROM "rollup_run_day";
DROP TABLE "rollup_run_day";
ALTER TABLE "new_rollup_run_day" RENAME TO "rollup_run_day";

-- rollup_run_hour
CREATE TABLE "new_rollup_run_hour" (
    "hour" INTEGER NOT NULL,
    "job_id" INTEGER NOT NULL,
    "test_set_id" INTEGER NOT NULL,
    "runs" INTEGER NOT NULL DEFAULT 0,
    "broken" INTEGER NOT NULL DEFAULT 0,

    PRIMARY KEY ("hour", "job_id", "test_set_id")
) WITHOUT ROWID;
INSERT INTO "new_rollup_run_hour" ("hour", "job_id", "test_set_id", "runs", "broken") SELECT "hour", "job_id", "test_set_id", "runs", "broken" FROM "rollup_run_hour";
DROP TABLE "rollup_run_hour";
ALTER TABLE "new_rollup_run_hour" RENAME TO "rollup_run_hour";

-- rollup_sig_day
CREATE TABLE "new_rollup_sig_day" (
    "day" INTEGER NOT NULL,
    "signature_id" INTEGER NOT NULL,
    "job_id" INTEGER NOT NULL,
    "runs" INTEGER NOT NULL DEFAULT 0,
    "flaked_runs" INTEGER NOT NULL DEFAULT 0,

    PRIMARY KEY ("day", "signature_id", "job_id")
) WITHOUT ROWID;
INSERT INTO "new_rollup_sig_day" ("day", "signature_id", "job_id", "runs", "flaked_runs") SELECT "day", "signature_id", "job_id", "runs", "flaked_runs" FROM "rollup_sig_day";
DROP TABLE "rollup_sig_day";
ALTER TABLE "new_rollup_sig_day" RENAME TO "rollup_sig_day";
CREATE INDEX "rollup_sig_day_signature_id_day_idx" ON "rollup_sig_day"("signature_id", "day");

-- rollup_sig_hour
CREATE TABLE "new_rollup_sig_hour" (
    "hour" INTEGER NOT NULL,
    "signature_id" INTEGER NOT NULL,
    "runs" INTEGER NOT NULL DEFAULT 0,
    "flaked_runs" INTEGER NOT NULL DEFAULT 0,
    "outcomes" INTEGER NOT NULL DEFAULT 0,

    PRIMARY KEY ("hour", "signature_id")
) WITHOUT ROWID;
INSERT INTO "new_rollup_sig_hour" ("hour", "signature_id", "runs", "flaked_runs", "outcomes") SELECT "hour", "signature_id", "runs", "flaked_runs", "outcomes" FROM "rollup_sig_hour";
DROP TABLE "rollup_sig_hour";
ALTER TABLE "new_rollup_sig_hour" RENAME TO "rollup_sig_hour";

-- rollup_sig_test_day
CREATE TABLE "new_rollup_sig_test_day" (
    "day" INTEGER NOT NULL,
    "signature_id" INTEGER NOT NULL,
    "test_id" INTEGER NOT NULL,
    "failed" INTEGER NOT NULL DEFAULT 0,
    "flaked" INTEGER NOT NULL DEFAULT 0,

    PRIMARY KEY ("signature_id", "day", "test_id")
) WITHOUT ROWID;
INSERT INTO "new_rollup_sig_test_day" ("day", "signature_id", "test_id", "failed", "flaked") SELECT "day", "signature_id", "test_id", "failed", "flaked" FROM "rollup_sig_test_day";
DROP TABLE "rollup_sig_test_day";
ALTER TABLE "new_rollup_sig_test_day" RENAME TO "rollup_sig_test_day";
CREATE INDEX "rollup_sig_test_day_test_id_day_idx" ON "rollup_sig_test_day"("test_id", "day");

-- rollup_sig_total
CREATE TABLE "new_rollup_sig_total" (
    "day" INTEGER NOT NULL,
    "signature_id" INTEGER NOT NULL,
    "runs" INTEGER NOT NULL DEFAULT 0,
    "flaked_runs" INTEGER NOT NULL DEFAULT 0,
    "outcomes" INTEGER NOT NULL DEFAULT 0,

    PRIMARY KEY ("day", "signature_id")
) WITHOUT ROWID;
INSERT INTO "new_rollup_sig_total" ("day", "signature_id", "runs", "flaked_runs", "outcomes") SELECT "day", "signature_id", "runs", "flaked_runs", "outcomes" FROM "rollup_sig_total";
DROP TABLE "rollup_sig_total";
ALTER TABLE "new_rollup_sig_total" RENAME TO "rollup_sig_total";

-- rollup_test_day
CREATE TABLE "new_rollup_test_day" (
    "day" INTEGER NOT NULL,
    "test_id" INTEGER NOT NULL,
    "job_id" INTEGER NOT NULL,
    "failed" INTEGER NOT NULL DEFAULT 0,
    "flaked" INTEGER NOT NULL DEFAULT 0,
    "failed_broken" INTEGER NOT NULL DEFAULT 0,
    "flaked_broken" INTEGER NOT NULL DEFAULT 0,

    PRIMARY KEY ("test_id", "day", "job_id")
) WITHOUT ROWID;
INSERT INTO "new_rollup_test_day" ("day", "test_id", "job_id", "failed", "flaked", "failed_broken", "flaked_broken") SELECT "day", "test_id", "job_id", "failed", "flaked", "failed_broken", "flaked_broken" FROM "rollup_test_day";
DROP TABLE "rollup_test_day";
ALTER TABLE "new_rollup_test_day" RENAME TO "rollup_test_day";
CREATE INDEX "rollup_test_day_day_job_id_idx" ON "rollup_test_day"("day", "job_id");

-- rollup_test_hour
CREATE TABLE "new_rollup_test_hour" (
    "hour" INTEGER NOT NULL,
    "test_id" INTEGER NOT NULL,
    "failed" INTEGER NOT NULL DEFAULT 0,
    "flaked" INTEGER NOT NULL DEFAULT 0,

    PRIMARY KEY ("hour", "test_id")
) WITHOUT ROWID;
INSERT INTO "new_rollup_test_hour" ("hour", "test_id", "failed", "flaked") SELECT "hour", "test_id", "failed", "flaked" FROM "rollup_test_hour";
DROP TABLE "rollup_test_hour";
ALTER TABLE "new_rollup_test_hour" RENAME TO "rollup_test_hour";
CREATE INDEX "rollup_test_hour_test_id_hour_idx" ON "rollup_test_hour"("test_id", "hour");

-- rollup_test_total
CREATE TABLE "new_rollup_test_total" (
    "day" INTEGER NOT NULL,
    "test_id" INTEGER NOT NULL,
    "failed" INTEGER NOT NULL DEFAULT 0,
    "flaked" INTEGER NOT NULL DEFAULT 0,

    PRIMARY KEY ("day", "test_id")
) WITHOUT ROWID;
INSERT INTO "new_rollup_test_total" ("day", "test_id", "failed", "flaked") SELECT "day", "test_id", "failed", "flaked" FROM "rollup_test_total";
DROP TABLE "rollup_test_total";
ALTER TABLE "new_rollup_test_total" RENAME TO "rollup_test_total";

-- test_outcome
DROP INDEX "test_outcome_test_id_started_idx";
CREATE INDEX "test_outcome_by_test_idx" ON "test_outcome"("test_id", "started", "outcome", "job_id", "run_id", "signature_id");
