import type { Pool } from 'pg';
import { saveOffset } from './offsets';

/** Offsets saved at most this often while records flow: a crash redelivers at most this much more (deduplicated). */
export const SAVE_INTERVAL_MS = 1_000;

/**
 * Saves a consumer group's offset without a write per read: the first progress at once, later progress at most
 * once per interval, each save taking the furthest finished position at that moment (`through`). Saves run one
 * at a time, so the saved offset never moves back.
 */
export class ProgressSaver {
  private saved: bigint;
  private lastSaveAt = 0;
  private timer: NodeJS.Timeout | undefined;
  private saving: Promise<void> = Promise.resolve();

  constructor(
    private readonly pool: Pool,
    private readonly group: string,
    start: bigint,
    private readonly through: () => bigint,
    private readonly onError: (error: unknown) => void,
  ) {
    this.saved = start;
  }

  /** There may be progress: saves it now, or at the end of the interval since the last save. */
  offer(): void {
    if (this.timer || this.through() === this.saved) return;
    const wait = this.lastSaveAt + SAVE_INTERVAL_MS - Date.now();
    if (wait <= 0) return void this.flush().catch(this.onError);
    this.timer = setTimeout(() => void this.flush().catch(this.onError), wait);
  }

  /** Saves the progress now (leadership ends), after any save under way. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const save = this.saving.then(async () => {
      const through = this.through();
      if (through === this.saved) return;
      this.lastSaveAt = Date.now();
      await saveOffset(this.pool, this.group, through);
      this.saved = through;
    });
    // A failed save is reported by its caller; the next one starts anyway.
    this.saving = save.catch(() => undefined);
    return save;
  }
}
