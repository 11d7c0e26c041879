import type { FastifyInstance } from 'fastify';
import { CONTACT_COLUMNS, InvoiceInput } from '../domain/invoice-input.js';
import { readPage, text } from '../domain/validate.js';
import {
  createInvoice, deleteInvoice, deliverInvoice, getInvoice, listInvoices, markInvoicePaid, presentInvoice, updateInvoice,
} from '../domain/invoices.js';
import { parseObjectParam } from '../lib/input.js';
import { IdempotentReplay } from '../http/idempotency.js';
import { listEnvelope, listSchema } from '../http/paging.js';
import { anyBody, int, nullableString as str, nullableTime, timestamp } from '../http/schemas.js';


/** An invoice (spec 2.10: fields not shown; ours are in docs/decisions.md (Invoices and the account updater)). */
export const invoiceSchema = {
  type: 'object',
  properties: {
    class: { type: 'string' }, id: { type: 'string' }, status: { type: 'string' }, customer_id: str,
    ...Object.fromEntries(CONTACT_COLUMNS.map((f) => [f, str])),
    items: {
      type: 'array',
      items: { type: 'object', properties: { description: { type: 'string' }, quantity: int, unit_amount: int, amount: int } },
    },
    amount: int, amount_paid: int, balance: int,
    payments: { type: 'array', items: { type: 'object', properties: { id: { type: 'string' }, amount: int, created_at: timestamp } } },
    due_date: str, memo: str,
    metadata: { type: 'object', additionalProperties: true },
    delivery: {
      type: ['object', 'null'],
      properties: {
        email_address: { type: 'string' }, status: { type: 'string' }, attempts: int,
        queued_at: timestamp, sent_at: nullableTime, last_error: str,
      },
    },
    created_at: timestamp, updated_at: timestamp, paid_at: nullableTime, deleted_at: nullableTime,
  },
};

// Bodies stay loose on purpose: the domain checks them and names the field in its message.
const done = { type: 'object', properties: { success: { type: 'boolean' } } };
type WithId = { Params: { id: string } };
type Body = Record<string, unknown>;

/** metadata arrives as an object or a JSON-encoded string; absent leaves it alone on update. */
function input(body: unknown): InvoiceInput {
  const b = (body ?? {}) as Body;
  return { ...b, metadata: b.metadata === undefined ? undefined : parseObjectParam(b.metadata, 'metadata') };
}

/** Invoices (spec 4.11): create and email, list, read, update while unpaid, resend, mark paid, delete. */
export default async function invoiceRoutes(app: FastifyInstance) {
  const { db } = app.services;
  const reply200 = { response: { 200: invoiceSchema } };
  const kick = () => app.services.notify?.kick();

  // After a crash between commit and answer, a retry answers the invoice as it is now: the one
  // created, or the one delivered / paid (by the path's id: mark_as_paid records the payment).
  const replayCreated: IdempotentReplay = async (req, id) => presentInvoice(await getInvoice(db, req.identity, id));
  const replayPath: IdempotentReplay = async (req) => presentInvoice(await getInvoice(db, req.identity, (req.params as { id: string }).id));
  app.post('/invoices', { config: { idempotentReplay: replayCreated }, schema: { body: anyBody, ...reply200 } }, async (req) => {
    const inv = await req.tx((q) => createInvoice(q, req.identity, input(req.body), req.now), { resource: (i) => i.id });
    if (inv.outbox_id !== null) kick();
    return presentInvoice(inv);
  });

  app.get('/invoices', { schema: { response: { 200: listSchema(invoiceSchema) } } }, async (req) => {
    const page = readPage(req.query);
    const status = text((req.query as Record<string, unknown> | undefined)?.status, 'status');
    const { list, total } = await listInvoices(db, req.identity, page, status ?? undefined);
    return listEnvelope(list.map(presentInvoice), page, total);
  });

  app.get<WithId>('/invoices/:id', { schema: reply200 }, async (req) =>
    presentInvoice(await getInvoice(db, req.identity, req.params.id)),
  );

  app.post<WithId>('/invoices/:id', { schema: { body: anyBody, ...reply200 } }, async (req) =>
    presentInvoice(await req.tx((q) => updateInvoice(q, req.identity, req.params.id, input(req.body), req.now))),
  );

  app.post<WithId>('/invoices/:id/deliver', { config: { idempotentReplay: replayPath }, schema: { body: anyBody, ...reply200 } }, async (req) => {
    const inv = await req.tx((q) => deliverInvoice(q, req.identity, req.params.id, req.now), { resource: (i) => i.id });
    kick();
    return presentInvoice(inv);
  });

  app.post<WithId>('/invoices/:id/mark_as_paid', { config: { idempotentReplay: replayPath }, schema: { body: anyBody, ...reply200 } }, async (req) =>
    // Recorded by the payment it made (the last of the invoice's payments).
    presentInvoice(await req.tx((q) => markInvoicePaid(q, req.identity, req.params.id, (req.body as Body | undefined)?.amount, req.now),
      { resource: (i) => i.payments.at(-1)?.id })),
  );

  app.delete<WithId>('/invoices/:id', { schema: { response: { 200: done } } }, async (req) => {
    await req.tx((q) => deleteInvoice(q, req.identity, req.params.id, req.now));
    return { success: true };
  });
}
