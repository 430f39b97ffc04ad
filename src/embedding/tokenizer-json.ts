import { record } from '../record.js';

/** Reading the parts of a tokenizer.json that `UnigramTokenizer.fromJson` accepts (unigram-tokenizer.ts). */

/** The added tokens, when all are special, unnormalised and without strip or single-word rules. */
export function addedTokens(value: unknown): Map<string, number> | undefined {
  if (!Array.isArray(value)) return undefined;
  const added = new Map<string, number>();
  for (const item of value) {
    const token = record(item);
    if (typeof token?.content !== 'string' || typeof token.id !== 'number') return undefined;
    if (token.special !== true || token.normalized === true) return undefined;
    if (token.lstrip === true || token.rstrip === true || token.single_word === true) return undefined;
    added.set(token.content, token.id);
  }
  return added;
}

/** `TemplateProcessing`'s single template as ids around the text; undefined for other post-processors. */
export function singleTemplate(value: unknown, added: ReadonlyMap<string, number>): (number | null)[] | undefined {
  if (value === null) return [null];
  const processor = record(value);
  if (processor?.type !== 'TemplateProcessing' || !Array.isArray(processor.single)) return undefined;
  const template: (number | null)[] = [];
  for (const item of processor.single as unknown[]) {
    const special = record(record(item)?.SpecialToken)?.id;
    if (record(record(item)?.Sequence)?.id === 'A') template.push(null);
    else if (typeof special === 'string') {
      const id = added.get(special);
      if (id === undefined) return undefined;
      template.push(id);
    } else return undefined;
  }
  return template;
}

/** Any normaliser or pre-tokeniser config, run through the library's own Sequence of one. */
export function sequenceOf(config: unknown): unknown {
  return { type: 'Sequence', normalizers: [config] };
}

export function preSequenceOf(config: unknown): unknown {
  return { type: 'Sequence', pretokenizers: [config] };
}
