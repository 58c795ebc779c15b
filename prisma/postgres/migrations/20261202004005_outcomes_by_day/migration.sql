-- test_outcome partitioned by day of started (Unix seconds, UTC days), so that retention drops whole
-- days (lib/store/partitions.ts, which also creates the day partitions rows go to, before they are
-- written). Written by hand: Prisma's schema cannot say PARTITION BY, so it would only change the keys
-- (as prisma/schema.prisma has them, the same on both engines). No semicolon but between statements:
-- the offline migration tool's PostgreSQL adapter splits scripts at every one.
-- A partitioned table's primary key must hold the partition key: (run_id, test_id, started). The
-- foreign key on (run_id, started) to the run's (id, started) keeps started its run's, so the key
-- identifies the same rows as (run_id, test_id) did. run itself is not partitioned: its identity,
-- UNIQUE (job_id, build_id), which ingest's ON CONFLICT relies on, could not be kept on a table
-- partitioned by started (a unique index there must hold started, and a run's started can differ
-- between Deck's record, started.json and prowjob.json), and a day's runs are few (24,000) next to its
-- outcomes.
-- An existing database is converted: its outcomes are copied into day partitions (started taken from
-- the run), then the old table is dropped.

-- CreateIndex
CREATE UNIQUE INDEX "run_id_started_key" ON "run"("id", "started");

CREATE TABLE "test_outcome_by_day" (
    "run_id" INTEGER NOT NULL,
    "test_id" INTEGER NOT NULL,
    "outcome" INTEGER NOT NULL,
    "signature_id" INTEGER,
    "started" BIGINT NOT NULL,
    "job_id" INTEGER NOT NULL,
    "message" TEXT NOT NULL DEFAULT ''
) PARTITION BY RANGE ("started");

-- one partition per day the outcomes have (statement separators inside the block are written \x3B:
-- the offline migration tool's PostgreSQL adapter splits scripts at every semicolon)
DO E'DECLARE day BIGINT\x3B
BEGIN
  FOR day IN SELECT DISTINCT div(r."started", 86400) FROM "test_outcome" o JOIN "run" r ON r."id" = o."run_id" LOOP
    EXECUTE format(''CREATE TABLE %I PARTITION OF "test_outcome_by_day" FOR VALUES FROM (%s) TO (%s)'',
      ''test_outcome_d'' || to_char(to_timestamp(day * 86400) AT TIME ZONE ''UTC'', ''YYYYMMDD''), day * 86400, (day + 1) * 86400)\x3B
  END LOOP\x3B
END';

INSERT INTO "test_outcome_by_day" ("run_id", "test_id", "outcome", "signature_id", "started", "job_id", "message")
  SELECT o."run_id", o."test_id", o."outcome", o."signature_id", r."started", o."job_id", o."message" FROM "test_outcome" o JOIN "run" r ON r."id" = o."run_id";

DROP TABLE "test_outcome";
ALTER TABLE "test_outcome_by_day" RENAME TO "test_outcome";

-- AddPrimaryKey (as Prisma names it)
ALTER TABLE "test_outcome" ADD CONSTRAINT "test_outcome_pkey" PRIMARY KEY ("run_id", "test_id", "started");

-- CreateIndex
CREATE INDEX "test_outcome_started_test_id_idx" ON "test_outcome"("started", "test_id");

-- CreateIndex
CREATE INDEX "test_outcome_test_id_started_idx" ON "test_outcome"("test_id", "started");

-- CreateIndex
CREATE INDEX "test_outcome_signature_id_started_idx" ON "test_outcome"("signature_id", "started");

-- AddForeignKey
ALTER TABLE "test_outcome" ADD CONSTRAINT "test_outcome_run_id_started_fkey" FOREIGN KEY ("run_id", "started") REFERENCES "run"("id", "started") ON DELETE CASCADE ON UPDATE CASCADE;
