import { codedError } from '../errors.js';
import type { Kind } from './catalogue.js';

/**
 * The one set of value readers, for variables and flags alike: a value that does not read is one
 * line naming where it came from (the variable or the flag) and what it takes.
 */

/** A setting that cannot be used: one line naming the variable (or flag) and what it takes. */
export class SettingsError extends codedError('SettingsError', 'invalid_setting') {}

const TRUE = ['1', 'true', 'yes', 'on'];
const FALSE = ['0', 'false', 'no', 'off'];

type Reader<T> = (name: string, raw: string) => T;

const readers: { [K in Kind]: Reader<ValueOf<K>> } = {
  text: (_name, raw) => raw,
  whole: (name, raw) => {
    if (!/^\d+$/.test(raw)) throw new SettingsError(`${name} must be a whole number, got "${raw}"`);
    return Number(raw);
  },
  positive: (name, raw) => {
    const value = Number(raw);
    if (!Number.isFinite(value) || value <= 0)
      throw new SettingsError(`${name} must be a positive number, got "${raw}"`);
    return value;
  },
  boolean: (name, raw) => {
    const value = raw.toLowerCase();
    if (TRUE.includes(value)) return true;
    if (FALSE.includes(value)) return false;
    throw new SettingsError(`${name} must be 1 or 0 (true/false, yes/no, on/off), got "${raw}"`);
  },
  list: (_name, raw) =>
    raw
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean),
};

export type ValueOf<K extends Kind> = K extends 'whole' | 'positive'
  ? number
  : K extends 'boolean'
    ? boolean
    : K extends 'list'
      ? string[]
      : string;

/** A variable's value as `kind` reads it; undefined when it is unset or blank. */
export function readVariable<K extends Kind>(
  kind: K,
  name: string,
  env: Readonly<Record<string, string | undefined>>,
): ValueOf<K> | undefined {
  const raw = env[name]?.trim();
  return raw === undefined || raw === '' ? undefined : readers[kind](name, raw);
}

/**
 * A flag's value as `kind` reads it: commander hands over text (or, for a flag without a value,
 * `true`; for a repeatable one, each occurrence), read by the same rules as a variable.
 */
export function readFlag<K extends Kind>(kind: K, name: string, given: unknown): ValueOf<K> | undefined {
  if (given === undefined) return undefined;
  if (kind === 'boolean' && typeof given === 'boolean') return given as ValueOf<K>;
  if (kind === 'list' && Array.isArray(given))
    return given.flatMap((entry) => readers.list(name, String(entry))) as ValueOf<K>;
  const raw = String(given).trim();
  return raw === '' ? undefined : readers[kind](name, raw);
}
