import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

/** Where the table's float32 values (little-endian, row-major) sit in the model's vectors file. */
export interface TableLocation {
  /** Byte offset of the first value in the file. */
  offset: number;
  rows: number;
  dimensions: number;
}

/** The rows a text's pooling adds up: held in memory, or read from the file when asked for. */
export interface TableRows {
  readonly rows: number;
  readonly dimensions: number;
  /** Adds row `id` (float32 values, widened) into `sums`, value by value. */
  addRow(id: number, sums: Float64Array): void;
  close(): void;
}

export function memoryRows(table: Float32Array, rows: number, dimensions: number): TableRows {
  return {
    rows,
    dimensions,
    addRow(id, sums) {
      const row = id * dimensions;
      for (let k = 0; k < dimensions; k++) sums[k]! += table[row + k]!;
    },
    close() {},
  };
}

/**
 * The table read whole from its place in the file. Its little-endian floats are viewed as they
 * are: svc-docs runs on little-endian machines only (src/index/columns.ts refuses others).
 */
export function readTableAt(path: string, at: TableLocation): Float32Array {
  const table = new Float32Array(at.rows * at.dimensions);
  const bytes = new Uint8Array(table.buffer);
  const fd = openSync(path, 'r');
  try {
    readFully(fd, bytes, at.offset);
  } finally {
    closeSync(fd);
  }
  return table;
}

/**
 * Rows read from the file as a text needs them, one read of a few hundred bytes per token: the
 * server embeds only queries, and this keeps the 60 MB table in the page cache, shared and
 * evictable, instead of in its own memory.
 */
export function fileRows(path: string, at: TableLocation): TableRows {
  const { rows, dimensions, offset } = at;
  const fd = openSync(path, 'r');
  const rowBytes = dimensions * 4;
  if (fstatSync(fd).size < offset + rows * rowBytes) {
    closeSync(fd);
    throw new Error(`${path} is shorter than its ${rows} × ${dimensions} table`);
  }
  const row = new Float32Array(dimensions);
  const bytes = new Uint8Array(row.buffer);
  let open = true;
  return {
    rows,
    dimensions,
    addRow(id, sums) {
      readFully(fd, bytes, offset + id * rowBytes);
      for (let k = 0; k < dimensions; k++) sums[k]! += row[k]!;
    },
    close() {
      // Once only: the number may belong to another file by a second close.
      if (open) closeSync(fd);
      open = false;
    },
  };
}

function readFully(fd: number, into: Uint8Array, position: number): void {
  let done = 0;
  while (done < into.length) {
    const n = readSync(fd, into, done, into.length - done, position + done);
    if (n === 0) throw new Error('the model file ended inside its embedding table');
    done += n;
  }
}
