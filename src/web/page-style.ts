import { createHash } from 'node:crypto';

/**
 * The page's one stylesheet, inline, and the Content-Security-Policy that allows exactly it: no
 * script of any kind (the page needs none), no other style, images only from this server, forms
 * posting only here, and no framing.
 */

export const PAGE_CSS = `
:root { color-scheme: light dark; --fg: #1d1d1f; --muted: #5f6368; --line: #d0d4da; --best: #fff4c2; --bg: #fff; --code: #f3f4f6; }
@media (prefers-color-scheme: dark) { :root { --fg: #e8e8ea; --muted: #a0a4ab; --line: #3a3d42; --best: #4a3f12; --bg: #16171a; --code: #23252a; } }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, sans-serif; color: var(--fg); background: var(--bg); }
main { max-width: 76rem; margin: 0 auto; padding: 1rem; }
header h1 { font-size: 1.3rem; margin: 0 0 .5rem; }
header p, .meta, .note { color: var(--muted); font-size: .9rem; margin: .25rem 0; }
form.search { display: flex; flex-wrap: wrap; gap: .5rem; margin: .75rem 0 1rem; }
form.search input { flex: 1 1 14rem; min-width: 0; font: inherit; padding: .55rem .7rem; border: 1px solid var(--line); border-radius: .4rem; background: var(--bg); color: var(--fg); }
form.search button { font: inherit; padding: .55rem 1rem; border-radius: .4rem; border: 1px solid var(--line); cursor: pointer; }
h2 { font-size: 1.15rem; border-bottom: 1px solid var(--line); padding-bottom: .25rem; margin-top: 2rem; }
h3 { font-size: 1.05rem; margin: 1.25rem 0 .25rem; }
.result h3 { margin-top: 0; }
pre, code { font-family: ui-monospace, monospace; font-size: .85rem; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; background: var(--code); padding: .75rem; border-radius: .4rem; }
.result { border: 1px solid var(--line); border-radius: .5rem; padding: .75rem; margin: 1rem 0; overflow-wrap: anywhere; }
.label { font-weight: 600; }
.doc-section { border-left: 3px solid var(--line); padding: .1rem .75rem; margin: .5rem 0; }
.doc-section.best { border-left-color: #d4a200; background: var(--best); }
.doc-section h1 { font-size: 1.3rem; margin: .4rem 0; }
.doc-section h2 { font-size: 1.12rem; border: 0; margin: .4rem 0; padding: 0; }
.doc-section h3, .doc-section h4, .doc-section h5, .doc-section h6 { font-size: 1rem; margin: .4rem 0; }
.section-tag { font-size: .8rem; color: var(--muted); margin: .25rem 0; }
details.left-out { color: var(--muted); font-size: .9rem; margin: .5rem 0; }
.not-covered { border: 1px solid #d97706; border-radius: .4rem; padding: .5rem .75rem; }
table { border-collapse: collapse; width: 100%; font-size: .9rem; }
th, td { text-align: left; padding: .3rem .4rem; border-bottom: 1px solid var(--line); vertical-align: top; }
td.n, th.n { text-align: right; white-space: nowrap; }
.table-wrap { overflow-x: auto; }
img { max-width: 100%; }
.model pre { margin: 0; }
@media (min-width: 64rem) {
  .answer { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 1.5rem; align-items: start; }
  .model { position: sticky; top: .5rem; }
  .model pre { max-height: calc(100vh - 6rem); overflow: auto; }
}
`;

const CSS_HASH = createHash('sha256').update(PAGE_CSS).digest('base64');

export const PAGE_CSP = [
  "default-src 'none'",
  `style-src 'sha256-${CSS_HASH}'`,
  "img-src 'self' data:",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Headers of every page response: the policy, and nothing cached, sniffed or referred. */
export const PAGE_HEADERS = {
  'Content-Type': 'text/html; charset=utf-8',
  'Content-Security-Policy': PAGE_CSP,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Cache-Control': 'no-store',
} as const;
