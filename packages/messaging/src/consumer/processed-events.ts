import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';

/**
 * Applies `effects` once per consumer group and event id: the processed_events row and the effects commit
 * together, so a redelivered or replayed event is recognised. Returns false when it had been processed.
 * A concurrent second delivery waits on the row's unique key and then sees it.
 */
export async function runOnce(
  dataSource: DataSource,
  group: string,
  eventId: string,
  effects: (manager: EntityManager) => Promise<void>,
): Promise<boolean> {
  return dataSource.transaction(async (manager) => {
    const inserted: unknown[] = await manager.query(
      'INSERT INTO processed_events (consumer_group, event_id) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING 1',
      [group, eventId],
    );
    if (inserted.length === 0) return false;
    await effects(manager);
    return true;
  });
}

/** `runOnce` on the service's DataSource, for injection into handlers. */
@Injectable()
export class ProcessedEvents {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  runOnce(group: string, eventId: string, effects: (manager: EntityManager) => Promise<void>): Promise<boolean> {
    return runOnce(this.dataSource, group, eventId, effects);
  }
}
