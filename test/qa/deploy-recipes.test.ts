import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { connectionLimitsOf, trustProxyOf } from '../../server/config.js';
import { ROOT } from '../../server/paths.js';

// The deployment recipes beside the code (docs/deploy/nginx.conf, the Dockerfile, the README's
// PostgreSQL and Docker sections) checked against the gateway's own settings, so they cannot drift.
// The gateway side of the proxy recipe (TRUST_PROXY=127.0.0.1, the client address in the request
// log) runs for real in test/qa/production-defaults.test.ts.

const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const nginx = read('docs/deploy/nginx.conf');
const code = nginx.split('\n').map((l) => l.replace(/#.*$/, '')).join('\n');
const block = (name: string) => new RegExp(`${name}\\s*\\{([^}]*)\\}`).exec(code)?.[1] ?? '';

describe('docs/deploy/nginx.conf', () => {
  test('drops idle upstream connections before the gateway does (its keep-alive default)', () => {
    const upstream = block('upstream tessera');
    const seconds = Number(/keepalive_timeout\s+(\d+)s;/.exec(upstream)?.[1]);
    expect(/keepalive\s+\d+;/.test(upstream)).toBe(true);
    expect(seconds * 1000).toBeLessThan(connectionLimitsOf({}).keepAliveMs);
    expect(code).toMatch(/proxy_http_version 1\.1;/);
    expect(code).toMatch(/proxy_set_header Connection "";/);
  });

  test('keeps /metrics, /healthz and /readyz inside', () => {
    // Prefix blocks: the gateway ignores a trailing slash (/metrics/ is /metrics), an exact block would not.
    for (const path of ['/metrics', '/healthz', '/readyz', '/_tessera/']) expect(code).toMatch(new RegExp(`location \\^~ ${path}\\s*\\{\\s*deny all;\\s*\\}`));
    expect(code).not.toMatch(/location = \//);
    expect(code).not.toMatch(/return 301 https:\/\/\$host/);
  });

  test('replaces X-Forwarded-For with the address it saw, for the TRUST_PROXY it names', () => {
    expect(code).toMatch(/proxy_set_header X-Forwarded-For \$remote_addr;/);
    expect(code).not.toMatch(/\$proxy_add_x_forwarded_for/);
    const trust = /TRUST_PROXY=(\S+)/.exec(nginx)![1];
    expect(trustProxyOf(trust)).toBe('127.0.0.1');
    expect(code).toMatch(/server 127\.0\.0\.1:8080;/);
    expect(code).toMatch(/ssl_certificate\s+\S+;/);
    expect(code).toMatch(/client_max_body_size 256k;/);
  });
});

describe('the Docker and PostgreSQL recipes', () => {
  test('make the data key once, never per run, and run tessera serve', () => {
    const docker = read('Dockerfile');
    expect(docker).not.toMatch(/docker run[^\n]*\$\(openssl/);
    expect(docker).toMatch(/--env-file tessera\.env/);
    expect(docker).toMatch(/CMD \["tessera", "serve"\]/);
    const readme = read('README.md');
    const pgSection = /## PostgreSQL\n([\s\S]*?)\n## /.exec(readme)![1];
    const recipe = /```sh\n([\s\S]*?)```/.exec(pgSection)![1];
    expect(recipe).toMatch(/tessera serve/);
    expect(recipe).not.toMatch(/npm start|--dev|export TESSERA_DATA_KEY=\$\(/);
    expect(recipe).toMatch(/TESSERA_DATA_KEY_FILE/);
    expect(recipe).toMatch(/tessera keys create --name/);
  });
});
