-- AlterTable
ALTER TABLE "bse_child_orders" ADD COLUMN     "switch_in_order_number" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "bse_child_orders_switch_in_order_number_key" ON "bse_child_orders"("switch_in_order_number");
