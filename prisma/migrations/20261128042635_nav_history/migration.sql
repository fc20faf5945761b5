-- CreateTable
CREATE TABLE "nav_history" (
    "scheme_code" TEXT NOT NULL,
    "nav_date" DATE NOT NULL,
    "nav" DECIMAL(18,4) NOT NULL,

    CONSTRAINT "nav_history_pkey" PRIMARY KEY ("scheme_code","nav_date")
);
