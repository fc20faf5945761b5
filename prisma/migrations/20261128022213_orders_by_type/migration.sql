-- CreateIndex
CREATE INDEX "orders_distributor_id_order_type_id_idx" ON "orders"("distributor_id", "order_type", "id");
