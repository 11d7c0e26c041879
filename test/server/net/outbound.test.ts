import { afterEach, describe, expect, test } from 'vitest';
import { AllowList, classifyIp, parseAllowList } from '../../../server/net/addresses.js';
import { OutboundError, OutboundPolicy, post, vetUrl } from '../../../server/net/outbound.js';
import { ConfigError, loadConfig, testLoopbackFrom } from '../../../server/config.js';
import { freePort } from '../notify/notify-fixtures.js';
import { ScriptedServer, endless, fakeDns, latch, startScripted } from './outbound-fixtures.js';

// server/net: which addresses a merchant's URL may reach, and the one HTTP client every outbound
// request uses (address check at connect time, one deadline, a capped answer, late headers).

const open: ScriptedServer[] = [];
afterEach(async () => {
  while (open.length) await open.pop()!.close();
});
async function server(): Promise<ScriptedServer> {
  const s = await startScripted();
  open.push(s);
  return s;
}

const REFUSED = /is not a public address|resolves to an address that is not public|is a loopback name/;
const policy = (dns = fakeDns(), allow: string[] = [], testLoopback = true): OutboundPolicy => ({ allow: new AllowList(allow), testLoopback, resolve: dns.resolve });

describe('address classes', () => {
  test.each([
    ['127.0.0.1', 'loopback'], ['127.255.0.9', 'loopback'], ['::1', 'loopback'], ['::ffff:7f00:1', 'loopback'],
    ['10.1.2.3', 'private'], ['172.16.0.1', 'private'], ['172.31.255.255', 'private'], ['192.168.1.1', 'private'],
    ['169.254.169.254', 'private'], ['100.64.0.1', 'private'], ['0.0.0.0', 'private'], ['255.255.255.255', 'private'],
    ['224.0.0.1', 'private'], ['240.0.0.1', 'private'], ['192.0.2.1', 'private'], ['198.18.0.1', 'private'],
    ['::', 'private'], ['fc00::1', 'private'], ['fd12:3456::1', 'private'], ['fe80::1', 'private'], ['ff02::1', 'private'],
    ['::ffff:a00:1', 'private'], ['::ffff:0:a00:1', 'private'], ['::7f00:1', 'private'], ['64:ff9b::a9fe:a9fe', 'private'],
    ['64:ff9b:1::1', 'private'], ['2002:a00:1::1', 'private'], ['2002:7f00:1::', 'private'], ['2001::1', 'private'],
    ['2001:db8::1', 'private'], ['fec0::1', 'private'],
    ['93.184.216.34', 'public'], ['8.8.8.8', 'public'], ['172.32.0.1', 'public'], ['2606:4700::1111', 'public'],
    ['::ffff:5db8:d822', 'public'], ['64:ff9b::808:808', 'public'], ['2002:808:808::', 'public'],
  ])('%s is %s', (ip, cls) => {
    expect(classifyIp(ip)).toBe(cls);
  });

  test('the allow-list takes blocks, addresses, names and *.suffixes; an invalid entry is a ConfigError', () => {
    const allow = new AllowList(['10.0.0.0/8', '192.168.1.20', 'fd00::/8', 'hooks.internal', '*.corp.example']);
    expect(['10.9.9.9', '::ffff:10.1.1.1', '192.168.1.20', 'fd00::5'].map((a) => allow.allowsIp(a))).toEqual([true, true, true, true]);
    expect(['11.0.0.1', '192.168.1.21', 'fc00::1'].map((a) => allow.allowsIp(a))).toEqual([false, false, false]);
    expect(['hooks.internal', 'HOOKS.internal.', 'a.corp.example', 'x.y.corp.example'].map((n) => allow.allowsName(n))).toEqual([true, true, true, true]);
    expect(['corp.example', 'evilcorp.example', 'hooks.internal.evil'].map((n) => allow.allowsName(n))).toEqual([false, false, false]);
    expect(parseAllowList(' 10.0.0.0/8, hooks.internal ')).toEqual(['10.0.0.0/8', 'hooks.internal']);
    expect(loadConfig({ TESSERA_OUTBOUND_ALLOW: '10.0.0.0/8,hooks.internal' }).outboundAllow).toEqual(['10.0.0.0/8', 'hooks.internal']);
    expect(loadConfig({}).outboundAllow).toEqual([]);
    for (const bad of ['10.0.0.0/99', 'http://x', 'a b/c', 'bad_/']) {
      expect(() => loadConfig({ TESSERA_OUTBOUND_ALLOW: bad }), bad).toThrow(ConfigError);
    }
  });
});

