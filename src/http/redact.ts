/**
 * Hiding secrets in a log line, in time linear in the line (no backtracking regex runs over what a
 * client sent): every appearance of a known secret (the static token), whether written as is,
 * JSON-escaped or percent-encoded in any mix of bytes and hex case, and anything shaped like a JWT
 * (three base64url parts, the first holding `eyJ`, i.e. `{"`: OAuth access tokens are not known in
 * advance), becomes `[redacted]`. Then (boundedLines) a line longer than MAX_LINE_CHARS is
 * shortened, its long string values first, so one request cannot write megabytes of log.
 */

const REDACTED = '[redacted]';
export const MAX_LINE_CHARS = 4096;
/** A string value of a long JSON line is cut to this many characters. */
const MAX_VALUE_CHARS = 512;

/**
 * The line as the bytes it stands for: a `%hh` escape or a JSON `\"`, `\\`, `\/` escape is one
 * character, and `from[i]` is where character i starts in the line. Characters beyond ASCII are 0:
 * secrets are visible ASCII and JWTs base64url, so they never match one.
 */
interface DecodedView {
  codes: Uint8Array;
  from: Int32Array;
  length: number;
}

function hexValue(code: number): number {
  if (code >= 48 && code <= 57) return code - 48;
  const lower = code | 0x20;
  return lower >= 97 && lower <= 102 ? lower - 87 : -1;
}

function decode(line: string): DecodedView {
  const codes = new Uint8Array(line.length);
  const from = new Int32Array(line.length + 1);
  let n = 0;
  for (let i = 0; i < line.length; n++) {
    from[n] = i;
    const c = line.charCodeAt(i);
    const hi = c === 37 ? hexValue(line.charCodeAt(i + 1)) : -1;
    const lo = hi >= 0 ? hexValue(line.charCodeAt(i + 2)) : -1;
    const next = line.charCodeAt(i + 1);
    if (lo >= 0) {
      codes[n] = hi * 16 + lo;
      i += 3;
    } else if (c === 92 && (next === 34 || next === 92 || next === 47)) {
      codes[n] = next;
      i += 2;
    } else {
      codes[n] = c < 128 ? c : 0;
      i += 1;
    }
  }
  from[n] = line.length;
  return { codes, from, length: n };
}

/** Marks every appearance of `secret` in the view (Knuth-Morris-Pratt: linear in both). */
function markSecret(view: DecodedView, secret: Uint8Array, marks: [number, number][]): void {
  const m = secret.length;
  if (m === 0) return;
  const fail = new Int32Array(m);
  for (let i = 1, k = 0; i < m; i++) {
    while (k > 0 && secret[i] !== secret[k]) k = fail[k - 1]!;
    if (secret[i] === secret[k]) k++;
    fail[i] = k;
  }
  for (let i = 0, k = 0; i < view.length; i++) {
    while (k > 0 && view.codes[i] !== secret[k]) k = fail[k - 1]!;
    if (view.codes[i] === secret[k]) k++;
    if (k === m) {
      marks.push([i - m + 1, i + 1]);
      k = 0;
    }
  }
}

function isBase64Url(code: number): boolean {
  return (code >= 48 && code <= 57) || ((code | 0x20) >= 97 && (code | 0x20) <= 122) || code === 45 || code === 95;
}

/** Where `eyJ` starts in view[start, end), or -1. */
function eyJAt(view: DecodedView, start: number, end: number): number {
  for (let i = start; i + 2 < end; i++)
    if (view.codes[i] === 101 && view.codes[i + 1] === 121 && view.codes[i + 2] === 74) return i;
  return -1;
}

function inRun(code: number): boolean {
  return isBase64Url(code) || code === 46;
}

/**
 * Marks JWT-shaped runs: within a run of base64url characters and dots, the first part holding
 * `eyJ` that two more parts follow, from `eyJ` to the end of the third part (what the regex
 * `eyJ[\w-]*\.[\w-]*\.[\w-]*` finds), looking at each character a bounded number of times.
 */
function markJwts(view: DecodedView, marks: [number, number][]): void {
  let i = 0;
  while (i < view.length) {
    if (!inRun(view.codes[i]!)) {
      i++;
      continue;
    }
    // The run's parts, [start, end) each, split at dots.
    const parts: [number, number][] = [];
    let start = i;
    for (; i < view.length && inRun(view.codes[i]!); i++) {
      if (view.codes[i] !== 46) continue;
      parts.push([start, i]);
      start = i + 1;
    }
    parts.push([start, i]);
    for (let p = 0; p + 2 < parts.length; p++) {
      const at = eyJAt(view, parts[p]![0], parts[p]![1]);
      if (at < 0) continue;
      marks.push([at, parts[p + 2]![1]]);
      p += 2;
    }
  }
}

/** The line with the marked view ranges replaced by REDACTED, overlapping ranges merged. */
function replaceMarks(line: string, view: DecodedView, marks: [number, number][]): string {
  marks.sort((x, y) => x[0] - y[0]);
  let out = '';
  let copied = 0;
  for (let m = 0; m < marks.length; ) {
    const a = marks[m]![0];
    let b = marks[m]![1];
    for (m++; m < marks.length && marks[m]![0] < b; m++) b = Math.max(b, marks[m]![1]);
    out += line.slice(copied, view.from[a]) + REDACTED;
    copied = view.from[b]!;
  }
  return out + line.slice(copied);
}

/** `line` with every secret and every JWT-shaped run replaced by `[redacted]`. */
export function redactSecrets(line: string, secrets: readonly string[] = []): string {
  const view = decode(line);
  const marks: [number, number][] = [];
  for (const secret of secrets) markSecret(view, Buffer.from(secret, 'latin1'), marks);
  markJwts(view, marks);
  return replaceMarks(line, view, marks);
}

function shorten(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…(${text.length - max} more characters)`;
}

/** A line within MAX_LINE_CHARS: a JSON line keeps its shape, its long string values cut. */
export function boundLine(line: string): string {
  if (line.length <= MAX_LINE_CHARS) return line;
  try {
    const cut = JSON.stringify(JSON.parse(line), (_key, value: unknown) =>
      typeof value === 'string' ? shorten(value, MAX_VALUE_CHARS) : value,
    );
    if (cut.length <= MAX_LINE_CHARS) return cut;
  } catch {
    // Not JSON: cut as text below.
  }
  return shorten(line, MAX_LINE_CHARS);
}

/** A sink that gets every line within MAX_LINE_CHARS (put it behind the redaction: a cut could split a secret). */
export function boundedLines(sink: (line: string) => void): (line: string) => void {
  return (line) => sink(boundLine(line));
}
