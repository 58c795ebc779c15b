-- Day packs: a whole past UTC day of a per-day rollup for one id (a test, a signature), all its rows
-- of that day in one blob (lib/store/dayPacks.ts). At 24,000 runs a day the 100 tests of a hot list
-- have about 470,000 rows of rollup_test_day in 14 days; their packs are 1,400 rows.
-- A rowid table (not WITHOUT ROWID): its rows are kilobytes each.
CREATE TABLE "day_pack" (
    "rollup" TEXT NOT NULL,
    "id" INTEGER NOT NULL,
    "day" INTEGER NOT NULL,
    "cells" BLOB NOT NULL,

    PRIMARY KEY ("rollup", "id", "day")
);
