// swagger-ui-dist ships no types; this is the one function used.
declare module 'swagger-ui-dist' {
  export function getAbsoluteFSPath(): string;
}
