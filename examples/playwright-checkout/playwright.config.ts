import { existsSync } from 'node:fs';
import { defineConfig } from '@playwright/test';

// A system Chromium when there is one (CI containers: `apt-get install chromium`), else the browser
// `npx playwright install chromium` downloads. CHROMIUM_PATH overrides both.
const systemChromium = process.env.CHROMIUM_PATH || (existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined);

export default defineConfig({
  testDir: './tests',
  // Builds the gateway's in-memory database snapshot once, before the workers start.
  globalSetup: './global-setup.ts',
  fullyParallel: true,
  workers: process.env.CI ? 2 : undefined,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? 'line' : 'list',
  use: {
    browserName: 'chromium',
    trace: 'retain-on-failure',
    launchOptions: systemChromium
      ? { executablePath: systemChromium, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] }
      : {},
  },
});
