/** webhook_deliveries.status and webhook_subscriptions.status (the database checks the same lists). */
export const DELIVERY_STATUSES = ["PENDING", "DELIVERED", "PARKED", "FAILED"] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export const SUBSCRIPTION_STATUSES = ["ACTIVE", "DELETED", "DISABLED"] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];
