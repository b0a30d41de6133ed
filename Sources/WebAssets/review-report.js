(function () {
  'use strict';
  const root = document.documentElement;
  root.classList.add('js');
  const body = document.body;
  const cards = Array.from(document.querySelectorAll('.failure'));
  const toolbar = document.getElementById('toolbar');
  const filterBox = document.getElementById('filter');
  const chips = Array.from(document.querySelectorAll('.chip'));
  const shown = document.getElementById('shown');
  const command = document.getElementById('selected-command');
  const selectedCount = document.getElementById('selected-count');
  const all = document.getElementById('select-all');
  const picks = Array.from(document.querySelectorAll('.pick'));
  const entries = Array.from(document.querySelectorAll('#index li[data-for]'));
  const views = ['side', 'slider', 'toggle'];
  let current = -1;
  let started = false;
  let initial = {};  // the fragment's view and zoom, kept when the fragment is rewritten

  // Sizes: pictures fit the window below the tool bar and the card's controls, unless "actual size".
  function bars() {
    const bar = toolbar ? Math.floor(toolbar.getBoundingClientRect().height) : 0;
    const visible = document.querySelector('.failure:not([hidden]) .controls');
    const controls = visible ? Math.ceil(visible.getBoundingClientRect().height) : 0;
    root.style.setProperty('--toolbar-h', bar + 'px');
    if (visible) root.style.setProperty('--controls-h', controls + 'px');
    return { bar: bar, controls: controls };
  }
  function naturalSize(img) {
    return [img.naturalWidth || Number(img.getAttribute('width')) || 0,
            img.naturalHeight || Number(img.getAttribute('height')) || 0];
  }
  function place(img, scale) {
    const size = naturalSize(img);
    if (!size[0] || !size[1]) return;
    img.style.width = Math.max(1, Math.round(size[0] * scale)) + 'px';
    img.style.height = Math.max(1, Math.round(size[1] * scale)) + 'px';
  }
  function layoutCard(card, heights) {
    if (card.hidden) return;
    const images = Array.from(card.querySelectorAll('img.shot'));
    let width = 0, height = 0;
    images.forEach(img => {
      const s = naturalSize(img);
      width = Math.max(width, s[0]);
      height = Math.max(height, s[1]);
    });
    if (!width || !height) return;
    const actual = card.dataset.zoom === 'actual';
    const room = Math.max(120, card.clientWidth - 26);
    const tall = Math.max(120, window.innerHeight - heights.bar - heights.controls - 32);
    const side = Array.from(card.querySelectorAll('.view.side img.shot'));
    const n = Math.max(1, side.length);
    const sideScale = actual ? 1 : Math.min(1, tall / height, (room - 12 * (n - 1) - 2 * n) / (n * width));
    const oneScale = actual ? 1 : Math.min(1, tall / height, (room - 2) / width);
    side.forEach(img => place(img, sideScale));
    card.querySelectorAll('.view.slider img.shot, .view.toggle img.shot').forEach(img => place(img, oneScale));
    const stack = card.querySelector('.stack');
    if (stack) {
      stack.style.width = (Math.round(width * oneScale) + 2) + 'px';
      stack.style.height = (Math.round(height * oneScale) + 2) + 'px';
    }
  }
  function layout() {
    const heights = bars();
    cards.forEach(card => layoutCard(card, heights));
  }

  // Views of one card.
  function setView(card, mode) {
    if (!card.querySelector('.modes')) return;
    card.dataset.view = mode;
    card.querySelectorAll('.modes button').forEach(b => {
      const on = b.dataset.mode === mode;
      b.classList.toggle('on', on);
      b.setAttribute('aria-pressed', on ? 'true' : 'false');
    });
  }
  function setZoom(card, actual) {
    card.dataset.zoom = actual ? 'actual' : 'fit';
    const button = card.querySelector('.zoom');
    if (button) button.setAttribute('aria-pressed', actual ? 'true' : 'false');
    layoutCard(card, bars());
  }
  function flip(card) {
    const img = card.querySelector('img.flipped');
    if (!img) return;
    const showActual = img.alt === 'expected';
    img.src = showActual ? img.dataset.actual : img.dataset.expected;
    img.alt = showActual ? 'actual' : 'expected';
    const b = card.querySelector('.flip b');
    if (b) b.textContent = img.alt;
  }
  cards.forEach(card => {
    card.querySelectorAll('.modes button').forEach(b =>
      b.addEventListener('click', () => setView(card, b.dataset.mode)));
    const zoom = card.querySelector('.zoom');
    if (zoom) zoom.addEventListener('click', () => setZoom(card, card.dataset.zoom !== 'actual'));
    const slide = card.querySelector('.slide');
    const over = card.querySelector('.over');
    if (slide && over) slide.addEventListener('input', () => {
      over.style.clipPath = 'inset(0 0 0 ' + slide.value + '%)';
    });
    const button = card.querySelector('.flip');
    if (button) button.addEventListener('click', () => flip(card));
    const img = card.querySelector('img.flipped');
    if (img) img.addEventListener('click', () => flip(card));
    card.querySelectorAll('img.shot').forEach(i => i.addEventListener('load', () => layoutCard(card, bars())));
    let timer = null;
    const blink = card.querySelector('.blink');
    if (blink) blink.addEventListener('change', () => {
      if (timer) { clearInterval(timer); timer = null; }
      if (blink.checked) timer = setInterval(() => flip(card), 600);
    });
  });

  // Filter: every word must match; `case:`, `theme:`, `mode:`, `status:` compare whole values,
  // `variant:` and `id:` substrings; a bare word is a substring of any of them. Chips pick statuses.
  function pressedStatuses() {
    return chips.filter(c => c.getAttribute('aria-pressed') === 'true').map(c => c.dataset.status);
  }
  function matches(card, words, statuses) {
    const d = card.dataset;
    if (statuses.length && statuses.indexOf(d.status) < 0) return false;
    const values = { id: d.id, case: d.case, theme: d.theme, mode: d.mode, status: d.status, variant: d.variant };
    const text = Object.keys(values).map(k => (values[k] || '').toLowerCase()).join('\n');
    return words.every(word => {
      const field = /^(case|theme|mode|status|variant|id):(.*)$/.exec(word);
      if (!field) return text.indexOf(word) >= 0;
      const value = (values[field[1]] || '').toLowerCase();
      return field[1] === 'variant' || field[1] === 'id' ? value.indexOf(field[2]) >= 0 : value === field[2];
    });
  }
  function apply() {
    const words = filterBox ? filterBox.value.toLowerCase().split(/\s+/).filter(w => w.length > 0) : [];
    const statuses = pressedStatuses();
    let count = 0;
    cards.forEach(card => {
      const visible = matches(card, words, statuses);
      card.hidden = !visible;
      if (visible) count += 1;
    });
    entries.forEach(entry => {
      const card = document.getElementById(entry.dataset.for);
      entry.hidden = !card || card.hidden;
    });
    body.dataset.shown = String(count);
    if (shown) {
      shown.textContent = count + ' of ' + cards.length + ' failure' + (cards.length === 1 ? '' : 's') + ' shown';
    }
    if (current >= 0 && cards[current].hidden) { cards[current].classList.remove('current'); current = -1; }
    updateCommand();
    layout();
    save();
  }
  if (filterBox) filterBox.addEventListener('input', apply);
  chips.forEach(chip => chip.addEventListener('click', () => {
    chip.setAttribute('aria-pressed', chip.getAttribute('aria-pressed') === 'true' ? 'false' : 'true');
    apply();
  }));

  // Selection: one `record --failed --filter '<id>,<id>'` for every checked failure.
  function quote(text) {
    return /^[A-Za-z0-9@%+=:,.\/_-]+$/.test(text) ? text : "'" + text.replace(/'/g, "'\\''") + "'";
  }
  function updateCommand() {
    if (!command) return;
    const chosen = picks.filter(p => p.checked);
    const hidden = chosen.filter(p => p.closest('.failure').hidden).length;
    const ids = chosen.map(p => p.value);
    command.textContent = ids.length
      ? command.dataset.prefix + ' --filter ' + quote(ids.join(','))
      : command.dataset.all;
    body.dataset.selected = String(ids.length);
    if (selectedCount) {
      selectedCount.textContent = ids.length
        ? 'accept the ' + ids.length + ' selected' + (hidden ? ' (' + hidden + ' hidden by the filter)' : '') + ':'
        : 'accept every failure of this run:';
    }
    if (all) {
      const visible = picks.filter(p => !p.closest('.failure').hidden);
      const on = visible.filter(p => p.checked).length;
      all.checked = visible.length > 0 && on === visible.length;
      all.indeterminate = on > 0 && on < visible.length;
    }
    save();
  }
  picks.forEach(p => p.addEventListener('change', updateCommand));
  if (all) all.addEventListener('change', () => {
    picks.forEach(p => { if (!p.closest('.failure').hidden) p.checked = all.checked; });
    updateCommand();
  });
  document.querySelectorAll('button.copy').forEach(b => b.addEventListener('click', () => {
    const text = document.getElementById(b.dataset.copy).textContent;
    if (navigator.clipboard) {
      navigator.clipboard.writeText(text).then(() => { b.textContent = 'copied'; }, () => {});
    }
  }));

  // The state in the URL fragment: filter, status, select, view, zoom.
  function save() {
    if (!started) return;
    const state = new URLSearchParams();
    if (filterBox && filterBox.value) state.set('filter', filterBox.value);
    const statuses = pressedStatuses();
    if (statuses.length) state.set('status', statuses.join(','));
    const ids = picks.filter(p => p.checked).map(p => p.value);
    if (ids.length) state.set('select', ids.join(','));
    Object.keys(initial).forEach(k => state.set(k, initial[k]));
    const text = state.toString();
    try {
      history.replaceState(null, '', text ? '#' + text : location.pathname + location.search);
    } catch (e) {
      // a browser may refuse to rewrite a file: URL; the page works the same
    }
  }
  function load() {
    let state;
    try { state = new URLSearchParams(location.hash.replace(/^#/, '')); } catch (e) { return; }
    if (filterBox && state.has('filter')) filterBox.value = state.get('filter');
    const statuses = (state.get('status') || '').split(',').filter(s => s.length > 0);
    chips.forEach(c => c.setAttribute('aria-pressed', statuses.indexOf(c.dataset.status) >= 0 ? 'true' : 'false'));
    const ids = (state.get('select') || '').split(',').filter(s => s.length > 0);
    picks.forEach(p => { p.checked = ids.indexOf(p.value) >= 0; });
    const view = state.get('view');
    if (views.indexOf(view) >= 0) {
      initial.view = view;
      cards.forEach(card => setView(card, view));
    }
    if (state.get('zoom') === 'actual') {
      initial.zoom = 'actual';
      cards.forEach(card => {
        card.dataset.zoom = 'actual';
        const button = card.querySelector('.zoom');
        if (button) button.setAttribute('aria-pressed', 'true');
      });
    }
  }

  // Keys.
  function visibleCards() { return cards.filter(c => !c.hidden); }
  function focusCard(card) {
    if (!card) return;
    cards.forEach(c => c.classList.toggle('current', c === card));
    current = cards.indexOf(card);
    card.focus({ preventScroll: true });
    card.scrollIntoView({ block: 'start' });
  }
  function step(delta) {
    const list = visibleCards();
    if (!list.length) return;
    const at = list.indexOf(cards[current]);
    focusCard(list[at < 0 ? (delta > 0 ? 0 : list.length - 1) : (at + delta + list.length) % list.length]);
  }
  entries.forEach(entry => {
    const link = entry.querySelector('a');
    if (link) link.addEventListener('click', e => {
      e.preventDefault();
      focusCard(document.getElementById(entry.dataset.for));
    });
  });
  document.addEventListener('keydown', e => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const target = e.target;
    if (target === filterBox) {
      if (e.key === 'Escape') { if (filterBox.value) { filterBox.value = ''; apply(); } else filterBox.blur(); }
      return;
    }
    const typing = target && (target.tagName === 'TEXTAREA'
      || (target.tagName === 'INPUT' && target.type !== 'checkbox' && target.type !== 'range'));
    if (typing) return;
    const card = current >= 0 && !cards[current].hidden ? cards[current] : null;
    if (e.key === '/' && filterBox) { e.preventDefault(); filterBox.focus(); filterBox.select(); }
    else if (e.key === 'j') step(1);
    else if (e.key === 'k') step(-1);
    else if (card && e.key === 'x') {
      const pick = card.querySelector('.pick');
      if (pick) { pick.checked = !pick.checked; updateCommand(); }
    }
    else if (card && e.key === 't') { setView(card, 'toggle'); flip(card); }
    else if (card && e.key === 'z') setZoom(card, card.dataset.zoom !== 'actual');
    else if (card && ['1', '2', '3'].indexOf(e.key) >= 0) setView(card, views[Number(e.key) - 1]);
  });

  // The passing references: a filter on their ids.
  const passedFilter = document.getElementById('passed-filter');
  if (passedFilter) {
    const passedRows = Array.from(document.querySelectorAll('#passed li'));
    passedFilter.addEventListener('input', () => {
      const words = passedFilter.value.toLowerCase().split(/\s+/).filter(w => w);
      for (const row of passedRows) {
        const id = row.dataset.id.toLowerCase();
        row.hidden = !words.every(w => id.includes(w));
      }
    });
  }

  load();
  apply();
  started = true;
  save();
  window.addEventListener('resize', layout);
  function settle() {
    layout();
    settleImages(body);
  }
  if (document.readyState === 'complete') settle(); else window.addEventListener('load', settle);
})();
