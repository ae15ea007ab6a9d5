import { chromium as playwright, type Browser } from 'playwright-core';

/**
 * The `@sparticuz/chromium` npm package: a Chromium binary shipped inside it, unpacked on first use. Its CommonJS
 * build is typed as an ES module (plain `.d.ts` under `"type": "module"`), so it is required with its shape here.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const chromium = require('@sparticuz/chromium') as { executablePath: () => Promise<string>; args: string[] };

/** A headless Chromium for the browser tests: no system package, no download at test time. */
export async function launchBrowser(): Promise<Browser> {
  return playwright.launch({ executablePath: await chromium.executablePath(), args: chromium.args, headless: true });
}
