// Conveniences on top of pages that work without JavaScript: copy buttons, the fields
// editor follows each row's Type at once (the options box for a select, the file settings
// for a file upload; without a script they follow the type the row was saved with), and
// the account switcher, and a "Select all on this page" box on the inbox's bulk bar.
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

  // Each settings section saves only itself: one edited and not saved says so, beside its
  // button and in the page's menu, before another section's save leaves the page.
  function setupSectionSaves() {
    var menu = document.querySelector('.section-menu');
    if (!menu) return;
    document.querySelectorAll('form.settings-section').forEach(function (form) {
      var mark = function (event) {
        if (event.target && event.target.name === 'op') return;
        if (form.hasAttribute('data-unsaved')) return;
        form.setAttribute('data-unsaved', '');
        var link = menu.querySelector('a[href="#' + form.id + '"]');
        if (link) link.setAttribute('data-unsaved', '');
        var actions = form.querySelector('.actions');
        if (!actions) return;
        var note = document.createElement('span');
        note.className = 'unsaved-note';
        note.textContent = 'Unsaved changes';
        actions.appendChild(note);
      };
      form.addEventListener('input', mark);
      form.addEventListener('change', mark);
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

  // Without a script every row's box is ticked one by one; with one, all at once.
  function setupSelectAll() {
    var bar = document.getElementById('bulk');
    if (!bar) return;
    var boxes = document.querySelectorAll('input.row-select');
    if (!boxes.length) return;
    var label = document.createElement('label');
    label.className = 'select-all';
    var all = document.createElement('input');
    all.type = 'checkbox';
    all.id = 'select-all';
    label.appendChild(all);
    label.appendChild(document.createTextNode(' Select all on this page'));
    bar.insertBefore(label, bar.querySelector('.bulk-title'));
    var sync = function () {
      var ticked = 0;
      boxes.forEach(function (box) {
        if (box.checked) ticked += 1;
      });
      all.checked = ticked === boxes.length;
      all.indeterminate = ticked > 0 && ticked < boxes.length;
    };
    all.addEventListener('change', function () {
      boxes.forEach(function (box) {
        box.checked = all.checked;
      });
    });
    boxes.forEach(function (box) {
      box.addEventListener('change', sync);
    });
    sync();
  }

  document.addEventListener('DOMContentLoaded', function () {
    setupSelectAll();
    setupCopyButtons();
    setupFieldRows();
    setupSectionSaves();
    setupAccountSwitcher();
  });
})();