describe('vetUrl (saving a URL)', () => {
  test('literal, integer, hex, octal and mapped forms of private addresses are refused in live mode', async () => {
    const p = policy();
    for (const url of ['https://127.0.0.1/', 'https://2130706433/', 'https://0x7f.1/', 'https://0177.0.0.1/', 'https://[::ffff:127.0.0.1]/',
      'https://10.0.0.1/', 'https://169.254.169.254/latest', 'https://[fc00::1]/', 'https://localhost/', 'https://a.localhost/']) {
      expect(await vetUrl(url, 'live', p), url).toMatch(REFUSED);
    }
    expect(await vetUrl('https://93.184.216.34/', 'live', p)).toBeNull();
  });

  test('a name is resolved and every address must pass; a name that does not resolve is left to the send-time check', async () => {
    const dns = fakeDns({ 'pub.test': ['93.184.216.34'], 'mixed.test': ['93.184.216.34', '10.0.0.7'], 'v6.test': ['fd00::1'] });
    const p = policy(dns);
    expect(await vetUrl('https://pub.test/h', 'live', p)).toBeNull();
    expect(await vetUrl('https://mixed.test/h', 'live', p)).toMatch(/resolves to an address that is not public/);
    expect(await vetUrl('https://v6.test/h', 'live', p)).toMatch(REFUSED);
    expect(await vetUrl('https://nowhere.test/h', 'live', p)).toBeNull();
    expect(dns.asked).toEqual(['pub.test', 'mixed.test', 'v6.test', 'nowhere.test']);
  });

  test('test mode allows loopback, nothing else private; the allow-list lets named targets through', async () => {
    const dns = fakeDns({ 'qa.test': ['127.0.0.1'], 'hooks.internal': ['10.1.2.3'] });
    expect(await vetUrl('http://127.0.0.1:9000/', 'test', policy(dns))).toBeNull();
    expect(await vetUrl('http://qa.test/', 'test', policy(dns))).toBeNull();
    expect(await vetUrl('http://localhost/', 'test', policy(dns))).toBeNull();
    expect(await vetUrl('http://169.254.169.254/', 'test', policy(dns))).toMatch(REFUSED);
    expect(await vetUrl('https://hooks.internal/', 'live', policy(dns))).toMatch(REFUSED);
    const allowed = policy(dns, ['hooks.internal', '192.168.0.0/16']);
    expect(await vetUrl('https://hooks.internal/', 'live', allowed)).toBeNull();
    expect(await vetUrl('https://192.168.7.7/', 'live', allowed)).toBeNull();
    expect(await vetUrl('https://10.1.2.3/', 'live', allowed)).toMatch(REFUSED);
  });
});

