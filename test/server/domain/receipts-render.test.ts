import { describe, expect, test } from 'vitest';
import {
  DEFAULT_TEMPLATE, MAX_SUBSTITUTED, ReceiptData, dollars, escapeHtml, receiptTime, renderTemplate,
} from '../../../server/domain/documents/render.js';

// Template rendering (spec 2.6): every tag, blanks for missing data, <br>, HTML escaping.

const full: ReceiptData = {
  id: '0123456789abcdef0123456789abcdef',
  description: 'Two teas',
  amount: 123456,
  card_number: 'XXXXXXXXXXXX1111',
  customer_id: 'cust_42',
  first_name: 'Ada',
  last_name: 'Lovelace',
  company: 'Analytical Engines Ltd',
  card_owner_name: 'A. Lovelace',
  account_holder_name: 'A. Lovelace',
  metadata: { order: 'A-7', 'gift note': 'Happy birthday', qty: 2, nested: { a: 1 }, empty: null },
  created_at: new Date('2026-01-15T12:34:56.789Z'),
  merchant_name: 'Tea Shop',
};

const empty: ReceiptData = { id: 'feedface', amount: 500, created_at: '2026-01-15T12:00:00.000Z' };

const text = (t: string, d: ReceiptData = full) => renderTemplate({ subject: null, receipt_text: t }, d).text;
const html = (t: string, d: ReceiptData = full) => renderTemplate({ subject: null, receipt_text: t }, d).html;

describe('every tag of spec 2.6', () => {
  test.each([
    ['[Description]', 'Two teas'],
    ['[TransactionID]', '0123456789abcdef0123456789abcdef'],
    ['[Amount]', '$1,234.56'],
    ['[PaymentInfo]', 'XXXXXXXXXXXX1111'],
    ['[CustomerID]', 'cust_42'],
    ['[Last4]', '1111'],
    ['[CustomerFirstName]', 'Ada'],
    ['[CustomerLastName]', 'Lovelace'],
    ['[CustomerFullName]', 'Ada Lovelace'],
    ['[CompanyName]', 'Analytical Engines Ltd'],
    ['[CustomerName]', 'Analytical Engines Ltd'],
    ['[MerchantName]', 'Tea Shop'],
    ['[CardOwnerName]', 'A. Lovelace'],
    ['[CreatedAt]', '2026-01-15T12:34:56+00:00'],
    ['[Metadata/order]', 'A-7'],
    ['[Metadata/gift note]', 'Happy birthday'],
    ['[Metadata/qty]', '2'],
    ['[Metadata/nested]', '{"a":1}'],
  ])('%s -> %s', (tag, value) => {
    expect(text(`<${tag}>`)).toBe(`<${value}>`);
    expect(renderTemplate({ subject: `S ${tag}`, receipt_text: 'x' }, full).subject).toBe(`S ${value}`);
  });

  test('[CustomerName]: company, else first and last name, else the cardholder, else the account holder', () => {
    expect(text('[CustomerName]', { ...full, company: null })).toBe('Ada Lovelace');
    expect(text('[CustomerName]', { ...full, company: null, last_name: null })).toBe('Ada');
    expect(text('[CustomerName]', { ...full, company: '  ', first_name: null, last_name: null })).toBe('A. Lovelace');
    expect(text('[CustomerName]', { ...empty, account_holder_name: 'Grace Hopper' })).toBe('Grace Hopper');
    expect(text('[CardOwnerName]', { ...empty, account_holder_name: 'Grace Hopper' })).toBe('Grace Hopper');
  });

  test('a bank account: [PaymentInfo] masked account, [Last4] its last four', () => {
    const d = { ...empty, card_number: 'XXXXXXXX6789' };
    expect(text('[PaymentInfo] / [Last4]', d)).toBe('XXXXXXXX6789 / 6789');
  });

  test('amounts in dollars with integer arithmetic', () => {
    expect([1, 12, 100, 1999, 100000, 99_999_999_999].map(dollars)).toEqual(
      ['$0.01', '$0.12', '$1.00', '$19.99', '$1,000.00', '$999,999,999.99'],
    );
  });

  test('receipt timestamps use +00:00, whole seconds', () => {
    expect(receiptTime(new Date('2026-03-01T00:00:00.999Z'))).toBe('2026-03-01T00:00:00+00:00');
  });
});

describe('missing data renders blank', () => {
  test('every tag without data is empty; only TransactionID, Amount and CreatedAt always exist', () => {
    const all = '[Description]|[PaymentInfo]|[CustomerID]|[Last4]|[CustomerFirstName]|[CustomerLastName]|'
      + '[CustomerFullName]|[CompanyName]|[CustomerName]|[MerchantName]|[CardOwnerName]|[Metadata/order]';
    expect(text(all, empty)).toBe('|||||||||||');
    expect(text('[TransactionID] [Amount] [CreatedAt]', empty)).toBe('feedface $5.00 2026-01-15T12:00:00+00:00');
  });

  test('a metadata field that is absent, null, or an inherited property name is blank', () => {
    expect(text('[[Metadata/missing]][Metadata/empty][Metadata/constructor][Metadata/__proto__][Metadata/]')).toBe('[]');
  });

  test('unknown tags and lookalikes stay as written', () => {
    expect(text('[Note] [amount] [Metadata] [Metadata/a]b]')).toBe('[Note] [amount] [Metadata] b]');
  });
});

