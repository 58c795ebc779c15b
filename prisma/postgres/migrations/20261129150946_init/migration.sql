-- CreateTable
CREATE TABLE "job" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "type" TEXT NOT NULL DEFAULT '',
    "first_seen" BIGINT NOT NULL,

    CONSTRAINT "job_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "run" (
    "id" SERIAL NOT NULL,
    "job_id" INTEGER NOT NULL,
    "build_id" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "started" BIGINT NOT NULL,
    "finished" BIGINT,
    "url" TEXT NOT NULL DEFAULT '',
    "gcs_path" TEXT NOT NULL DEFAULT '',
    "pull" INTEGER,
    "base_ref" TEXT NOT NULL DEFAULT '',
    "commit_sha" TEXT NOT NULL DEFAULT '',
    "payload" TEXT NOT NULL DEFAULT '',
    "test_set_id" INTEGER,
    "passed" INTEGER NOT NULL DEFAULT 0,
    "failed" INTEGER NOT NULL DEFAULT 0,
    "flaked" INTEGER NOT NULL DEFAULT 0,
    "skipped" INTEGER NOT NULL DEFAULT 0,
    "install_failed" INTEGER NOT NULL DEFAULT 0,
    "parse_errors" INTEGER NOT NULL DEFAULT 0,
    "meta" TEXT NOT NULL DEFAULT '{}',
    "fingerprint" TEXT NOT NULL DEFAULT '',
    "ingested_at" BIGINT NOT NULL,

    CONSTRAINT "run_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "pending_run" (
    "id" SERIAL NOT NULL,
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

    CONSTRAINT "pending_run_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "test" (
    "id" SERIAL NOT NULL,
    "hash" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "first_seen" BIGINT NOT NULL,

    CONSTRAINT "test_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "test_set" (
    "id" SERIAL NOT NULL,
    "hash" TEXT NOT NULL,
    "size" INTEGER NOT NULL,
    "members" BYTEA NOT NULL,

    CONSTRAINT "test_set_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "test_outcome" (
    "run_id" INTEGER NOT NULL,
    "test_id" INTEGER NOT NULL,
    "outcome" INTEGER NOT NULL,
    "signature_id" INTEGER,
    "started" BIGINT NOT NULL,
    "job_id" INTEGER NOT NULL,
    "message" TEXT NOT NULL DEFAULT '',

    CONSTRAINT "test_outcome_pkey" PRIMARY KEY ("run_id","test_id")
);

