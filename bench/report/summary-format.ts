/** How the summaries write numbers and tables (bench/results/*.md). */

export const f = (x: number, digits = 3) => x.toFixed(digits);
export const ms = (x: number) => (x < 10 ? x.toFixed(2) : x.toFixed(1));
export const mb = (x: number) => x.toFixed(0);
export const signedMs = (x: number) => `${x < 0 ? '−' : '+'}${ms(Math.abs(x))}`;

/** A Markdown table's header row and separator. */
export function tableHead(columns: string[]): string[] {
  return [`| ${columns.join(' | ')} |`, `|${columns.map(() => '---').join('|')}|`];
}
