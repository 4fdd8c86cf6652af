// Conveniences on top of pages that work without JavaScript: copy buttons, the fields
// editor hides the options box of fields that are not a select, and the account switcher.
(function () {
  'use strict';
  document.documentElement.classList.add('js');

  function copyText(text) {
    if (navigator.clipboard && window.isSecureContext) {
      return navigator.clipboard.writeText(text);
    }
    var area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.className = 'visually-hidden';
    document.body.appendChild(area);
    area.select();
    var ok = document.execCommand('copy');
    document.body.removeChild(area);
    return ok ? Promise.resolve() : Promise.reject(new Error('copy failed'));
  }

  function setupCopyButtons() {
    var buttons = document.querySelectorAll('[data-copy-target]');
    buttons.forEach(function (button) {
      button.hidden = false;
      button.addEventListener('click', function () {
        var target = document.getElementById(
          button.getAttribute('data-copy-target'),
        );
        if (!target) return;
        var label = button.textContent;
        copyText(
          'value' in target ? target.value : target.textContent.trim(),
        ).then(
          function () {
            button.textContent = 'Copied';
            setTimeout(function () {
              button.textContent = label;
            }, 1600);
          },
          function () {
            button.textContent = 'Press Ctrl+C';
          },
        );
      });
    });
  }

  function setupFieldRows() {
    document.querySelectorAll('.field-row').forEach(function (row) {
      var select = row.querySelector('select[name$=".type"]');
      if (!select) return;
      var sync = function () {
        row.setAttribute('data-type', select.value);
      };
      select.addEventListener('change', sync);
      sync();
    });
  }

  // The account switcher switches as soon as an account is chosen; its button stays for
  // keyboards and for pages without JavaScript.
  function setupAccountSwitcher() {
    document
      .querySelectorAll('[data-account-switcher]')
      .forEach(function (form) {
        var select = form.querySelector('select');
        if (!select) return;
        select.addEventListener('change', function () {
          form.submit();
        });
      });
  }

  document.addEventListener('DOMContentLoaded', function () {
    setupCopyButtons();
    setupFieldRows();
    setupAccountSwitcher();
  });
})();
