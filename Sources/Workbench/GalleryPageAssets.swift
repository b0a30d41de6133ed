import Snapshot
import SnapshotReports

/// The style sheet and the script of the gallery page (``GalleryPage``), inlined into `index.html`.
///
/// Neither holds data of a run: the page's HTML carries it in escaped attributes; the script
/// compares attribute values with the filter and writes only text (`textContent`), never markup.
enum GalleryPageAssets {
  /// The page's CSS.
  static let css = #"""
    :root { color-scheme: light dark; --bg: #fff; --fg: #111; --muted: #666; --line: #ddd; --accent: #f16e00;
      --frame: #7f8794; --warn: #8a5300; }
    @media (prefers-color-scheme: dark) { :root { --bg: #141414; --fg: #eee; --muted: #aaa; --line: #333; --warn: #e8a640; } }
    body { margin: 0; font: 14px/1.4 system-ui, sans-serif; background: var(--bg); color: var(--fg); }
    header, main { padding: 12px 20px; }
    h1 { font-size: 20px; margin: 0 0 4px; }
    h2 { font-size: 17px; margin: 16px 0 8px; } h2 small { font-weight: normal; color: var(--muted); }
    h3 { font-size: 15px; margin: 12px 0 6px; } h4 { font-size: 13px; margin: 10px 0 4px; }
    [hidden] { display: none !important; }
    code { font-family: ui-monospace, monospace; font-size: 12px; }
    .sources { font-family: ui-monospace, monospace; font-size: 12px; color: var(--muted); overflow-wrap: anywhere; }
    .compare-note, .case-errors { background: #fff3cd; color: #5c4400; padding: 6px 10px; border-radius: 4px; }
    .toolbar { position: sticky; top: 0; z-index: 3; background: var(--bg); border-bottom: 1px solid var(--line);
      padding: 6px 20px; display: flex; flex-wrap: wrap; gap: 6px 14px; align-items: center; }
    .toolbar select { font: inherit; }
    #shown { color: var(--muted); }
    .theme-tokens { border: 1px solid var(--line); border-radius: 6px; padding: 4px 12px 10px; margin: 0 0 12px; }
    .token-table { border-collapse: collapse; }
    .token-table th, .token-table td { text-align: left; padding: 2px 10px 2px 0; border-bottom: 1px solid var(--line);
      vertical-align: top; }
    .token-table tr.changed td { background: rgba(241, 110, 0, .12); }
    .token-table del { color: var(--muted); }
    .swatch { display: inline-block; width: 14px; height: 14px; border: 1px solid var(--frame); vertical-align: -3px;
      margin-right: 6px; }
    .case { border-top: 1px solid var(--line); }
    .case-body { display: flex; gap: 16px; align-items: flex-start; }
    pre.source { flex: 0 0 auto; max-width: 34%; max-height: 80vh; overflow: auto; margin: 0; padding: 8px;
      background: rgba(127,127,127,.08); font-size: 12px; position: sticky; top: 52px; }
    .omitted { color: var(--muted); }
    .cards { display: flex; flex-wrap: wrap; gap: 14px; align-items: flex-start; flex: 1 1 auto; }
    .card { margin: 0; padding: 6px; border: 1px solid var(--line); border-radius: 6px; }
    .card figcaption { font-size: 12px; margin-bottom: 4px; } .card .variant { color: var(--muted); font-family: ui-monospace, monospace; }
    .card img { display: block; border: 1px solid var(--frame); max-width: 100%; height: auto;
      background: repeating-conic-gradient(#ccc 0 25%, #fff 0 50%) 0 0/16px 16px; }
    .card .compare { display: flex; gap: 8px; align-items: flex-start; }
    .card .shot span { font-size: 11px; color: var(--muted); }
    .card ul.review { margin: 6px 0 0; padding-left: 18px; font-size: 12px; max-width: 1100px; }
    .badge { font-size: 11px; padding: 1px 6px; border-radius: 8px; color: #fff; background: #888; }
    .badge.changed { background: #c0392b; } .badge.unchanged { background: #0a7d32; } .badge.error { background: #000; }
    .error { color: #c0392b; } .warning { color: var(--warn); font-size: 12px; }
    details.unchanged summary { font-size: 12px; color: var(--muted); cursor: pointer; }
    """#

  /// The page's script: the filter, read from and kept in the URL fragment, and the image count.
  static let script =
    HTMLPage.settleImagesScript + #"""
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
      """#
}
