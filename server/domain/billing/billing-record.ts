// A billing as stored and as the API shows it (its row schema: schemas/billings.ts); billings.ts
// makes them, subscriptions.ts shows the last one.
export { BILLING_COLUMNS, type BillingRow, type BillingStatus } from '../../schemas/billings.js';
