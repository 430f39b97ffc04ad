/** Reading the parts of a tokenizer.json that `UnigramTokenizer.fromJson` accepts (unigram-tokenizer.ts). */

/** The added tokens, when all are special, unnormalised and without strip or single-word rules. */
export function addedTokens(value: unknown): Map<string, number> | undefined {
  if (!Array.isArray(value)) return undefined;
  const added = new Map<string, number>();
  for (const token of value) {
    if (!isRecord(token) || typeof token.content !== 'string' || typeof token.id !== 'number') return undefined;
    if (token.special !== true || token.normalized === true) return undefined;
    if (token.lstrip === true || token.rstrip === true || token.single_word === true) return undefined;
    added.set(token.content, token.id);
  }
  return added;
}

/** `TemplateProcessing`'s single template as ids around the text; undefined for other post-processors. */
export function singleTemplate(value: unknown, added: ReadonlyMap<string, number>): (number | null)[] | undefined {
  if (value === null) return [null];
  if (!isRecord(value) || value.type !== 'TemplateProcessing' || !Array.isArray(value.single)) return undefined;
  const template: (number | null)[] = [];
  for (const item of value.single as unknown[]) {
    if (!isRecord(item)) return undefined;
    if (isRecord(item.Sequence) && item.Sequence.id === 'A') template.push(null);
    else if (isRecord(item.SpecialToken) && typeof item.SpecialToken.id === 'string') {
      const id = added.get(item.SpecialToken.id);
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

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
