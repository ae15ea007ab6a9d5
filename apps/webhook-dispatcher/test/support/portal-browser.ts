/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// Functions given to page.evaluate run in the browser: they use its globals.
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';

/** The viewports the portal is checked at: a desktop, and a phone (390 px, as the issue measured). */
export const VIEWPORTS = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
] as const;

/** Where screenshots go: test artifacts, gitignored, for a person to look at after a run. */
const ARTIFACTS = path.join(__dirname, '..', '..', 'test-artifacts', 'portal');

interface AxeViolation {
  id: string;
  impact: string | null;
  nodes: { target: string[] }[];
}

let axeSource: Promise<string> | undefined;

/** axe-core's violations of impact serious or critical on the page as it is. */
export async function seriousViolations(page: Page): Promise<{ id: string; impact: string | null; targets: string[] }[]> {
  axeSource ??= readFile(require.resolve('axe-core/axe.min.js'), 'utf8');
  // Evaluated by the browser's debugger, not as a <script>: the portal's policy allows only its own scripts.
  await page.evaluate(await axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: () => Promise<{ violations: AxeViolation[] }> } }).axe;
    return (await axe.run()).violations;
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, impact: v.impact, targets: v.nodes.map((n) => n.target.join(' ')) }));
}

/** How far the page is wider than the window (0: no horizontal scroll), and the elements that stick out, to say which. */
export const horizontalOverflow = (page: Page): Promise<{ by: number; elements: string[] }> =>
  page.evaluate(() => {
    const by = Math.max(0, document.scrollingElement!.scrollWidth - window.innerWidth);
    // What sticks out, bar what a box scrolling sideways within itself holds.
    const outside =
      by === 0
        ? []
        : [...document.body.querySelectorAll('*')].filter(
            (e) => e.getBoundingClientRect().right > window.innerWidth + 0.5 && !e.parentElement?.closest('.scroll'),
          );
    const elements = outside
      .filter((e) => !outside.some((other) => other !== e && e.contains(other)))
      .map((e) => `${e.tagName.toLowerCase()}${e.id ? `#${e.id}` : ''}${e.getAttribute('class') ? `.${e.getAttribute('class')!.replaceAll(' ', '.')}` : ''}`);
    return { by, elements };
  });

/** The narrowest phone the portal is made for. */
const NARROWEST = 360;

/**
 * Checks the page as a person would meet it: no serious accessibility fault, no sideways scroll (at this width and at
 * the narrowest phone's); and keeps a screenshot.
 */
export async function checkPortalPage(page: Page, name: string): Promise<void> {
  await mkdir(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}-first-screen.png`) });
  expect({ name, violations: await seriousViolations(page) }).toEqual({ name, violations: [] });
  expect({ name, overflow: await horizontalOverflow(page) }).toEqual({ name, overflow: { by: 0, elements: [] } });
  const size = page.viewportSize()!;
  await page.setViewportSize({ width: NARROWEST, height: size.height });
  expect({ name, width: NARROWEST, overflow: await horizontalOverflow(page) }).toEqual({ name, width: NARROWEST, overflow: { by: 0, elements: [] } });
  await page.setViewportSize(size);
}

/**
 * Clicks a link or a form's button and waits until the page it leads to has loaded. A click returns once a navigation
 * it started promptly has begun; on a loaded machine the browser may start it later, and what is read next would be
 * the old page.
 */
export async function clickThrough(page: Page, selector: string): Promise<void> {
  await Promise.all([page.waitForEvent('load'), page.click(selector)]);
}
