/** Kafka topics (or embedded log streams); the version is part of the name so a breaking change gets a new topic. */
export const TENANT_LIFECYCLE_TOPIC = 'storage.tenant-lifecycle.v1';
export const BILLING_TOPIC = 'storage.billing.v1';
export const WEBHOOK_COMMANDS_TOPIC = 'storage.webhook-commands.v1';

export const TOPICS = [TENANT_LIFECYCLE_TOPIC, BILLING_TOPIC, WEBHOOK_COMMANDS_TOPIC] as const;
export type Topic = (typeof TOPICS)[number];
