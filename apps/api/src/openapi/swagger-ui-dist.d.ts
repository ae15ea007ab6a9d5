// swagger-ui-dist ships no types; this is the one function used, from the file that holds it alone.
declare module 'swagger-ui-dist/absolute-path.js' {
  export default function getAbsoluteFSPath(): string;
}
