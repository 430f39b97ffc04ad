import { InvalidArgumentError } from 'commander';

/** Commander parsers for flag values: a wrong value is refused with what is expected. */

export function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('expected a positive whole number');
  return n;
}

const AGE = /^(\d+)([mhdw])$/;
const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 } as const;

/** An age in milliseconds, such as 30m, 12h, 7d or 2w; `all` is infinite. */
export function age(value: string): number {
  if (value.trim().toLowerCase() === 'all') return Number.POSITIVE_INFINITY;
  const match = AGE.exec(value.trim());
  if (match === null) throw new InvalidArgumentError('expected an age such as 30m, 12h, 7d or 2w, or all');
  return Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
}
