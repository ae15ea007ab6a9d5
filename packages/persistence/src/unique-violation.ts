/** What a statement refused for breaking a unique key (SQLSTATE 23505) names: pg's error, or TypeORM's `driverError` of it. */
export interface UniqueViolation {
  table?: string;
  constraint?: string;
}

/** The unique key `error` reports broken, or undefined when it reports something else. */
export function uniqueViolation(error: unknown): UniqueViolation | undefined {
  const driverError = (error as { driverError?: unknown } | null)?.driverError ?? error;
  const { code, table, constraint } = (driverError ?? {}) as { code?: unknown; table?: string; constraint?: string };
  return code === '23505' ? { table, constraint } : undefined;
}
