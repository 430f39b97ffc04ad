/**
 * HTML built safely by default: every value put into an `html` template is escaped, unless it is
 * itself built by `html` (or is sanitised output marked with `trustedHtml`). Arrays are joined.
 */

export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

function piece(value: unknown): string {
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return value.map(piece).join('');
  if (value === undefined || value === null || value === false) return '';
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let text = strings[0]!;
  values.forEach((value, i) => {
    text += piece(value) + strings[i + 1]!;
  });
  return new Html(text);
}

/** Markup that is already safe: only for the sanitiser's output (markdown-html.ts). */
export function trustedHtml(text: string): Html {
  return new Html(text);
}

/** An ISO time as people read it: `2026-11-27 18:34 UTC`. */
export function when(iso: string): string {
  return `${iso.slice(0, 16).replace('T', ' ')} UTC`;
}
