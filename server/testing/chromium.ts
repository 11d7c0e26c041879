import { existsSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

// Which Chromium the QA kit's Playwright fixtures launch when the project says nothing (no config
// file, or a config without launchOptions.executablePath): CHROMIUM_PATH when set, else Playwright's
// own download (`npx playwright install chromium`, or its headless shell for a headless run), else
// a Chromium or Chrome installed on the system. Pure: the caller passes the environment and a way
// to check a path, so each branch is testable on any machine.

/** Where a Chromium was found, or `none` with every place tried. */
export type ChromiumChoice =
  | { source: 'launchOptions' | 'channel' | 'remote' | 'other browser' | 'playwright' }
  | { source: 'CHROMIUM_PATH' | 'system'; executablePath: string }
  | { source: 'none'; tried: string[]; message: string };

export interface ChromiumQuery {
  /** Playwright's `browserName` for the worker. */
  browserName: string;
  /** The worker's launchOptions as the config set them. */
  launchOptions: { executablePath?: string; channel?: string; headless?: boolean };
  /** The project's `use.channel` (e.g. `chrome`), if any. */
  channel?: string;
  /** True when the worker connects to a remote browser (connectOptions). */
  remote: boolean;
  /** Headless run (Playwright's default). */
  headless: boolean;
  /** `playwright.chromium.executablePath()`: where Playwright's own Chromium would be. */
  playwrightExecutable: string;
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  exists?: (path: string) => boolean;
}

/** Common install locations of Chromium and Chrome on this platform, most likely first. */
export function systemChromiumPaths(platform: NodeJS.Platform = process.platform, env: NodeJS.ProcessEnv = process.env): string[] {
  if (platform === 'darwin') {
    return ['/Applications/Chromium.app/Contents/MacOS/Chromium', '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome'];
  }
  if (platform === 'win32') {
    const roots = [env.LOCALAPPDATA, env.PROGRAMFILES, env['PROGRAMFILES(X86)']].filter((r): r is string => !!r);
    return roots.flatMap((root) => [`${root}\\Chromium\\Application\\chrome.exe`, `${root}\\Google\\Chrome\\Application\\chrome.exe`]);
  }
  return ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable', '/snap/bin/chromium'];
}

/**
 * Playwright's headless shell of the same revision as its Chromium (`npx playwright install
 * --only-shell` installs it alone): `<browsers>/chromium-1255/…` -> `<browsers>/chromium_headless_shell-1255`.
 */
export function headlessShellDir(playwrightExecutable: string): string | undefined {
  for (let dir = dirname(playwrightExecutable); dir !== dirname(dir); dir = dirname(dir)) {
    const m = /^chromium-(\d+)$/.exec(basename(dir));
    if (m) return join(dirname(dir), `chromium_headless_shell-${m[1]}`);
  }
  return undefined;
}

/** Decides which Chromium to launch; `executablePath` is set only when the fixture should pass one. */
export function findChromium(q: ChromiumQuery): ChromiumChoice {
  const env = q.env ?? process.env;
  const exists = q.exists ?? existsSync;
  if (q.remote) return { source: 'remote' };
  if (q.browserName !== 'chromium') return { source: 'other browser' };
  if (q.launchOptions.executablePath) return { source: 'launchOptions' };
  if (q.channel ?? q.launchOptions.channel) return { source: 'channel' };

  const tried: string[] = [];
  const fromEnv = env.CHROMIUM_PATH;
  if (fromEnv) {
    if (exists(fromEnv)) return { source: 'CHROMIUM_PATH', executablePath: fromEnv };
    tried.push(`CHROMIUM_PATH=${fromEnv} (no such file)`);
  } else {
    const shell = q.headless ? headlessShellDir(q.playwrightExecutable) : undefined;
    if (exists(q.playwrightExecutable) || (shell && exists(join(shell, 'INSTALLATION_COMPLETE')))) return { source: 'playwright' };
    tried.push(`Playwright's Chromium at ${q.playwrightExecutable}`, 'CHROMIUM_PATH (not set)');
    for (const path of systemChromiumPaths(q.platform, env)) {
      if (exists(path)) return { source: 'system', executablePath: path };
      tried.push(path);
    }
  }
  const message = [
    'tessera-gateway/playwright: no Chromium to launch. Tried:',
    ...tried.map((t) => `  - ${t}`),
    fromEnv
      ? 'Point CHROMIUM_PATH at a Chromium or Chrome executable, or unset it.'
      : 'Run `npx playwright install chromium`, install Chromium (e.g. `apt-get install chromium`), or set CHROMIUM_PATH to a Chromium or Chrome executable.',
  ].join('\n');
  return { source: 'none', tried, message };
}
