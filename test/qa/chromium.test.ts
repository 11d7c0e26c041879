import { describe, expect, test } from 'vitest';
import { ChromiumQuery, findChromium, headlessShellDir, systemChromiumPaths } from '../../server/testing/chromium.js';

// Which Chromium the QA kit's fixtures launch when the project's config names none. The whole path
// (no config, only the system's Chromium) runs in test/qa/package.test.ts; here every branch, on
// made-up file systems.

const OWN = '/home/ada/.cache/ms-playwright/chromium-1255/chrome-linux64/chrome';
const SHELL_DONE = '/home/ada/.cache/ms-playwright/chromium_headless_shell-1255/INSTALLATION_COMPLETE';

function query(files: string[], over: Partial<ChromiumQuery> = {}): ChromiumQuery {
  return {
    browserName: 'chromium', launchOptions: {}, remote: false, headless: true, playwrightExecutable: OWN,
    env: {}, platform: 'linux', exists: (p) => files.includes(p), ...over,
  };
}

describe('findChromium', () => {
  test("Playwright's own Chromium, when installed, is left to Playwright", () => {
    expect(findChromium(query([OWN, '/usr/bin/chromium']))).toEqual({ source: 'playwright' });
  });

  test("its headless shell alone (`--only-shell`) counts for a headless run, not a headed one", () => {
    expect(headlessShellDir(OWN)).toBe('/home/ada/.cache/ms-playwright/chromium_headless_shell-1255');
    expect(findChromium(query([SHELL_DONE, '/usr/bin/chromium']))).toEqual({ source: 'playwright' });
    expect(findChromium(query([SHELL_DONE, '/usr/bin/chromium'], { headless: false })))
      .toEqual({ source: 'system', executablePath: '/usr/bin/chromium' });
  });

  test("without it, the system's Chromium or Chrome, in order", () => {
    expect(findChromium(query(['/usr/bin/chromium', '/usr/bin/google-chrome']))).toEqual({ source: 'system', executablePath: '/usr/bin/chromium' });
    expect(findChromium(query(['/usr/bin/google-chrome-stable']))).toEqual({ source: 'system', executablePath: '/usr/bin/google-chrome-stable' });
    expect(findChromium(query(['/Applications/Google Chrome.app/Contents/MacOS/Google Chrome'], { platform: 'darwin' })))
      .toEqual({ source: 'system', executablePath: '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome' });
    const win = 'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe';
    expect(findChromium(query([win], { platform: 'win32', env: { PROGRAMFILES: 'C:\\Program Files' } })))
      .toEqual({ source: 'system', executablePath: win });
  });

  test('CHROMIUM_PATH wins over both, and a wrong one is an error, not a silent fallback', () => {
    const env = { CHROMIUM_PATH: '/opt/chromium/chrome' };
    expect(findChromium(query([OWN, '/usr/bin/chromium', '/opt/chromium/chrome'], { env })))
      .toEqual({ source: 'CHROMIUM_PATH', executablePath: '/opt/chromium/chrome' });
    const wrong = findChromium(query([OWN, '/usr/bin/chromium'], { env }));
    expect(wrong.source).toBe('none');
    expect(wrong.source === 'none' && wrong.message).toBe([
      'tessera-gateway/playwright: no Chromium to launch. Tried:',
      '  - CHROMIUM_PATH=/opt/chromium/chrome (no such file)',
      'Point CHROMIUM_PATH at a Chromium or Chrome executable, or unset it.',
    ].join('\n'));
  });

  test('none anywhere: the error names every place tried and the three ways out', () => {
    const none = findChromium(query([]));
    expect(none.source).toBe('none');
    if (none.source !== 'none') return;
    expect(none.tried).toEqual([`Playwright's Chromium at ${OWN}`, 'CHROMIUM_PATH (not set)', ...systemChromiumPaths('linux', {})]);
    expect(none.message).toContain('/usr/bin/chromium\n');
    expect(none.message).toContain('/snap/bin/chromium\n');
    expect(none.message).toMatch(/npx playwright install chromium.*apt-get install chromium.*CHROMIUM_PATH/s);
  });

  test("what the project chose is left alone: an executablePath, a channel, a remote browser, another browser", () => {
    const files = ['/usr/bin/chromium'];
    expect(findChromium(query(files, { launchOptions: { executablePath: '/x/chrome' } }))).toEqual({ source: 'launchOptions' });
    expect(findChromium(query(files, { launchOptions: { channel: 'chrome' } }))).toEqual({ source: 'channel' });
    expect(findChromium(query(files, { channel: 'msedge' }))).toEqual({ source: 'channel' });
    expect(findChromium(query(files, { remote: true }))).toEqual({ source: 'remote' });
    expect(findChromium(query(files, { browserName: 'firefox' }))).toEqual({ source: 'other browser' });
    expect(findChromium(query([], { browserName: 'webkit' }))).toEqual({ source: 'other browser' });
  });
});
