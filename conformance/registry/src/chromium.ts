// Chromium as npm ships it (@sparticuz/chromium: the binary inside the package, unpacked on first
// use), driven by playwright-core: no root, no apt, no system browser.
import sparticuz from '@sparticuz/chromium';
import { chromium, type Browser } from 'playwright-core';

/**
 * A headless Chromium; close it with `browser.close()`.
 *
 * @example
 * const browser = await launchChromium();
 * const page = await browser.newPage();
 * await browser.close();
 */
export async function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: await sparticuz.executablePath(), args: sparticuz.args, headless: true });
}
