import { InvalidArgumentError } from 'commander';

/** A commander option parser: a positive integer, else a usage error naming the value. */
export function positiveInt(given: string): number {
  const value = Number(given);
  if (!/^\d+$/.test(given) || !Number.isSafeInteger(value) || value < 1) throw new InvalidArgumentError(`a positive integer is needed, got "${given}"`);
  return value;
}
