import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { chromium, type BrowserContext } from 'playwright-core';

/** The version of `@sparticuz/chromium` (its Chromium's major) this package pins. */
const BUILD = '153.0.0';
/** Where the browser is unpacked: inside this checkout's `node_modules`, gone with it. */
const CACHE = fileURLToPath(new URL('../node_modules/.cache/', import.meta.url));
const UNPACKED = join(CACHE, `chromium-${BUILD}`);
const UNPACK_CHILD = fileURLToPath(new URL('../scripts/unpack-chromium.mjs', import.meta.url));
/** A fresh unpack takes about 2 s; a minute is a hang. */
const UNPACK_CAP_MS = 60_000;
/**
 * How long Chromium may take to start before it "did not start": a minute, as every process a
 * test starts (playwright's own default is 30 s, and a loaded 2-core machine is slow to start one).
 */
const LAUNCH_CAP_MS = 60_000;

/**
 * The flags every browser test runs Chromium with: headless, no sandbox (CI runs as root), and
 * no background traffic (this machine's network is closed). Web security stays on: the browser
 * tests depend on CORS being enforced.
 *
 * @example
 * await chromium.launch({ executablePath: await chromiumExecutable(), args: CHROMIUM_ARGS });
 */
export const CHROMIUM_ARGS: readonly string[] = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync',
];

let unpacking: Promise<string> | undefined;

/**
 * The path of a Chromium binary: `$CHROMIUM` when set (e.g. Debian's `/usr/bin/chromium`), else
 * the build shipped inside the npm package `@sparticuz/chromium`, unpacked on first use into this
 * checkout's `node_modules/.cache`. Unpacking goes to a staging folder that is renamed into place,
 * so test processes that start at once never run a half-written binary.
 *
 * @example
 * const executablePath = await chromiumExecutable(); // …/node_modules/.cache/chromium-153.0.0/chromium
 */
export function chromiumExecutable(): Promise<string> {
  const chosen = process.env.CHROMIUM;
  if (chosen) return Promise.resolve(chosen);
  unpacking ??= unpack().catch((error: unknown) => {
    unpacking = undefined;
    throw error;
  });
  return unpacking;
}

async function unpack(): Promise<string> {
  const binary = join(UNPACKED, 'chromium');
  if (existsSync(join(UNPACKED, 'fonts.conf'))) return binary; // written last: the folder is whole
  await mkdir(CACHE, { recursive: true });
  const staging = await mkdtemp(join(CACHE, 'staging-'));
  try {
    await promisify(execFile)(process.execPath, [UNPACK_CHILD], { env: { ...process.env, TMPDIR: staging }, timeout: UNPACK_CAP_MS });
    // The package's own fonts.conf names Lambda's folders: this one names the unpacked fonts and the system's.
    await writeFile(join(staging, 'fonts.conf'), [
      '<?xml version="1.0"?>', '<!DOCTYPE fontconfig SYSTEM "fonts.dtd">', '<fontconfig>',
      `  <dir>${UNPACKED}/fonts</dir>`, '  <dir>/usr/share/fonts</dir>', `  <cachedir>${UNPACKED}/fonts-cache</cachedir>`, '</fontconfig>', '',
    ].join('\n'));
    await rename(staging, UNPACKED);
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    if (!existsSync(join(UNPACKED, 'fonts.conf'))) throw error; // another process renamed its copy into place first
  }
  return binary;
}

/** A running browser on a fresh profile of its own. */
export interface LaunchedChromium {
  readonly context: BrowserContext;
  /** Ends the browser and removes its profile. */
  close(): Promise<void>;
}

/**
 * Real Chromium through playwright-core, on a fresh profile that `close()` removes. A browser that
 * has not started within a minute fails, naming the binary, with what it printed.
 *
 * @example
 * const browser = await launchChromium();
 * const page = await browser.context.newPage();
 * await page.goto(origin);
 * await browser.close();
 */
export async function launchChromium(options: { viewport?: { width: number; height: number }; deviceScaleFactor?: number } = {}): Promise<LaunchedChromium> {
  const executablePath = await chromiumExecutable();
  const profile = await mkdtemp(join(tmpdir(), 'mcp-resilience-chromium-'));
  const fontsConf = join(UNPACKED, 'fonts.conf');
  try {
    const context = await chromium.launchPersistentContext(profile, {
      executablePath, args: [...CHROMIUM_ARGS], timeout: LAUNCH_CAP_MS, ...options,
      ...(existsSync(fontsConf) && !process.env.CHROMIUM ? { env: { ...process.env, FONTCONFIG_FILE: fontsConf } } : {}),
    });
    return { context, close: async () => (await context.close(), await rm(profile, { recursive: true, force: true })) };
  } catch (error) {
    await rm(profile, { recursive: true, force: true });
    // playwright's message carries what the browser printed ("Browser logs:").
    throw new Error(`Chromium (${executablePath} ${CHROMIUM_ARGS.join(' ')}) did not start: ${(error as Error).message}`, { cause: error });
  }
}
