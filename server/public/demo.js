// The demo checkout page: collects payment data, calls the tokenizer, shows the token or
// the errors. Everything a merchant's own page needs is the generateToken call in submit().
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

  if (!window.Tessera) {
    setStatus('error', 'The tokenizer did not load from /tokenizer.js. Build it with npm run build and reload.');
  } else if (!keyInput.value.trim()) {
    setStatus('error', 'No demo public key on this gateway. Create keys with "tessera keys create" and paste the public key above.');
  }

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
    if (!window.Tessera) {
      setStatus('error', 'The tokenizer did not load from /tokenizer.js. Build it with npm run build and reload.');
      return;
    }
    setBusy(true);
    setStatus('busy', 'Requesting a token…');
    window.Tessera.generateToken(keyInput.value.trim(), paymentData(event.currentTarget), function (response) {
      setBusy(false);
      if (response && response.errors) showErrors(response.errors);
      else showToken(response);
    }, options());
  }

  forms.forEach(function (form) { form.addEventListener('submit', submit); });

  // "Use" buttons in the test-numbers table fill the matching form and move focus to it.
  document.querySelector('.test-numbers').addEventListener('click', function (event) {
    var button = event.target.closest('button');
    if (!button) return;
    if (button.dataset.card) {
      $('card-number').value = button.dataset.card.replace(/(\d{4})(?=\d)/g, '$1 ');
      var next = new Date().getFullYear() + 3;
      if (!$('card-exp-month').value) $('card-exp-month').value = '12';
      if (!$('card-exp-year').value) $('card-exp-year').value = String(next);
      $('card-owner-name').focus();
    } else if (button.dataset.bank) {
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
