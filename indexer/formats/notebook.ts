import { z } from 'zod';
import { jsonOr } from '../../src/record.js';
import { type ConvertedDocument, FormatError } from './converted.js';

/**
 * A Jupyter notebook (nbformat 4, JSON) → Markdown: Markdown cells as they are, code cells as
 * fenced code blocks in the kernel's language, in order. Outputs are left out (they are results
 * of one run, often images or long tables, not documentation), and so are raw cells (text for a
 * converter, in whatever format it targets).
 */

const source = z.union([z.string(), z.array(z.string())]);
const notebookSchema = z.object({
  nbformat: z.number().int().min(4),
  metadata: z
    .object({
      kernelspec: z.object({ language: z.string().optional() }).optional(),
      language_info: z.object({ name: z.string().optional() }).optional(),
    })
    .optional(),
  cells: z.array(z.object({ cell_type: z.string(), source })),
});

export function notebookToMarkdown(text: string): ConvertedDocument {
  const parsed = notebookSchema.safeParse(jsonOr(text, () => new FormatError('its text is not JSON')));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.join('.') || 'the file';
    throw new FormatError(`it is not of nbformat 4 or later (${where}: ${issue?.message ?? 'invalid'})`);
  }
  const { metadata, cells } = parsed.data;
  const language = metadata?.kernelspec?.language ?? metadata?.language_info?.name ?? '';
  const blocks = cells.flatMap((cell) => {
    const text = typeof cell.source === 'string' ? cell.source : cell.source.join('');
    if (text.trim() === '') return [];
    if (cell.cell_type === 'markdown') return [text.trim()];
    if (cell.cell_type === 'code') return [fenced(text.replace(/\s+$/, ''), language)];
    return [];
  });
  return { title: undefined, markdown: blocks.length === 0 ? '' : `${blocks.join('\n\n')}\n` };
}

/** A fence longer than any run of backticks in the code, so the code cannot close it. */
function fenced(code: string, language: string): string {
  const longest = Math.max(0, ...[...code.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}${language.replace(/[\s`]/g, '')}\n${code}\n${fence}`;
}
