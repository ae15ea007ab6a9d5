/** The stream name of a Kafka partition in replay requests (`consumed_before` keys). */
export const kafkaStream = (topic: string, partition: number): string => `${topic}:${partition}`;
