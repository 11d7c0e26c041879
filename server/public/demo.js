// The demo checkout page: collects payment data, tokenizes it, shows the token or the errors. The
// card form uses hosted fields (the card is typed in the gateway's frame: Tessera.fields, then
// tokenize); the bank form the JSONP tokenizer (Tessera.generateToken). What a merchant's own page
// needs is mountCard() and the two calls in submit().
(function () {
  'use strict';

  var $ = function (id) { return document.getElementById(id); };
  var forms = [$('card-form'), $('bank-form')];
  var keyInput = $('public-key');
  var timeoutInput = $('timeout');
  var statusLine = $('status');
  var tokenBox = $('token-result');
  var tokenId = $('token-id');
  var tokenJson = $('token-json');
  var errorList = $('errors');
  var pending = false;

  // A link such as /?timeout=500 prefills the timeout. Nothing in the URL can choose where the card
  // goes: the tokenizer talks to the gateway that served this page (no baseUrl is ever passed).
  var params = new URLSearchParams(location.search);
  if (params.get('timeout')) {
    timeoutInput.value = params.get('timeout');
    document.querySelector('details.advanced').open = true;
  }

  var card = null;
  var NOT_LOADED = 'The tokenizer did not load from /tokenizer.js and /fields.js. Build them with npm run build and reload.';

  // The card frame belongs to a public key: mounted again when the key changes.
  function mountCard() {
    if (card) card.destroy();
    card = null;
    if (!window.Tessera || !window.Tessera.fields || !keyInput.value.trim()) return;
    card = window.Tessera.fields(keyInput.value.trim(), '#card-fields', options());
    card.on('error', function (e) { setStatus('error', 'The card fields did not load: ' + e.message); });
    card.on('submit', function () { forms[0].requestSubmit(); });
  }

  if (!window.Tessera || !window.Tessera.fields) {
    setStatus('error', NOT_LOADED);
  } else if (!keyInput.value.trim()) {
    setStatus('error', 'No demo public key on this gateway. Create keys with "tessera keys create" and paste the public key above.');
  }
  mountCard();
  keyInput.addEventListener('change', mountCard);
  timeoutInput.addEventListener('change', mountCard);

  function setStatus(kind, text) {
    statusLine.textContent = text;
    statusLine.className = 'status' + (kind ? ' is-' + kind : '');
  }

  function setBusy(busy) {
    pending = busy;
    document.getElementById('result').setAttribute('aria-busy', busy ? 'true' : 'false');
    forms.forEach(function (form) {
      var button = form.querySelector('button[type="submit"]');
      button.disabled = busy;
    });
  }

  // Blank fields are left out: "not given" rather than an empty value.
  function paymentData(form) {
    var data = {};
    new FormData(form).forEach(function (value, name) {
      value = String(value).trim();
      if (value) data[name] = value;
    });
    return data;
  }

  function options() {
    var opts = {};
    var timeout = parseInt(timeoutInput.value, 10);
    if (timeout > 0) opts.timeout = timeout;
    return opts;
  }

  function clearResult() {
    tokenBox.hidden = true;
    tokenId.textContent = '';
    tokenJson.textContent = '';
    errorList.hidden = true;
    errorList.replaceChildren();
  }

  function showErrors(errors) {
    setStatus('error', 'No token: ' + (errors.length == 1 ? 'the payment data was refused.' : errors.length + ' problems.'));
    errors.forEach(function (e) {
      var item = document.createElement('li');
      var code = document.createElement('code');
      code.className = 'code';
      code.setAttribute('data-testid', 'error-code');
      code.textContent = e.code;
      var message = document.createElement('span');
      message.setAttribute('data-testid', 'error-message');
      message.textContent = e.message;
      item.append(code, ' ', message);
      errorList.append(item);
    });
    errorList.hidden = false;
  }

  function showToken(token) {
    setStatus('ok', 'Token created.');
    tokenId.textContent = token.id;
    tokenJson.textContent = JSON.stringify(token, null, 2);
    tokenBox.hidden = false;
    document.dispatchEvent(new CustomEvent('tessera-demo:token', { detail: token }));
  }

  function submit(event) {
    event.preventDefault();
    if (pending) return;
    clearResult();
    var isCard = event.currentTarget === forms[0];
    if (!window.Tessera || (isCard && !card)) {
      setStatus('error', window.Tessera ? 'Enter a public key above first.' : NOT_LOADED);
      return;
    }
    setBusy(true);
    setStatus('busy', 'Requesting a token…');
    var done = function (response) {
      setBusy(false);
      if (response && response.errors) showErrors(response.errors);
      else showToken(response);
    };
    // The card's number, expiry and code are in the frame; the rest of the form travels beside them.
    if (isCard) card.tokenize(paymentData(event.currentTarget), done);
    else window.Tessera.generateToken(keyInput.value.trim(), paymentData(event.currentTarget), done, options());
  }

  forms.forEach(function (form) { form.addEventListener('submit', submit); });

  // The "Use" button of the test bank account fills the bank form. Test cards are typed in the card
  // frame: this page cannot write there, as it cannot read there.
  document.querySelector('.test-numbers').addEventListener('click', function (event) {
    var button = event.target.closest('button');
    if (button && button.dataset.bank) {
      var parts = button.dataset.bank.split(' ');
      $('bank-routing').value = parts[0];
      $('bank-account').value = parts[1];
      $('bank-first-name').focus();
    }
  });
})();

// Merchant step: charge the token (or save it as a customer and charge that) through the demo
// merchant server hosted by the gateway, then show the transaction it answered with.
(function () {
  'use strict';
  var section = document.getElementById('merchant-step');
  var form = document.getElementById('merchant-form');
  var out = document.getElementById('charge-result');
  var token = null;

  document.addEventListener('tessera-demo:token', function (event) {
    token = event.detail;
    section.hidden = false;
    out.textContent = '';
  });

  function line(label, value, id) {
    var p = document.createElement('p');
    var b = document.createElement('strong');
    b.textContent = label + ' ';
    var c = document.createElement('code');
    c.textContent = value;
    if (id) c.setAttribute('data-testid', id);
    p.appendChild(b);
    p.appendChild(c);
    out.appendChild(p);
  }

  form.addEventListener('submit', function (event) {
    event.preventDefault();
    if (!token) return;
    var save = event.submitter && event.submitter.id === 'save-and-charge';
    var amount = document.getElementById('charge-amount').value.trim();
    var buttons = form.querySelectorAll('button');
    buttons.forEach(function (b) { b.disabled = true; });
    out.textContent = 'Charging…';
    fetch('/demo/charge', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: token.id, amount: amount, save_customer: save }),
    })
      .then(function (res) { return res.json(); })
      .then(function (body) {
        out.textContent = '';
        if (body.errors) {
          body.errors.forEach(function (e) { line('Error', e.code + ': ' + e.message, 'charge-error'); });
          if (body.errors[0].transaction_id) line('Transaction', body.errors[0].transaction_id, 'transaction-id');
          return;
        }
        var t = body.transaction;
        line('Status', t.status, 'transaction-status');
        line('Transaction', t.id, 'transaction-id');
        line('Amount settled', (t.amount_settled / 100).toFixed(2), 'amount-settled');
        line('Card', t.card_type + ' ' + t.card_number, 'transaction-card');
        if (body.customer_id) line('Customer', body.customer_id, 'customer-id');
      })
      .catch(function () { out.textContent = 'The gateway did not answer.'; })
      .then(function () {
        token = null; // single use: tokenize again for another charge
        buttons.forEach(function (b) { b.disabled = false; });
      });
  });
})();
