-- CreateTable
CREATE TABLE "worker_processes" (
    "pool_id" TEXT NOT NULL,
    "lock_key" BIGINT NOT NULL,
    "pid" INTEGER NOT NULL,
    "host" TEXT NOT NULL,
    "started_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "heartbeat_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "worker_processes_pkey" PRIMARY KEY ("pool_id")
);
