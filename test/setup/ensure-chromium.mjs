#!/usr/bin/env node
// Run by `npm test` before vitest: the browser suite (test/e2e) drives a system Chromium,
// because Playwright's own browser downloads are not available everywhere we test.
// Fast path: the binary exists -> exit 0 without spawning anything.
// test/e2e/gateway.ts resolves the binary with the same rule as chromiumPath().
import { accessSync, constants, existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { spawnSync } from 'node:child_process';

const DEFAULT_CHROMIUM = '/usr/bin/chromium';

/** CHROMIUM_PATH when set, else the Debian package's binary. */
function chromiumPath() {
  return process.env.CHROMIUM_PATH || DEFAULT_CHROMIUM;
}

function executable(path) {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function onPath(command) {
  return (process.env.PATH || '').split(delimiter).some((dir) => dir && executable(join(dir, command)));
}

function run(command, args) {
  console.log(`ensure-chromium: $ ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  if (result.error) throw result.error;
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${result.status ?? result.signal}`);
}

const HOW_TO = `The browser tests (test/e2e) need Chromium at ${DEFAULT_CHROMIUM}, or at the path in CHROMIUM_PATH.
Install it with one of:
  Debian:        sudo apt-get install -y chromium
  Ubuntu:        sudo apt-get install -y chromium-browser   (the snap; then CHROMIUM_PATH=$(command -v chromium-browser))
  other:         any Chromium or Chrome build, then CHROMIUM_PATH=/path/to/chrome npm test
To run the other suites without a browser:
  npx vitest run --project unit --project api:pglite`;

function main() {
  const path = chromiumPath();
  if (existsSync(path)) return 0;

  if (process.env.CHROMIUM_PATH) {
    // An explicit path that does not exist is a mistake to report, not something to install over.
    console.error(`ensure-chromium: CHROMIUM_PATH=${path} does not exist.\n\n${HOW_TO}`);
    return 1;
  }
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!root || !onPath('apt-get')) {
    const why = !root ? 'not running as root' : 'apt-get is not available';
    console.error(`ensure-chromium: ${path} not found and it cannot be installed automatically (${why}).\n\n${HOW_TO}`);
    return 1;
  }

  console.log(`ensure-chromium: ${path} not found; installing the Debian package "chromium" with apt-get.`);
  try {
    run('apt-get', ['update']);
    run('apt-get', ['install', '-y', 'chromium']);
  } catch (err) {
    console.error(`ensure-chromium: installation failed: ${err.message}\n\n${HOW_TO}`);
    return 1;
  }
  if (!existsSync(path)) {
    console.error(`ensure-chromium: apt-get finished but ${path} is still missing.\n\n${HOW_TO}`);
    return 1;
  }
  console.log(`ensure-chromium: installed ${path}`);
  return 0;
}

process.exitCode = main();
