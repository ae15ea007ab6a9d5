/** pg's serialisation of a bound value (pg/lib/utils, untyped by @types/pg): what it sends for `$n`. */
declare module 'pg/lib/utils' {
  export function prepareValue(value: unknown): string | Buffer | null;
}
