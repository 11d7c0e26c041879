// One schema per stored row (server/schemas/common.ts, row schemas): its columns are the table's,
// so the row type, the column list every whole-row statement names and the answer's stored fields
// cannot drift from the migrations. A column added by a migration and not to its schema (or the
// other way round) fails here on both databases.
import { Type } from '@sinclair/typebox';
import { describe, it } from 'vitest';
import { expect, test } from '../../fixtures.js';
import { columnsOf, shown, shownKeys, shownOf } from '../../../server/schemas/common.js';
import { TRANSACTION_COLUMNS, TransactionRowSchema, TransactionSchema } from '../../../server/schemas/transactions.js';
import { fields, storedOf, text } from '../../../server/schemas/fields.js';
import { TOKEN_COLUMNS } from '../../../server/schemas/tokens.js';

/** Row schemas and their tables; `seq` (the insertion order, an identity) is read by no row. */
const ROWS = [
  { table: 'transactions', columns: TRANSACTION_COLUMNS as readonly string[] },
  { table: 'tokens', columns: TOKEN_COLUMNS as readonly string[] },
];

for (const { table, columns } of ROWS) {
  test(`${table}: the row schema names exactly the table's columns`, async ({ gateway: gw }) => {
    const rows = await gw.db.query<{ column_name: string }>(
      `SELECT column_name FROM information_schema.columns WHERE table_name = $1 AND table_schema = current_schema()`, [table]);
    const inDb = rows.map((r) => r.column_name).filter((c) => c !== 'seq').sort();
    expect(inDb.length).toBeGreaterThan(10);
    expect([...columns].sort()).toEqual(inDb);
  });
}

describe('row schemas', () => {
  const Row = Type.Object({ id: shown(Type.String()), secret: Type.String(), note: shown(Type.String()) });
  it('list every column, and the shown ones in order', () => {
    expect(columnsOf(Row)).toEqual(['id', 'secret', 'note']);
    expect(shownKeys(Row)).toEqual(['id', 'note']);
    expect(Object.keys(shownOf(Row))).toEqual(['id', 'note']);
  });

  it('a transaction answers with every shown column and never with the internal ones', () => {
    const answer = Object.keys(TransactionSchema.properties);
    for (const c of shownKeys(TransactionRowSchema)) expect(answer).toContain(c);
    for (const c of ['env', 'token_id', 'method_id', 'receipt_due', 'pending_since', 'reconcile_after']) expect(answer).not.toContain(c);
    expect(TransactionSchema.required).toEqual(answer);
  });

  it('a table marks the fields written as read into their columns', () => {
    const T = fields({ note: text('kept', { stored: true }), other: text('not kept') });
    expect(storedOf(T, T.read({ note: ' hi ', other: 'x' }))).toEqual({ note: 'hi' });
  });
});
