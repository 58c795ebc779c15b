-- CreateTable
CREATE TABLE "rollup_test_day" (
    "day" INTEGER NOT NULL,
    "test_id" INTEGER NOT NULL,
    "job_id" INTEGER NOT NULL,
    "failed" INTEGER NOT NULL DEFAULT 0,
    "flaked" INTEGER NOT NULL DEFAULT 0,
    "failed_broken" INTEGER NOT NULL DEFAULT 0,
    "flaked_broken" INTEGER NOT NULL DEFAULT 0,

    PRIMARY KEY ("test_id", "day", "job_id")
);

-- CreateTable
CREATE TABLE "rollup_test_total" (
    "day" INTEGER NOT NULL,
    "test_id" INTEGER NOT NULL,
    "failed" INTEGER NOT NULL DEFAULT 0,
    "flaked" INTEGER NOT NULL DEFAULT 0,

    PRIMARY KEY ("day", "test_id")
);

-- CreateTable
CREATE TABLE "rollup_test_hour" (
    "hour" INTEGER NOT NULL,
    "test_id" INTEGER NOT NULL,
    "failed" INTEGER NOT NULL DEFAULT 0,
    "flaked" INTEGER NOT NULL DEFAULT 0,

    PRIMARY KEY ("hour", "test_id")
);

-- CreateTable
CREATE TABLE "rollup_run_day" (
    "day" INTEGER NOT NULL,
    "job_id" INTEGER NOT NULL,
    "test_set_id" INTEGER NOT NULL,
    "runs" INTEGER NOT NULL DEFAULT 0,
    "broken" INTEGER NOT NULL DEFAULT 0,

    PRIMARY KEY ("day", "job_id", "test_set_id")
);

-- CreateTable
CREATE TABLE "rollup_run_hour" (
    "hour" INTEGER NOT NULL,
    "job_id" INTEGER NOT NULL,
    "test_set_id" INTEGER NOT NULL,
    "runs" INTEGER NOT NULL DEFAULT 0,
    "broken" INTEGER NOT NULL DEFAULT 0,

    PRIMARY KEY ("hour", "job_id", "test_set_id")
);

-- CreateTable
CREATE TABLE "rollup_sig_day" (
    "day" INTEGER NOT NULL,
    "signature_id" INTEGER NOT NULL,
    "job_id" INTEGER NOT NULL,
    "runs" INTEGER NOT NULL DEFAULT 0,
    "flaked_runs" INTEGER NOT NULL DEFAULT 0,

    PRIMARY KEY ("day", "signature_id", "job_id")
);

-- CreateTable
CREATE TABLE "rollup_sig_total" (
    "day" INTEGER NOT NULL,
    "signature_id" INTEGER NOT NULL,
    "runs" INTEGER NOT NULL DEFAULT 0,
    "flaked_runs" INTEGER NOT NULL DEFAULT 0,
    "outcomes" INTEGER NOT NULL DEFAULT 0,

    PRIMARY KEY ("day", "signature_id")
);

-- CreateTable
CREATE TABLE "rollup_sig_hour" (
    "hour" INTEGER NOT NULL,
    "signature_id" INTEGER NOT NULL,
    "runs" INTEGER NOT NULL DEFAULT 0,
    "flaked_runs" INTEGER NOT NULL DEFAULT 0,
    "outcomes" INTEGER NOT NULL DEFAULT 0,

    PRIMARY KEY ("hour", "signature_id")
);

-- CreateTable
CREATE TABLE "rollup_sig_test_day" (
    "day" INTEGER NOT NULL,
    "signature_id" INTEGER NOT NULL,
    "test_id" INTEGER NOT NULL,
    "failed" INTEGER NOT NULL DEFAULT 0,
    "flaked" INTEGER NOT NULL DEFAULT 0,

    PRIMARY KEY ("signature_id", "day", "test_id")
);

-- CreateIndex
CREATE INDEX "rollup_test_day_day_job_id_idx" ON "rollup_test_day"("day", "job_id");

-- CreateIndex
CREATE INDEX "rollup_test_hour_test_id_hour_idx" ON "rollup_test_hour"("test_id", "hour");

-- CreateIndex
CREATE INDEX "rollup_sig_day_signature_id_day_idx" ON "rollup_sig_day"("signature_id", "day");

-- CreateIndex
CREATE INDEX "rollup_sig_test_day_test_id_day_idx" ON "rollup_sig_test_day"("test_id", "day");

