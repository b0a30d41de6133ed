(function () {
  'use strict';
  const body = document.body;
  const cards = Array.from(document.querySelectorAll('.card'));
  const sections = Array.from(document.querySelectorAll('section.case'));
  const tables = Array.from(document.querySelectorAll('.theme-tokens'));
  const selects = Array.from(document.querySelectorAll('#toolbar select'));
  const shown = document.getElementById('shown');
  const keys = selects.map(s => s.dataset.key);
  let state = {};

  // The fragment's values are compared with the cards' attributes as text: a value no card
  // has shows nothing, and no value ever becomes markup.
  function readFragment() {
    const params = new URLSearchParams(location.hash.slice(1));
    state = {};
    for (const key of keys) {
      const value = params.get(key);
      if (value) state[key] = value;
    }
    for (const select of selects) {
      const value = state[select.dataset.key] || '';
      select.value = Array.from(select.options).some(o => o.value === value) ? value : '';
    }
  }

  function writeFragment() {
    const params = new URLSearchParams();
    for (const key of keys) if (state[key]) params.set(key, state[key]);
    const text = params.toString();
    history.replaceState(null, '', text ? '#' + text : location.pathname + location.search);
  }

  function apply() {
    let count = 0;
    for (const card of cards) {
      const match = keys.every(key => !state[key] || card.dataset[key] === state[key]);
      card.hidden = !match;
      if (match) count += 1;
    }
    for (const section of sections) section.hidden = !section.querySelector('.card:not([hidden])');
    for (const table of tables) table.hidden = Boolean(state.theme) && table.dataset.theme !== state.theme;
    shown.textContent = count + ' of ' + cards.length + ' picture' + (cards.length === 1 ? '' : 's') + ' shown';
    body.dataset.shown = String(count);
  }

  for (const select of selects) {
    select.addEventListener('change', () => {
      if (select.value) state[select.dataset.key] = select.value; else delete state[select.dataset.key];
      writeFragment();
      apply();
    });
  }
  window.addEventListener('hashchange', () => { readFragment(); apply(); });
  readFragment();
  apply();

  // Once every image has settled: how many loaded, and 'ready' when all did.
  const settle = () => settleImages(body);
  if (document.readyState === 'complete') settle(); else window.addEventListener('load', settle);
})();
