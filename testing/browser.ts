// Browser tests drive Debian's Chromium through playwright-core (no browser download).
// Outside CI a machine without Chromium skips them with a notice; in CI a missing browser fails.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium, type Browser, type Page } from 'playwright-core';

export const chromiumPath = process.env.PANYA_CHROMIUM ?? '/usr/bin/chromium';
const inCi = process.env.CI === 'true' || process.env.CI === '1';

/** Whether browser tests run here; prints why they are skipped when they are not. */
export function browserAvailable(suite: string): boolean {
  if (existsSync(chromiumPath) || inCi) return true;
  console.warn(`${suite}: browser tests skipped, Chromium not found at ${chromiumPath} (install Debian's chromium or set PANYA_CHROMIUM).`);
  return false;
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
}

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/**
 * Runs axe-core in the page and returns the serious and critical violations. axe is evaluated
 * through the DevTools protocol, not added as a script tag, so pages under a strict
 * Content-Security-Policy (no inline scripts) are checked as served.
 */
export async function seriousA11yViolations(page: Page): Promise<AxeViolation[]> {
  const axeSource = createRequire(import.meta.url)('axe-core').source as string;
  await page.evaluate(axeSource);
  const result = (await page.evaluate(async () => {
    // @ts-expect-error axe is injected above
    return window.axe.run(document, { resultTypes: ['violations'] });
  })) as { violations: AxeViolation[] };
  return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}
