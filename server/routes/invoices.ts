import type { FastifyInstance } from 'fastify';
import { InvoiceFields, InvoiceSchema, InvoicesQuery, MarkPaidFields, presentInvoice } from '../schemas/invoices.js';
import { List, Success } from '../schemas/common.js';
import { E } from '../errors.js';
import {
  createInvoice, deleteInvoice, deliverInvoice, getInvoice, listInvoices, markInvoicePaid, updateInvoice,
} from '../domain/documents/invoices.js';
import { IdempotentReplay } from '../http/idempotency.js';
import { listEnvelope } from '../http/paging.js';


type WithId = { Params: { id: string } };

/** Invoices (spec 4.11): create and email, list, read, update while unpaid, resend, mark paid, delete. */
export default async function invoiceRoutes(app: FastifyInstance) {
  const { db } = app.services;
  const reply200 = { response: { 200: InvoiceSchema } };
  const inputErrors = [E.AMOUNT_INVALID, E.CUSTOMER_ID_REQUIRED, E.CUSTOMER_EMAIL_OR_STATE_INVALID] as const;
  const kick = () => app.services.notify?.kick();

  // After a crash between commit and answer, a retry answers the invoice as it is now: the one
  // created, or the one delivered / paid (by the path's id: mark_as_paid records the payment).
  const replayCreated: IdempotentReplay = async (req, id) => presentInvoice(await getInvoice(db, req.identity, id));
  const replayPath: IdempotentReplay = async (req) => presentInvoice(await getInvoice(db, req.identity, (req.params as { id: string }).id));
  app.post('/invoices', {
    config: { idempotentReplay: replayCreated, errors: [...inputErrors, E.INVOICE_UNDELIVERABLE] },
    schema: { summary: 'Create an invoice (emailed when it has an email address)', body: InvoiceFields, ...reply200 },
  }, async (req) => {
    const inv = await req.tx((q) => createInvoice(q, req.identity, InvoiceFields.from(req), req.now), { resource: (i) => i.id });
    if (inv.outbox_id !== null) kick();
    return presentInvoice(inv);
  });

  app.get('/invoices', {
    config: { errors: [E.PAGE_INVALID] }, schema: { summary: 'List invoices, newest first', querystring: InvoicesQuery, response: { 200: List(InvoiceSchema) } },
  }, async (req) => {
    const { limit, offset, status } = InvoicesQuery.from(req);
    const page = { limit, offset };
    const { list, total } = await listInvoices(db, req.identity, page, status ?? undefined);
    return listEnvelope(list.map(presentInvoice), page, total);
  });

  app.get<WithId>('/invoices/:id', { config: { errors: [E.INVOICE_NOT_FOUND] }, schema: { summary: 'Retrieve an invoice', ...reply200 } }, async (req) =>
    presentInvoice(await getInvoice(db, req.identity, req.params.id)),
  );

  app.post<WithId>('/invoices/:id', {
    config: { errors: [...inputErrors, E.INVOICE_NOT_FOUND, E.INVOICE_NOT_UNPAID] }, schema: { summary: 'Update an unpaid invoice', body: InvoiceFields, ...reply200 },
  }, async (req) =>
    presentInvoice(await req.tx((q) => updateInvoice(q, req.identity, req.params.id, InvoiceFields.from(req), req.now))),
  );

  app.post<WithId>('/invoices/:id/deliver', {
    config: { idempotentReplay: replayPath, errors: [E.INVOICE_NOT_FOUND, E.INVOICE_UNDELIVERABLE, E.RECEIPT_EMAIL_MISSING] },
    schema: { summary: 'Email an invoice again', ...reply200 },
  }, async (req) => {
    const inv = await req.tx((q) => deliverInvoice(q, req.identity, req.params.id, req.now), { resource: (i) => i.id });
    kick();
    return presentInvoice(inv);
  });

  app.post<WithId>('/invoices/:id/mark_as_paid', {
    config: { idempotentReplay: replayPath, errors: [E.INVOICE_NOT_FOUND, E.INVOICE_NOT_PAYABLE, E.INVOICE_OVERPAID, E.AMOUNT_INVALID] },
    schema: { summary: 'Record a payment of an invoice made outside the gateway', body: MarkPaidFields, ...reply200 },
  }, async (req) =>
    // Recorded by the payment it made (the last of the invoice's payments).
    presentInvoice(await req.tx((q) => markInvoicePaid(q, req.identity, req.params.id, MarkPaidFields.from(req).amount, req.now),
      { resource: (i) => i.payments.at(-1)?.id })),
  );

  app.delete<WithId>('/invoices/:id', {
    config: { errors: [E.INVOICE_NOT_FOUND, E.INVOICE_PAID_UNDELETABLE, E.INVOICE_UNDELETABLE] }, schema: { summary: 'Delete an unpaid invoice', response: { 200: Success } },
  }, async (req) => {
    await req.tx((q) => deleteInvoice(q, req.identity, req.params.id, req.now));
    return { success: true };
  });
}
