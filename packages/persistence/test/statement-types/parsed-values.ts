/**
 * What node-pg makes of a column, by its type's oid: pg-types' default text parsers, which every workspace keeps (none
 * calls `setTypeParser`; `test/statement-types.test.ts` checks that this list is exactly the oids pg parses). A type
 * not listed (text, uuid, numeric, enums, name[], enum arrays…) arrives as its text: a string. `unknown` accepts any
 * type (JSON). Array elements may be null. Read by the type checker, not at run time.
 */
export interface ParsedValues {
  /** bool */ 16: boolean;
  /** bytea */ 17: Buffer;
  /** int8: kept as text, it may not fit a number */ 20: string;
  /** int2 */ 21: number;
  /** int4 */ 23: number;
  /** oid */ 26: number;
  /** json */ 114: unknown;
  /** json[] */ 199: readonly unknown[];
  /** point */ 600: { x: number; y: number };
  /** cidr[] */ 651: readonly (string | null)[];
  /** float4 */ 700: number;
  /** float8 */ 701: number;
  /** circle */ 718: { x: number; y: number; radius: number };
  /** money[] */ 791: readonly (string | null)[];
  /** bool[] */ 1000: readonly (boolean | null)[];
  /** bytea[] */ 1001: readonly (Buffer | null)[];
  /** int2[] */ 1005: readonly (number | null)[];
  /** int4[] */ 1007: readonly (number | null)[];
  /** regproc[] */ 1008: readonly (string | null)[];
  /** text[] */ 1009: readonly (string | null)[];
  /** bpchar[] */ 1014: readonly (string | null)[];
  /** varchar[] */ 1015: readonly (string | null)[];
  /** int8[] */ 1016: readonly (string | null)[];
  /** point[] */ 1017: readonly ({ x: number; y: number } | null)[];
  /** float4[] */ 1021: readonly (number | null)[];
  /** float8[] */ 1022: readonly (number | null)[];
  /** oid[] */ 1028: readonly (number | null)[];
  /** macaddr[] */ 1040: readonly (string | null)[];
  /** inet[] */ 1041: readonly (string | null)[];
  /** date: midnight local time */ 1082: Date;
  /** timestamp */ 1114: Date;
  /** timestamp[] */ 1115: readonly (Date | null)[];
  /** date[] */ 1182: readonly (Date | null)[];
  /** time[] */ 1183: readonly (string | null)[];
  /** timestamptz */ 1184: Date;
  /** timestamptz[] */ 1185: readonly (Date | null)[];
  /** interval: postgres-interval's object */ 1186: { hours?: number; minutes?: number; seconds?: number; days?: number; months?: number; years?: number };
  /** interval[] */ 1187: readonly unknown[];
  /** numeric[]: parsed as floats, unlike numeric */ 1231: readonly (number | null)[];
  /** timetz[] */ 1270: readonly (string | null)[];
  /** uuid[] */ 2951: readonly (string | null)[];
  /** jsonb */ 3802: unknown;
  /** jsonb[] */ 3807: readonly unknown[];
  /** numrange[] */ 3907: readonly (string | null)[];
}