describe('post (sending)', () => {
  test('a literal private address is refused before connecting; a name is checked after resolving, before connecting', async () => {
    const s = await server();
    const dns = fakeDns({ 'rebound.test': ['127.0.0.1'] });
    const attempt = (url: string) => post(url, { caller: 'live', headers: {}, body: '{}', timeoutMs: 10_000, policy: policy(dns) })
      .then(() => null, (e) => e);
    for (const url of [`${s.origin}/`, `http://2130706433:${s.port}/`, `http://[::ffff:127.0.0.1]:${s.port}/`, `http://rebound.test:${s.port}/`]) {
      const err = await attempt(url);
      expect(err, url).toBeInstanceOf(OutboundError);
      expect(err.kind, url).toBe('blocked');
      expect(err.message).toBe(OutboundError.PUBLIC_MESSAGE);
    }
    expect(dns.asked).toEqual(['rebound.test']);
    expect(s.connections).toBe(0);
    // The same name from test mode: loopback is allowed, and the socket goes to the address resolved.
    const ok = await post(`http://rebound.test:${s.port}/x`, { caller: 'test', headers: {}, body: '{"a":1}', timeoutMs: 10_000, policy: policy(dns) });
    expect(ok).toMatchObject({ status: 200, body: '{"ok":true}', truncated: false });
    expect(s.requests.map((r) => [r.url, r.body, r.headers.host])).toEqual([['/x', '{"a":1}', `rebound.test:${s.port}`]]);
  });

  test('the allow-list lets a private target through at send time', async () => {
    const s = await server();
    const res = await post(`${s.origin}/`, { caller: 'live', headers: {}, body: '', timeoutMs: 10_000, policy: policy(fakeDns(), ['127.0.0.0/8']) });
    expect(res.status).toBe(200);
    expect(s.requests).toHaveLength(1);
  });

  test('an endless answer is cut after 4 KiB and the connection dropped, well before the deadline', async () => {
    const s = await server();
    s.handler = endless(200);
    const res = await post(`${s.origin}/`, { caller: 'test', headers: {}, body: '', timeoutMs: 600_000 });
    expect(res.status).toBe(200);
    expect(res.truncated).toBe(true);
    expect(Buffer.byteLength(res.body)).toBe(4096);
    // The receiver sees its connection closed (nothing keeps reading).
    await new Promise<void>((r) => {
      const check = () => (s.closed >= 1 ? r() : setImmediate(check));
      check();
    });
  });

  test('one deadline covers everything: a silent receiver, and one that drips its body, end at the deadline', async () => {
    const s = await server();
    s.handler = () => 'hold';
    const err = await post(`${s.origin}/`, { caller: 'test', headers: {}, body: '', timeoutMs: 200 }).then(() => null, (e) => e);
    expect(err).toBeInstanceOf(OutboundError);
    expect(err.kind).toBe('timeout');
    expect(err.message).toBe(OutboundError.PUBLIC_MESSAGE);
    // Headers at once, then one byte now and then: the status stands, the body is what came in time.
    const timers: NodeJS.Timeout[] = [];
    s.handler = (_req, res) => {
      res.writeHead(503);
      res.write('a');
      timers.push(setInterval(() => res.write('b'), 20));
    };
    try {
      const res = await post(`${s.origin}/`, { caller: 'test', headers: {}, body: '', timeoutMs: 200 });
      expect(res).toMatchObject({ status: 503, truncated: true });
      expect(res.body).toMatch(/^ab*$/);
    } finally {
      timers.forEach(clearInterval);
    }
  });

  test('a refused connection is a network error with the same public message', async () => {
    const err = await post(`http://127.0.0.1:${await freePort()}/`, { caller: 'test', headers: {}, body: '', timeoutMs: 5000 }).then(() => null, (e) => e);
    expect(err).toBeInstanceOf(OutboundError);
    expect(err.kind).toBe('network');
    expect(err.detail).toMatch(/ECONNREFUSED/);
    expect(err.message).toBe(OutboundError.PUBLIC_MESSAGE);
  });

  test('late headers are made once the connection is ready, after a slow DNS answer', async () => {
    const s = await server();
    const dns = fakeDns({ 'slow.test': ['127.0.0.1'] });
    const gate = latch();
    dns.gate = gate.promise;
    let calls = 0;
    const sending = post(`http://slow.test:${s.port}/`, {
      caller: 'test', headers: { 'x-early': '1' }, body: 'b', timeoutMs: 10_000, policy: policy(dns),
      lateHeaders: () => ({ 'x-late': String(++calls) }),
    });
    await new Promise<void>((r) => {
      const check = () => (dns.asked.length ? r() : setImmediate(check));
      check();
    });
    expect(calls).toBe(0); // still resolving: nothing made yet
    gate.open();
    expect((await sending).status).toBe(200);
    expect(calls).toBe(1);
    expect(s.requests[0].headers).toMatchObject({ 'x-early': '1', 'x-late': '1', 'content-length': '1' });
  });
});

describe('TESSERA_TEST_LOOPBACK=off (a shared production gateway)', () => {
  test('test mode loses loopback, by address and by name; the allow-list still lets a target through', async () => {
    const dns = fakeDns({ 'local.test': ['127.0.0.1'] });
    for (const url of ['http://127.0.0.1:9/hook', 'http://[::1]/hook', 'http://localhost/hook', 'http://local.test/hook']) {
      expect(await vetUrl(url, 'test', policy(dns)), url).toBeNull();
      expect(await vetUrl(url, 'test', policy(dns, [], false)), url).toMatch(REFUSED);
    }
    expect(await vetUrl('http://127.0.0.1:9/hook', 'test', policy(dns, ['127.0.0.1'], false))).toBeNull();
  });

  test('the setting is on or off; unset, the mode decides (tessera serve: --dev only; startTessera and the QA kit: on)', () => {
    expect(testLoopbackFrom({})).toBeUndefined();
    expect(loadConfig({}).testLoopback).toBeUndefined();
    expect(testLoopbackFrom({ TESSERA_TEST_LOOPBACK: 'on' })).toBe(true);
    expect(testLoopbackFrom({ TESSERA_TEST_LOOPBACK: 'off' })).toBe(false);
    expect(() => testLoopbackFrom({ TESSERA_TEST_LOOPBACK: 'no' })).toThrow(/TESSERA_TEST_LOOPBACK must be on or off/);
  });
});
