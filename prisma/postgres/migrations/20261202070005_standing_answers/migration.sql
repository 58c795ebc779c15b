-- The answers for now a buildcop opens first (the hot list and its causes on each window tab),
-- computed by the ingester after each pass and served while the data they were computed on stands
-- (lib/answers/standing.ts): at OpenShift's scale one takes seconds to compute, a stored one
-- milliseconds to read.
CREATE TABLE "standing_answer" (
    "view" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "at" BIGINT NOT NULL,
    "took_ms" INTEGER NOT NULL,
    "body" TEXT NOT NULL,

    CONSTRAINT "standing_answer_pkey" PRIMARY KEY ("view")
);
