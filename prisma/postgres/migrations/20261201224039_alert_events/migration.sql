-- CreateTable
CREATE TABLE "alert_event" (
    "id" SERIAL NOT NULL,
    "receiver" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "event_key" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "created_at" BIGINT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_try" BIGINT NOT NULL DEFAULT 0,
    "sent_at" BIGINT,
    "last_error" TEXT NOT NULL DEFAULT '',

    CONSTRAINT "alert_event_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "alert_event_sent_at_next_try_idx" ON "alert_event"("sent_at", "next_try");

-- CreateIndex
CREATE UNIQUE INDEX "alert_event_receiver_event_key_key" ON "alert_event"("receiver", "event_key");
