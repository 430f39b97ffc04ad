/**
 * Whether a saved HNSW graph file is whole, from its bytes alone. hnswlib neither reports a failed
 * write (a full disk or a file size limit leaves a truncated file, and its save still succeeds)
 * nor syncs. Loading the graph back proved it whole but cost a one-file reindex a tenth of its
 * time; this walks the same structure hnswlib's own load checks before it reads anything
 * (hnswalg.h, saveIndex/loadIndex): a fixed header, one fixed-size record per element, then each
 * element's upper-level link list behind its byte count; the file must end exactly there.
 */

/**
 * The header's size and the offsets of the fields read here. Its fields, in order: offsetLevel0,
 * max_elements, cur_element_count, size_data_per_element, label_offset, offsetData (size_t),
 * maxlevel (int), enterpoint_node (u32), maxM, maxM0, M (size_t), mult (double), ef_construction
 * (size_t); size_t is 8 bytes on every 64-bit platform hnswlib-node builds for.
 */
const HEADER_BYTES = 6 * 8 + 4 + 4 + 3 * 8 + 8 + 8;
const ELEMENT_COUNT_AT = 2 * 8;
const ELEMENT_BYTES_AT = 3 * 8;
const MAX_M0_AT = 6 * 8 + 4 + 4 + 8;

/** What is wrong with the file, or undefined when it is whole and holds `slots` elements of `dims` floats. */
export function hnswFileProblem(bytes: Uint8Array, dims: number, slots: number): string | undefined {
  if (bytes.byteLength < HEADER_BYTES) return `it is ${bytes.byteLength} bytes, shorter than its header`;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const size = (at: number) => Number(view.getBigUint64(at, true));
  const count = size(ELEMENT_COUNT_AT);
  const perElement = size(ELEMENT_BYTES_AT);
  if (count !== slots) return `it holds ${count} elements where ${slots} were saved`;
  // Each level-0 record: its link count and links (u32 each), the vector, the label (size_t).
  const expected = 4 + size(MAX_M0_AT) * 4 + dims * 4 + 8;
  if (perElement !== expected) return `its elements are ${perElement} bytes where ${expected} are expected`;
  let at = HEADER_BYTES + count * perElement;
  for (let i = 0; i < count; i++) {
    if (at + 4 > bytes.byteLength) return `it ends inside element ${i}'s link lists`;
    at += 4 + view.getUint32(at, true);
  }
  return at !== bytes.byteLength ? `it is ${bytes.byteLength} bytes where its structure takes ${at}` : undefined;
}