describe('<br> line breaks', () => {
  test('text part: <br>, <br/>, <BR /> and newlines become newlines', () => {
    expect(text('a<br>b<br/>c<BR />d\ne\r\nf')).toBe('a\nb\nc\nd\ne\nf');
  });

  test('HTML part: each line break is one <br>', () => {
    expect(html('a<br>b<br/>c\nd')).toContain('<p>a<br>\nb<br>\nc<br>\nd</p>');
  });

  test('a value containing "<br>" is text, never a line break', () => {
    const d = { ...full, description: 'x<br>y' };
    expect(text('[Description]', d)).toBe('x<br>y');
    expect(html('[Description]', d)).toContain('<p>x&lt;br&gt;y</p>');
  });

  test('the subject is one line', () => {
    expect(renderTemplate({ subject: 'Hi<br>[CustomerFirstName]\r\nthere', receipt_text: 'x' }, full).subject).toBe('Hi Ada there');
    expect(renderTemplate({ subject: '[Description]', receipt_text: 'x' }, { ...full, description: 'a\nBcc: evil@example.com' }).subject)
      .toBe('a Bcc: evil@example.com');
    expect(renderTemplate({ subject: null, receipt_text: 'x' }, full).subject).toBe('');
  });
});

describe('HTML escaping', () => {
  test('substituted values are escaped in the HTML part and kept as they are in the text part', () => {
    const d: ReceiptData = {
      ...full, description: '<script>alert("x")</script>', first_name: "O'Brien & Co", merchant_name: '<b>Shop</b>',
      metadata: { note: '<img src=x onerror=alert(1)>' },
    };
    const r = renderTemplate({ subject: '[MerchantName]', receipt_text: '[Description] [CustomerFirstName] [Metadata/note]' }, d);
    expect(r.text).toBe(`<script>alert("x")</script> O'Brien & Co <img src=x onerror=alert(1)>`);
    expect(r.html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; O&#39;Brien &amp; Co &lt;img src=x onerror=alert(1)&gt;');
    expect(r.html).not.toContain('<script>');
    expect(r.html).not.toContain('<img');
    expect(r.subject).toBe('<b>Shop</b>');
    expect(r.html).toContain('<title>&lt;b&gt;Shop&lt;/b&gt;</title>');
  });

  test('the template is text too: its own markup is shown, not interpreted', () => {
    expect(html('<b>Thanks</b> & bye')).toContain('<p>&lt;b&gt;Thanks&lt;/b&gt; &amp; bye</p>');
    expect(text('<b>Thanks</b> & bye')).toBe('<b>Thanks</b> & bye');
  });

  test('escapeHtml covers the five special characters', () => {
    expect(escapeHtml(`&<>"'`)).toBe('&amp;&lt;&gt;&quot;&#39;');
  });
});

test('the built-in template names the amount, the card, the description, the transaction and the date', () => {
  const r = renderTemplate(DEFAULT_TEMPLATE, full);
  expect(r.subject).toBe('Your receipt from Tea Shop');
  expect(r.text).toBe([
    'Thank you for your payment to Tea Shop.', '', 'Amount: $1,234.56', 'Paid with: XXXXXXXXXXXX1111',
    'Description: Two teas', 'Transaction: 0123456789abcdef0123456789abcdef', 'Date: 2026-01-15T12:34:56+00:00',
  ].join('\n'));
});

test('a receipt carries at most MAX_SUBSTITUTED characters of values, whatever the number of tags', () => {
  // The hostile review's case: 1,800 tags of an 8 KB metadata value (quotes, 6 bytes each in HTML).
  const d = { ...empty, metadata: { '': '"'.repeat(4000) } };
  const r = renderTemplate({ subject: '[Metadata/]'.repeat(20), receipt_text: '[Metadata/]'.repeat(1800) }, d);
  expect(r.text.length).toBeLessThanOrEqual(MAX_SUBSTITUTED + 1);
  expect(r.text.startsWith('"'.repeat(MAX_SUBSTITUTED))).toBe(true);
  expect(r.text.endsWith('…')).toBe(true);
  expect(r.html.length).toBeLessThan(MAX_SUBSTITUTED + 255 * 6 + 1000); // the body (escaped values counted as escaped), and the subject as its title
  expect(r.html).not.toMatch(/&[a-z#0-9]*…/); // never cut inside an entity
  expect(r.subject.length).toBeLessThanOrEqual(255);
  // An ordinary receipt is untouched.
  expect(renderTemplate({ subject: null, receipt_text: '[Metadata/order] [Amount]' }, full).text).toBe('A-7 $1,234.56');
});
