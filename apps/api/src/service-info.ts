// eslint-disable-next-line @typescript-eslint/no-require-imports
const manifest = require('../package.json') as { version: string };

export const SERVICE_NAME = 'api';
export const SERVICE_VERSION = manifest.version;
