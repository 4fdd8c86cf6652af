// Passkey buttons: ask the server for WebAuthn options, let the browser create or use a
// passkey (@simplewebauthn/browser, served by the app), and send the answer back. A button
// says what it does with data-passkey ("register" or "authenticate"), where to get the
// options (data-options) and where to send the answer (data-verify); the CSRF token is the
// `_csrf` input of its form, and a "name" input of that form names a new passkey.
(function () {
  'use strict';
  var lib = window.SimpleWebAuthnBrowser;

  function post(url, body) {
    return fetch(url, {
      method: 'POST',
      credentials: 'same-origin',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
      },
      body: JSON.stringify(body),
    }).then(function (answer) {
      return answer.json().then(function (json) {
        if (!answer.ok)
          {throw new Error(json.error || 'The passkey did not work.');}
        return json;
      });
    });
  }

  function run(button) {
    var form = button.closest('form');
    var csrf = form.querySelector('input[name="_csrf"]').value;
    var nameInput = form.querySelector('input[name="name"]');
    var status = form.querySelector('[data-passkey-status]');
    var register = button.getAttribute('data-passkey') === 'register';
    if (status) status.textContent = '';
    button.disabled = true;
    post(button.getAttribute('data-options'), { _csrf: csrf })
      .then(function (options) {
        return register
          ? lib.startRegistration({ optionsJSON: options })
          : lib.startAuthentication({ optionsJSON: options });
      })
      .then(function (response) {
        return post(button.getAttribute('data-verify'), {
          _csrf: csrf,
          response: response,
          name: nameInput ? nameInput.value : '',
        });
      })
      .then(function (answer) {
        window.location.assign(answer.redirect);
      })
      .catch(function (error) {
        button.disabled = false;
        if (status) status.textContent = error.message;
      });
  }

  document.querySelectorAll('[data-passkey]').forEach(function (button) {
    if (!lib || !window.PublicKeyCredential) return;
    button.hidden = false;
    button.addEventListener('click', function () {
      run(button);
    });
  });
})();
