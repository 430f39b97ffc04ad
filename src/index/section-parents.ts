/**
 * Each section's parent: the nearest section before it in the same document whose heading path
 * is a proper prefix of its own, or −1 (a page's first section, or a section with no enclosing
 * heading). One pass with a stack of open sections per document. Written into sections.bin by
 * the indexer, so a server needs no section's headings to know its parent.
 */
export function parentSections(headings: readonly (readonly string[])[], sectionDoc: ArrayLike<number>): Int32Array {
  const parentOf = new Int32Array(headings.length).fill(-1);
  const open: number[] = [];
  for (let s = 0; s < headings.length; s++) {
    if (s > 0 && sectionDoc[s] !== sectionDoc[s - 1]) open.length = 0;
    const path = headings[s]!;
    while (open.length > 0) {
      const top = headings[open.at(-1)!]!;
      if (top.length < path.length && top.every((h, i) => path[i] === h)) break;
      open.pop();
    }
    if (open.length > 0) parentOf[s] = open.at(-1)!;
    open.push(s);
  }
  return parentOf;
}
