import { sql } from '@storage/persistence';

/** A transaction run by hand on a pg client checked out of a pool (retention batches, replays). */
export const BEGIN = sql('BEGIN');
export const COMMIT = sql('COMMIT');
export const ROLLBACK = sql('ROLLBACK');
