// The dashboard's Keys page in Chromium against the real gateway process: a private key seen in a
// browser (sent on the JSONP token route) is flagged on its set, with a warning to roll it, and
// the private key itself is still not shown.
import { describe, expect, it } from 'vitest';
import { api, gateway, open, page, reload, rendered, setupDashboard, signIn } from './dashboard-fixtures.js';

setupDashboard();

/** A JSONP tokenization with the private key where the public one belongs, as a careless web page would send it. */
async function exposeOnJsonp(privateKey: string) {
  const query = new URLSearchParams({
    callback: 'cb', public_api_key: privateKey,
    card_owner_name: 'Ada Lovelace', card_number: '4111111111111111', card_exp_month: '12', card_exp_year: '2035', csc: '123',
  });
  const res = await fetch(`${gateway!.url}/api/v1/tokens/jsonp?${query}`);
  await res.text();
  return res.status;
}

describe('dashboard keys', () => {
  it('no warning while no private key was exposed; after one was, the set is marked and the page says to roll it', async () => {
    const keys = await api('/dashboard/keys');
    expect(keys.status).toBe(200);
    expect(keys.body.test).toHaveLength(1);
    const setId: string = keys.body.test[0].key_set_id;
    expect(keys.body.test[0].private_key_exposed_at).toBeNull();

    await signIn();
    await open('keys', 'Keys');
    const testKeys = page.getByTestId('keys-test');
    await testKeys.locator('tbody tr').first().waitFor();
    await expect(page.getByTestId('key-exposed').count()).resolves.toBe(0);
    await expect(testKeys.textContent()).resolves.not.toContain('exposed');

    expect(await exposeOnJsonp(gateway!.privateKey)).toBe(200);
    expect((await api('/dashboard/keys')).body.test[0].private_key_exposed_at).toEqual(expect.any(String));

    await reload(); // quiet() first; the same URL again would only be a fragment navigation
    await page.getByRole('heading', { level: 1, name: 'Keys' }).waitFor();
    await rendered();
    const warning = page.getByTestId('key-exposed');
    await warning.first().waitFor();
    await expect(warning.count()).resolves.toBe(1);
    const text = await warning.textContent();
    expect(text).toContain(setId);
    expect(text).toMatch(/compromised/);
    await expect(warning.getByRole('alert').count()).resolves.toBe(1);
    await expect(testKeys.locator('.pill.bad').textContent()).resolves.toBe('exposed');
    await expect(page.getByTestId('keys-live').textContent()).resolves.not.toContain('exposed');
    await expect(page.locator('body').textContent()).resolves.not.toContain(gateway!.privateKey.slice(8));
  });
});
