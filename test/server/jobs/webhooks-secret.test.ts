import { describe, expect, test } from 'vitest';
import { deliverCallbacks } from '../../../server/jobs/callbacks.js';
import { verifyCallback } from '../../../server/domain/merchant/signing.js';
import { deliveryHarness, verifySignature } from './webhooks-fixtures.js';
import { expectError } from '../../fixtures.js';

// The signing secret across rotations: deliveries signed with the new secret, and with the old one
// beside it while a rotation overlaps (expire_old 1h / 24h).

const h = deliveryHarness();
const { deps, at, receiver, setup, charge } = h;

describe('rotating the signing secret', () => {
  test('a secret rotated between attempts: the retry is signed with the new secret', async () => {
    const s = await setup({ event_resource: 'transaction' }, { mode: 'webhook', url: 'http://placeholder.invalid/' });
    const rx = await receiver(null);
    rx.script = [500];
    await s.a.ok('PUT', `/webhooks/strategies/${s.strategy.id}`, { url: rx.url });
    await charge(s.m, 4100);
    await deliverCallbacks(deps(), at(0));
    const rotated = (await s.a.ok('POST', '/webhooks/secret/rotate')).secret;
    await deliverCallbacks(deps(), at(30_000));
    expect(rx.received).toHaveLength(2);
    const sig = (i: number, secret: string) => verifySignature(secret, rx.received[i].headers['tessera-signature'] as string, rx.received[i].body).ok;
    expect(sig(0, s.secret)).toBe(true);
    expect(sig(1, rotated)).toBe(true);
    expect(sig(1, s.secret)).toBe(false);
  });

  test('rotating with expire_old 1h: deliveries carry a signature with each secret until then, then with the new one only', async () => {
    const s = await setup({ event_resource: 'transaction' }, { mode: 'webhook', url: 'http://placeholder.invalid/' });
    const rx = await receiver(null);
    await s.a.ok('PUT', `/webhooks/strategies/${s.strategy.id}`, { url: rx.url });
    const rotated = await s.a.ok('POST', '/webhooks/secret/rotate', { expire_old: '1h' });
    expect(rotated.secret).not.toBe(s.secret);
    expect(rotated.previous_secret_expires_at).toBe(new Date(h.gw.clock.now().getTime() + 3600_000).toISOString());
    expect((await s.a.ok('GET', '/webhooks/secret')).previous_secret_expires_at).toBe(rotated.previous_secret_expires_at);

    // Deliveries are signed at the time they leave: the gateway clock is moved to `ms` after the rotation.
    const rotatedAt = h.gw.clock.now().getTime();
    const deliverAt = async (ms: number) => {
      h.gw.clock.advance(rotatedAt + ms - h.gw.clock.now().getTime());
      await charge(s.m, 4100);
      await deliverCallbacks(deps(), at(0));
      return rx.received.at(-1)!;
    };
    const during = await deliverAt(59 * 60_000);
    expect((during.headers['tessera-signature'] as string).match(/v1=/g)).toHaveLength(2);
    expect(verifySignature(rotated.secret, during.headers['tessera-signature'] as string, during.body).ok).toBe(true);
    expect(verifySignature(s.secret, during.headers['tessera-signature'] as string, during.body).ok).toBe(true);
    expect(verifyCallback(s.secret, during.headers['tessera-signature'] as string, during.body, Math.floor(at(0).getTime() / 1000))).toBe(true);
    expect((await s.a.ok('GET', '/webhooks/secret')).previous_secret_expires_at).toBe(rotated.previous_secret_expires_at);

    const after = await deliverAt(60 * 60_000);
    expect((after.headers['tessera-signature'] as string).match(/v1=/g)).toHaveLength(1);
    expect(verifySignature(rotated.secret, after.headers['tessera-signature'] as string, after.body).ok).toBe(true);
    expect(verifySignature(s.secret, after.headers['tessera-signature'] as string, after.body).ok).toBe(false);
    expect((await s.a.ok('GET', '/webhooks/secret')).previous_secret_expires_at).toBeNull();
  });

  test('rotating without expire_old (or with now) drops the old secret at once; another value is 400 REQ01', async () => {
    const s = await setup({ event_resource: 'transaction' }, { mode: 'webhook', url: 'http://placeholder.invalid/' });
    const first = await s.a.ok('POST', '/webhooks/secret/rotate', { expire_old: '24h' });
    expect(first.previous_secret_expires_at).toBe(new Date(h.gw.clock.now().getTime() + 86_400_000).toISOString());
    const now = await s.a.ok('POST', '/webhooks/secret/rotate', { expire_old: 'now' });
    expect(now.previous_secret_expires_at).toBeNull();
    expect((await s.a.ok('POST', '/webhooks/secret/rotate')).previous_secret_expires_at).toBeNull();
    await expectError(await s.a.post('/webhooks/secret/rotate', { expire_old: '2d' }), 400, 'REQ01', /expire_old/);
    await expectError(await s.a.post('/webhooks/secret/rotate', { expire_old: 'never' }), 400, 'REQ01');
  });

  test('while an overlap runs another overlapping rotation is 409 WEBHOOK04 and changes nothing; concurrent rotations take turns', async () => {
    const s = await setup({ event_resource: 'transaction' }, { mode: 'webhook', url: 'http://placeholder.invalid/' });
    // Five at once (a client retrying, say): one wins, the others find its overlap running.
    const tries = await Promise.all(Array.from({ length: 5 }, () => s.a.post('/webhooks/secret/rotate', { expire_old: '1h' })));
    expect(tries.map((r) => r.statusCode).sort()).toEqual([200, 409, 409, 409, 409]);
    const won = tries.find((r) => r.statusCode === 200)!.json();
    for (const r of tries.filter((t) => t.statusCode === 409)) await expectError(r, 409, 'WEBHOOK04', /expire_old now/);
    expect(await s.a.ok('GET', '/webhooks/secret')).toEqual(won);
    // The original secret still signs beside the new one.
    const rx = await receiver(null);
    await s.a.ok('PUT', `/webhooks/strategies/${s.strategy.id}`, { url: rx.url });
    await charge(s.m, 4100);
    await deliverCallbacks(deps(), at(0));
    const got = rx.received.at(-1)!;
    expect(verifySignature(s.secret, got.headers['tessera-signature'] as string, got.body).ok).toBe(true);
    expect(verifySignature(won.secret, got.headers['tessera-signature'] as string, got.body).ok).toBe(true);
    // expire_old now ends the overlap on purpose.
    expect((await s.a.ok('POST', '/webhooks/secret/rotate', { expire_old: 'now' })).previous_secret_expires_at).toBeNull();
  });
});
