-- CreateTable
CREATE TABLE "run_log" (
    "run_id" INTEGER NOT NULL,
    "path" TEXT NOT NULL,
    "body" BYTEA NOT NULL,
    "size" INTEGER NOT NULL,
    "tail_start" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "run_log_pkey" PRIMARY KEY ("run_id","path")
);

-- CreateTable
CREATE TABLE "search_doc" (
    "id" SERIAL NOT NULL,
    "kind" INTEGER NOT NULL,
    "base" INTEGER NOT NULL DEFAULT 0,
    "run_id" INTEGER,
    "job_id" INTEGER NOT NULL DEFAULT 0,
    "bug_pk" INTEGER,
    "started" BIGINT NOT NULL DEFAULT 0,
    "grams" TEXT NOT NULL,

    CONSTRAINT "search_doc_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "search_doc_kind_base_started_idx" ON "search_doc"("kind", "base", "started");

-- CreateIndex
CREATE INDEX "search_doc_run_id_idx" ON "search_doc"("run_id");

-- CreateIndex
CREATE INDEX "search_doc_bug_pk_idx" ON "search_doc"("bug_pk");

-- AddForeignKey
ALTER TABLE "run_log" ADD CONSTRAINT "run_log_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "search_doc" ADD CONSTRAINT "search_doc_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "search_doc" ADD CONSTRAINT "search_doc_bug_pk_fkey" FOREIGN KEY ("bug_pk") REFERENCES "bug"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The log bodies are brotli-compressed already: stored out of line without a second compression.
ALTER TABLE "run_log" ALTER COLUMN "body" SET STORAGE EXTERNAL;

-- The trigram index over search_doc.grams (not expressible in the Prisma schema). pg_trgm ships with
-- PostgreSQL and is a trusted extension: the database's owner may create it.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE INDEX "search_doc_grams_trgm_idx" ON "search_doc" USING gin ("grams" gin_trgm_ops);
