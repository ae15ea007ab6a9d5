import type {
  DataSource,
  EntityManager,
  EntitySubscriberInterface,
  QueryRunner,
  TransactionCommitEvent,
  TransactionRollbackEvent,
  TransactionStartEvent,
} from 'typeorm';

interface Deferred {
  /** The nesting level (1: the transaction, 2 and on: its savepoints) whose rollback drops the work. */
  depth: number;
  work: () => Promise<void>;
}

/**
 * Work that must follow a transaction's commit (what the database cannot take back, a file written): done at once
 * on a manager outside any transaction, after the outermost COMMIT on one inside, dropped if the transaction, or
 * the savepoint it was queued in, rolls back. TypeORM tells the DataSource's subscribers every transaction start,
 * commit and rollback of every query runner, savepoints as nested ones; this subscriber counts them per runner.
 * The work must not throw: the transaction it follows has committed.
 */
export class AfterCommit implements EntitySubscriberInterface {
  private readonly depths = new WeakMap<QueryRunner, number>();
  private readonly deferred = new WeakMap<QueryRunner, Deferred[]>();

  constructor(private readonly dataSource: DataSource) {
    dataSource.subscribers.push(this);
  }

  /** Stops following the DataSource's transactions (the application closes). */
  detach(): void {
    const index = this.dataSource.subscribers.indexOf(this);
    if (index >= 0) this.dataSource.subscribers.splice(index, 1);
  }

  async run(manager: EntityManager, work: () => Promise<void>): Promise<void> {
    const runner = manager.queryRunner;
    if (runner === undefined || !runner.isTransactionActive) return work();
    // A transaction begun before this subscriber was attached counts as one level.
    const depth = this.depths.get(runner) ?? 1;
    this.depths.set(runner, depth);
    this.deferred.set(runner, [...(this.deferred.get(runner) ?? []), { depth, work }]);
  }

  afterTransactionStart(event: TransactionStartEvent): void {
    this.depths.set(event.queryRunner, (this.depths.get(event.queryRunner) ?? 0) + 1);
  }

  async afterTransactionCommit(event: TransactionCommitEvent): Promise<void> {
    const depth = this.leave(event.queryRunner);
    const deferred = this.deferred.get(event.queryRunner);
    if (deferred === undefined) return;
    if (depth > 0) {
      // A savepoint released: its work now stands or falls with the level around it.
      for (const item of deferred) item.depth = Math.min(item.depth, depth);
      return;
    }
    this.deferred.delete(event.queryRunner);
    for (const item of deferred) await item.work();
  }

  afterTransactionRollback(event: TransactionRollbackEvent): void {
    const depth = this.leave(event.queryRunner);
    const kept = this.deferred.get(event.queryRunner)?.filter((item) => item.depth <= depth) ?? [];
    if (kept.length > 0) this.deferred.set(event.queryRunner, kept);
    else this.deferred.delete(event.queryRunner);
  }

  /** The runner's nesting level once a transaction or savepoint ended. */
  private leave(runner: QueryRunner): number {
    const depth = Math.max((this.depths.get(runner) ?? 1) - 1, 0);
    if (depth > 0) this.depths.set(runner, depth);
    else this.depths.delete(runner);
    return depth;
  }
}
