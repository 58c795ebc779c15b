-- CreateTable
CREATE TABLE "run_log" (
    "run_id" INTEGER NOT NULL,
    "path" TEXT NOT NULL,
    "body" BLOB NOT NULL,
    "size" INTEGER NOT NULL,
    "tail_start" INTEGER NOT NULL DEFAULT 0,

    PRIMARY KEY ("run_id", "path"),
    CONSTRAINT "run_log_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "run" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "search_doc" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "kind" INTEGER NOT NULL,
    "base" INTEGER NOT NULL DEFAULT 0,
    "run_id" INTEGER,
    "job_id" INTEGER NOT NULL DEFAULT 0,
    "bug_pk" INTEGER,
    "started" BIGINT NOT NULL DEFAULT 0,
    "grams" TEXT NOT NULL,
    CONSTRAINT "search_doc_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "run" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "search_doc_bug_pk_fkey" FOREIGN KEY ("bug_pk") REFERENCES "bug" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "search_doc_kind_base_started_idx" ON "search_doc"("kind", "base", "started");

-- CreateIndex
CREATE INDEX "search_doc_run_id_idx" ON "search_doc"("run_id");

-- CreateIndex
CREATE INDEX "search_doc_bug_pk_idx" ON "search_doc"("bug_pk");

-- The trigram index over search_doc.grams (not expressible in the Prisma schema): FTS5 with the
-- trigram tokenizer, its content read from search_doc; only the tokens of each document are held
-- (detail=none): search asks for documents holding tokens, never for positions. Rows are added by
-- the code that inserts documents (lib/store/searchIndex.ts): an insert trigger made FTS5 write each
-- document on its own, 0.6 s a pass of the sample world instead of 0.2 s. Deletes, cascading from
-- runs and bugs, go through a trigger.
CREATE VIRTUAL TABLE "search_doc_fts" USING fts5("grams", content='search_doc', content_rowid='id', tokenize='trigram', detail='none');
CREATE TRIGGER "search_doc_fts_delete" AFTER DELETE ON "search_doc" BEGIN
  INSERT INTO "search_doc_fts" ("search_doc_fts", rowid, "grams") VALUES ('delete', old."id", old."grams");
END;
