-- CreateTable
CREATE TABLE "token_failures" (
    "id" BIGSERIAL NOT NULL,
    "client_key" TEXT NOT NULL,
    "ip_key" TEXT NOT NULL,
    "failed_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "token_failures_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "token_failures_client_key_failed_at_idx" ON "token_failures"("client_key", "failed_at");

-- CreateIndex
CREATE INDEX "token_failures_ip_key_failed_at_idx" ON "token_failures"("ip_key", "failed_at");
