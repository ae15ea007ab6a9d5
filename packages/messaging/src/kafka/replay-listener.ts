import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from '@nestjs/common';
import type { Notification, Pool } from 'pg';
import { query, sql } from '@storage/persistence';
import { describe } from '../consumer/deliver';
import { REPLAY_REQUESTS_CHANNEL } from '../replay/request-replay';

const RECONNECT_MS = 1_000;
const LISTEN = sql(`LISTEN ${REPLAY_REQUESTS_CHANNEL}`);

/**
 * Listens for the group's replay requests for as long as the consumer runs, on a connection of its own, reconnecting
 * after a loss. `onRequest` is called on every request announced for the group, and once each time listening starts,
 * for a request made while no connection listened.
 */
export class ReplayListener {
  private readonly stopping = new AbortController();
  private running: Promise<void> | undefined;

  constructor(
    private readonly pool: Pool,
    private readonly group: string,
    private readonly onRequest: () => void,
    private readonly logger: Logger,
  ) {}

  start(): void {
    this.running = this.listen();
  }

  async stop(): Promise<void> {
    this.stopping.abort();
    await this.running;
  }

  private async listen(): Promise<void> {
    const { signal } = this.stopping;
    while (!signal.aborted) {
      try {
        const client = await this.pool.connect();
        const ended = new Promise<void>((resolve) => {
          client.once('end', resolve);
          client.once('error', () => resolve());
          signal.addEventListener('abort', () => resolve(), { once: true });
        });
        const onNotification = ({ payload }: Notification): void => {
          if (payload === this.group) this.onRequest();
        };
        client.on('notification', onNotification);
        try {
          await query(client, LISTEN);
          this.onRequest();
          await ended;
        } finally {
          client.off('notification', onNotification);
          // Not back to the pool: the session still listens.
          client.release(true);
        }
      } catch (error) {
        if (!signal.aborted) this.logger.warn(`not listening for replay requests, retrying in ${RECONNECT_MS} ms: ${describe(error)}`);
      }
      await sleep(RECONNECT_MS, undefined, { signal }).catch(() => undefined);
    }
  }
}
