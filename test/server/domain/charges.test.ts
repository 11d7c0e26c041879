import { simulator } from '../../../server/processor/processor.js';
import type { Queryable } from '../../../server/db/index.js';
import { chargeTokenAtOnce, chargesAtOnce } from '../../../server/domain/payments/charges.js';
import { readChargeInput } from '../../../server/domain/payments/charge-input.js';
import { ChargeFields } from '../../../server/schemas/transactions.js';
import { storedOf } from '../../../server/schemas/fields.js';
import { consumeToken } from '../../../server/domain/instruments/tokens.js';
import { GatewayError } from '../../../server/errors.js';
import { tokenFor } from '../../helpers/gateway.js';
import { expect, test, visa } from '../../fixtures.js';

// chargeTokenAtOnce reads the token, decides, then consumes it and records the charge in one
// statement: the statement must re-check that the token is unused.

const settings = { cvv_check: false, zip_check: false, default_receipts: false, default_receipt_template_id: null, allowed_origins: [] };

test('a token consumed between the read and the recording statement: TOKEN_REQUIRED, nothing recorded', async ({ gateway }) => {
  const scope = { merchantId: gateway.merchant.id, env: 'test' as const };
  const token = await tokenFor(gateway, visa);
  const input = readChargeInput(scope, ChargeFields.read({ token, amount: 500 }), gateway.clock.now());
  if (!chargesAtOnce({ vault: gateway.vault, connector: simulator }, input)) throw new Error('a test-mode token charge is made at once');
  let statements = 0;
  // The other charge wins the token right after this one's read of it.
  const racing: Queryable = {
    query: async (sql, params) => {
      if (statements++ === 1) expect(await consumeToken(gateway.db, gateway.vault, scope, token, gateway.clock.now())).not.toBeNull();
      return gateway.db.query(sql, params);
    },
    exec: (sql) => gateway.db.exec(sql),
  };
  const err = await chargeTokenAtOnce(racing, { vault: gateway.vault, connector: simulator }, scope, input, gateway.clock.now(), { settings }).catch((e) => e);
  expect(err).toBeInstanceOf(GatewayError);
  expect(err.code).toBe('69201');
  expect(statements).toBe(2);
  expect((await gateway.db.query('SELECT count(*)::int AS n FROM transactions WHERE token_id = $1', [token]))[0].n).toBe(0);
  expect((await gateway.db.query(`SELECT count(*)::int AS n FROM events WHERE merchant_id = $1 AND data->>'token_id' = $2`,
    [scope.merchantId, token]))[0].n).toBe(0);
});

test('a charge by token wipes the token, records one row and one event, in one statement after the read', async ({ gateway }) => {
  const scope = { merchantId: gateway.merchant.id, env: 'test' as const };
  const token = await tokenFor(gateway, visa);
  const input = readChargeInput(scope, ChargeFields.read({ token, amount: 700 }), gateway.clock.now());
  if (!chargesAtOnce({ vault: gateway.vault, connector: simulator }, input)) throw new Error('a test-mode token charge is made at once');
  const seen: string[] = [];
  const counting: Queryable = { query: (sql, params) => (seen.push(sql), gateway.db.query(sql, params)), exec: (sql) => gateway.db.exec(sql) };
  const { txn, failure } = await chargeTokenAtOnce(counting, { vault: gateway.vault, connector: simulator }, scope, input, gateway.clock.now(), { settings });
  expect(failure).toBeNull();
  expect(seen).toHaveLength(2);
  const [row] = await gateway.db.query('SELECT secret_enc, csc_enc, used_at FROM tokens WHERE id = $1', [token]);
  expect(row).toMatchObject({ secret_enc: '', csc_enc: null });
  expect(row.used_at).not.toBeNull();
  const rows = await gateway.db.query('SELECT id, status, amount_settled FROM transactions WHERE token_id = $1', [token]);
  expect(rows).toEqual([{ id: txn.id, status: 'SETTLED', amount_settled: 700 }]);
  const events = await gateway.db.query(`SELECT type FROM events WHERE data->>'id' = $1`, [txn.id]);
  expect(events).toEqual([{ type: 'transaction.created' }]);
});

test("a charge writes its table's stored fields into the columns of the same name (a new field: a migration, the row schema, the table)", async ({ gateway }) => {
  const scope = { merchantId: gateway.merchant.id, env: 'test' as const };
  // As a migration would add it; ChargeFields would read it with `stored: true`, which readChargeInput puts in `recorded`.
  // The column's name is the test's own, so a real field of that name (a reviewer adding one) does not clash.
  await gateway.db.exec('ALTER TABLE transactions ADD COLUMN test_stored_note text');
  const token = await tokenFor(gateway, visa);
  const input = readChargeInput(scope, ChargeFields.read({ token, amount: 1999 }), gateway.clock.now());
  // Whatever stored fields the table has now: `recorded` is exactly them, as read.
  expect(input.recorded).toEqual(storedOf(ChargeFields, ChargeFields.read({ token, amount: 1999 })));
  const deps = { vault: gateway.vault, connector: simulator };
  const recorded = { ...input, recorded: { ...input.recorded, test_stored_note: 'SHOP*42' } } as unknown as typeof input;
  if (!chargesAtOnce(deps, recorded)) throw new Error('a test-mode token charge is made at once');
  const { txn } = await chargeTokenAtOnce(gateway.db, deps, scope, recorded, gateway.clock.now(), { settings });
  const [row] = await gateway.db.query<{ test_stored_note: string }>('SELECT test_stored_note FROM transactions WHERE id = $1', [txn.id]);
  expect(row.test_stored_note).toBe('SHOP*42');
});
