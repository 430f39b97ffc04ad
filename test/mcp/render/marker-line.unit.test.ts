import { describe, expect, it } from 'vitest';
import { markerLine } from '../../../src/mcp/render/marker-line.js';

/** Section marker lines (marker-line.ts): each headings array its own path, however often asked. */

describe('markerLine', () => {
  it('shows each headings array its own path, the same when asked again', () => {
    const a = ['Guide', 'Retries'];
    const b = ['Guide', 'Sync\nwindows'];
    const gap = { from: 1, to: 2 };
    expect(markerLine({ position: 3, headings: a }, true, gap)).toBe(
      '>>>>> BEST MATCH | section 4 | Guide > Retries (sections 2-3 not shown) <<<<<',
    );
    // The same array again, and another with as many headings: a title's line break never forges a line.
    expect(markerLine({ position: 3, headings: a }, false, gap)).toBe(
      '----- section 4 | Guide > Retries (sections 2-3 not shown) -----',
    );
    expect(markerLine({ position: 0, headings: b }, false, { from: 5, to: 5 })).toBe(
      '----- section 1 | Guide > Sync windows (section 6 not shown) -----',
    );
    expect(markerLine({ position: 0, headings: [] }, true, undefined)).toBe('>>>>> BEST MATCH | section 1 <<<<<');
  });
});
