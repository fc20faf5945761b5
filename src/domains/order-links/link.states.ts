/** order_links.status (the database checks the same list). */
export const ORDER_LINK_STATUSES = ["ACTIVE", "CONFIRMED", "PAID", "EXPIRED", "CANCELLED"] as const;
export type OrderLinkStatus = (typeof ORDER_LINK_STATUSES)[number];
