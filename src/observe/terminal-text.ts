/**
 * Text that is safe to print on a terminal: control characters (C0 but tab, DEL, C1, which
 * includes the one-byte CSI), line and paragraph separators and the bidirectional overrides are
 * shown as `\u{…}` escapes. Client names, search terms and file names reach the operator's
 * terminal through `svc-docs report`, the pretty log and the build's lines; an escape sequence in
 * one could clear the screen, recolour it or hide a line (issue 40).
 */

const UNSAFE = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

export function terminalText(text: string): string {
  return text.replace(UNSAFE, (c) => `\\u{${c.charCodeAt(0).toString(16)}}`);
}

/** Each line of a multi-line text made safe, the line breaks kept. */
export function terminalLines(text: string): string {
  return text.split('\n').map(terminalText).join('\n');
}