-- Fill the rollups from the runs already stored
INSERT INTO rollup_test_day (day, test_id, job_id, failed, flaked, failed_broken, flaked_broken) SELECT o.started / 86400, o.test_id, o.job_id, SUM(CASE WHEN o.outcome = 1 THEN 1 ELSE 0 END) * 1, SUM(CASE WHEN o.outcome = 2 THEN 1 ELSE 0 END) * 1, SUM(CASE WHEN o.outcome = 1 AND (CASE WHEN r.install_failed = 1 OR r.failed >= 20 THEN 1 ELSE 0 END) = 1 THEN 1 ELSE 0 END) * 1, SUM(CASE WHEN o.outcome = 2 AND (CASE WHEN r.install_failed = 1 OR r.failed >= 20 THEN 1 ELSE 0 END) = 1 THEN 1 ELSE 0 END) * 1 FROM test_outcome o JOIN run r ON r.id = o.run_id WHERE o.run_id IN (SELECT id FROM run) GROUP BY o.started / 86400, o.test_id, o.job_id;
INSERT INTO rollup_test_total (day, test_id, failed, flaked) SELECT o.started / 86400, o.test_id, SUM(CASE WHEN o.outcome = 1 THEN 1 ELSE 0 END) * 1, SUM(CASE WHEN o.outcome = 2 THEN 1 ELSE 0 END) * 1 FROM test_outcome o WHERE o.run_id IN (SELECT id FROM run) GROUP BY o.started / 86400, o.test_id;
INSERT INTO rollup_test_hour (hour, test_id, failed, flaked) SELECT o.started / 3600, o.test_id, SUM(CASE WHEN o.outcome = 1 THEN 1 ELSE 0 END) * 1, SUM(CASE WHEN o.outcome = 2 THEN 1 ELSE 0 END) * 1 FROM test_outcome o WHERE o.run_id IN (SELECT id FROM run) GROUP BY o.started / 3600, o.test_id;
INSERT INTO rollup_run_day (day, job_id, test_set_id, runs, broken) SELECT r.started / 86400, r.job_id, COALESCE(r.test_set_id, 0), COUNT(*) * 1, SUM((CASE WHEN r.install_failed = 1 OR r.failed >= 20 THEN 1 ELSE 0 END)) * 1 FROM run r WHERE r.id IN (SELECT id FROM run) GROUP BY r.started / 86400, r.job_id, COALESCE(r.test_set_id, 0);
INSERT INTO rollup_run_hour (hour, job_id, test_set_id, runs, broken) SELECT r.started / 3600, r.job_id, COALESCE(r.test_set_id, 0), COUNT(*) * 1, SUM((CASE WHEN r.install_failed = 1 OR r.failed >= 20 THEN 1 ELSE 0 END)) * 1 FROM run r WHERE r.id IN (SELECT id FROM run) GROUP BY r.started / 3600, r.job_id, COALESCE(r.test_set_id, 0);
INSERT INTO rollup_sig_day (day, signature_id, job_id, runs, flaked_runs) SELECT s.started / 86400, s.signature_id, s.job_id, SUM(CASE WHEN s.worst = 1 THEN 1 ELSE 0 END) * 1, SUM(CASE WHEN s.worst = 2 THEN 1 ELSE 0 END) * 1 FROM (SELECT o.run_id, o.signature_id, MIN(o.outcome) AS worst, MIN(o.started) AS started, MIN(o.job_id) AS job_id FROM test_outcome o WHERE o.run_id IN (SELECT id FROM run) AND o.signature_id IS NOT NULL GROUP BY o.run_id, o.signature_id) s WHERE true GROUP BY s.started / 86400, s.signature_id, s.job_id;
INSERT INTO rollup_sig_total (day, signature_id, runs, flaked_runs, outcomes) SELECT s.started / 86400, s.signature_id, SUM(CASE WHEN s.worst = 1 THEN 1 ELSE 0 END) * 1, SUM(CASE WHEN s.worst = 2 THEN 1 ELSE 0 END) * 1, SUM(s.n) * 1 FROM (SELECT o.run_id, o.signature_id, MIN(o.outcome) AS worst, MIN(o.started) AS started, COUNT(*) AS n FROM test_outcome o WHERE o.run_id IN (SELECT id FROM run) AND o.signature_id IS NOT NULL GROUP BY o.run_id, o.signature_id) s WHERE true GROUP BY s.started / 86400, s.signature_id;
INSERT INTO rollup_sig_hour (hour, signature_id, runs, flaked_runs, outcomes) SELECT s.started / 3600, s.signature_id, SUM(CASE WHEN s.worst = 1 THEN 1 ELSE 0 END) * 1, SUM(CASE WHEN s.worst = 2 THEN 1 ELSE 0 END) * 1, SUM(s.n) * 1 FROM (SELECT o.run_id, o.signature_id, MIN(o.outcome) AS worst, MIN(o.started) AS started, COUNT(*) AS n FROM test_outcome o WHERE o.run_id IN (SELECT id FROM run) AND o.signature_id IS NOT NULL GROUP BY o.run_id, o.signature_id) s WHERE true GROUP BY s.started / 3600, s.signature_id;
INSERT INTO rollup_sig_test_day (day, signature_id, test_id, failed, flaked) SELECT o.started / 86400, o.signature_id, o.test_id, SUM(CASE WHEN o.outcome = 1 THEN 1 ELSE 0 END) * 1, SUM(CASE WHEN o.outcome = 2 THEN 1 ELSE 0 END) * 1 FROM test_outcome o WHERE o.run_id IN (SELECT id FROM run) AND o.signature_id IS NOT NULL GROUP BY o.started / 86400, o.signature_id, o.test_id;
