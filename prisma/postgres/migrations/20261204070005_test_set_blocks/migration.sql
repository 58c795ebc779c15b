-- Which test sets hold each test, as bits over blocks of 4,096 set ids (lib/store/testSetBlocks.ts):
-- a verdict asks it of its tests for every run of 14 days. At 24,000 runs a day those are 5,000 sets
-- of 3,000 tests, 15 MB to read and decode; a hot list's 100 tests are 200 rows of 512 bytes here.
-- The rows of test 0 mark the sets indexed so far.
CREATE TABLE "test_set_block" (
    "test_id" INTEGER NOT NULL,
    "block" INTEGER NOT NULL,
    "bits" BYTEA NOT NULL,

    CONSTRAINT "test_set_block_pkey" PRIMARY KEY ("test_id","block")
);
