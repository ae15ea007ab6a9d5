/**
 * A setting this package reads refused, worded as @storage/platform's ConfigError words its (which this package may
 * not import): the variable and the rule, never the value, which may hold a password.
 */
export const invalidSetting = (variable: string, rule: string): Error => new Error(`Invalid configuration:\n  - ${variable}: ${rule}`);
