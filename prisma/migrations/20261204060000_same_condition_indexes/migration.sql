-- A flaky test's hard failures are paired with a pass of the same job and payload (else commit)
-- (lib/verdicts/judge.ts). A payload is shared by thousands of runs across jobs: by job and start
-- alone that read scanned every run of the failures' jobs in the lookback (250 ms for a hot list at
-- 24,000 runs a day); by job and payload it reads the runs of those groups only.
CREATE INDEX "run_job_id_payload_started_idx" ON "run"("job_id", "payload", "started");

CREATE INDEX "run_job_id_commit_sha_started_idx" ON "run"("job_id", "commit_sha", "started");
