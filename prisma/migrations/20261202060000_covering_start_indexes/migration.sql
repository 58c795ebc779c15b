-- Runs and outcomes are also read by time alone: the part of an hour at a window's edge (runs per job
-- and test set, outcomes per test and signature), how many runs a part of a day holds, the runs since
-- a test's last failure. The time indexes now hold the columns those reads take, so they never visit
-- the rows themselves (a run's row carries its URLs and metadata, an outcome's its failure text).
DROP INDEX "run_started_idx";
CREATE INDEX "run_by_start_idx" ON "run"("started", "job_id", "test_set_id", "install_failed", "failed");

DROP INDEX "test_outcome_started_test_id_idx";
CREATE INDEX "test_outcome_by_start_idx" ON "test_outcome"("started", "test_id", "outcome", "job_id", "run_id", "signature_id");