-- CreateTable
CREATE TABLE "signature" (
    "id" SERIAL NOT NULL,
    "hash" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "first_seen" BIGINT NOT NULL,

    CONSTRAINT "signature_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "parse_error" (
    "id" SERIAL NOT NULL,
    "run_id" INTEGER NOT NULL,
    "file" TEXT NOT NULL,
    "message" TEXT NOT NULL,

    CONSTRAINT "parse_error_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ingest_pass" (
    "id" SERIAL NOT NULL,
    "started_at" BIGINT NOT NULL,
    "finished_at" BIGINT,
    "runs_new" INTEGER NOT NULL DEFAULT 0,
    "runs_updated" INTEGER NOT NULL DEFAULT 0,
    "runs_pending" INTEGER NOT NULL DEFAULT 0,
    "test_results" INTEGER NOT NULL DEFAULT 0,
    "parse_errors" INTEGER NOT NULL DEFAULT 0,
    "status" TEXT NOT NULL,
    "message" TEXT NOT NULL DEFAULT '',

    CONSTRAINT "ingest_pass_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "kv" (
    "key" TEXT NOT NULL,
    "value" TEXT NOT NULL,

    CONSTRAINT "kv_pkey" PRIMARY KEY ("key")
);

-- CreateTable
CREATE TABLE "bug" (
    "id" SERIAL NOT NULL,
    "tracker" TEXT NOT NULL,
    "bug_id" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "summary" TEXT NOT NULL DEFAULT '',
    "status" TEXT NOT NULL DEFAULT '',
    "resolution" TEXT NOT NULL DEFAULT '',
    "description" TEXT NOT NULL DEFAULT '',
    "comments" TEXT NOT NULL DEFAULT '',
    "component" TEXT NOT NULL DEFAULT '',
    "last_change" BIGINT,
    "closed_at" BIGINT,
    "fetched_at" BIGINT NOT NULL,

    CONSTRAINT "bug_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "bug_link" (
    "id" SERIAL NOT NULL,
    "bug_pk" INTEGER NOT NULL,
    "test_hash" TEXT NOT NULL DEFAULT '',
    "signature_hash" TEXT NOT NULL DEFAULT '',
    "reason" TEXT NOT NULL,
    "manual" INTEGER NOT NULL DEFAULT 0,
    "removed" INTEGER NOT NULL DEFAULT 0,
    "created_at" BIGINT NOT NULL,

    CONSTRAINT "bug_link_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "release_tag" (
    "id" SERIAL NOT NULL,
    "stream" TEXT NOT NULL,
    "tag" TEXT NOT NULL,
    "phase" TEXT NOT NULL,
    "pull_spec" TEXT NOT NULL DEFAULT '',
    "position" INTEGER NOT NULL DEFAULT 0,
    "results" TEXT NOT NULL DEFAULT '{}',
    "fetched_at" BIGINT NOT NULL,

    CONSTRAINT "release_tag_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "job_name_key" ON "job"("name");

-- CreateIndex
CREATE INDEX "run_started_idx" ON "run"("started");

-- CreateIndex
CREATE INDEX "run_job_id_started_idx" ON "run"("job_id", "started");

-- CreateIndex
CREATE UNIQUE INDEX "run_job_id_build_id_key" ON "run"("job_id", "build_id");

-- CreateIndex
CREATE UNIQUE INDEX "pending_run_job_build_id_key" ON "pending_run"("job", "build_id");

-- CreateIndex
CREATE UNIQUE INDEX "test_hash_key" ON "test"("hash");

-- CreateIndex
CREATE UNIQUE INDEX "test_set_hash_key" ON "test_set"("hash");

-- CreateIndex
CREATE INDEX "test_outcome_started_test_id_idx" ON "test_outcome"("started", "test_id");

-- CreateIndex
CREATE INDEX "test_outcome_test_id_started_idx" ON "test_outcome"("test_id", "started");

-- CreateIndex
CREATE INDEX "test_outcome_signature_id_started_idx" ON "test_outcome"("signature_id", "started");

-- CreateIndex
CREATE UNIQUE INDEX "signature_hash_key" ON "signature"("hash");

-- CreateIndex
CREATE INDEX "parse_error_run_id_idx" ON "parse_error"("run_id");

-- CreateIndex
CREATE UNIQUE INDEX "bug_tracker_bug_id_key" ON "bug"("tracker", "bug_id");

-- CreateIndex
CREATE INDEX "bug_link_test_hash_idx" ON "bug_link"("test_hash");

-- CreateIndex
CREATE UNIQUE INDEX "bug_link_bug_pk_test_hash_signature_hash_key" ON "bug_link"("bug_pk", "test_hash", "signature_hash");

-- CreateIndex
CREATE UNIQUE INDEX "release_tag_stream_tag_key" ON "release_tag"("stream", "tag");

-- AddForeignKey
ALTER TABLE "run" ADD CONSTRAINT "run_job_id_fkey" FOREIGN KEY ("job_id") REFERENCES "job"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "test_outcome" ADD CONSTRAINT "test_outcome_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "parse_error" ADD CONSTRAINT "parse_error_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "bug_link" ADD CONSTRAINT "bug_link_bug_pk_fkey" FOREIGN KEY ("bug_pk") REFERENCES "bug"("id") ON DELETE CASCADE ON UPDATE CASCADE;
