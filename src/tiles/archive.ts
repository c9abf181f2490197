/**
 * PMTiles version 3 (https://github.com/protomaps/PMTiles/blob/main/spec/v3/spec.md), both ways:
 * the seed side writes the archive (scripts/seed/tiles.ts: no maintained npm package writes one;
 * `pmtiles` only reads), the Worker reads tiles out of it by byte ranges (./service.ts). Written
 * from the specification; src/tiles/archive.test.ts reads our archives back with the `pmtiles`
 * package's reader, so the two agree. Pure functions on bytes, no I/O: Node scripts import this
 * file directly.
 *
 * Our archives use no internal compression (directories and metadata are stored as they are: the
 * Worker then reads a directory without decompressing it, and the root fits the first 16 KB
 * anyway), gzip for the tiles (served as they are stored, with content-encoding gzip).
 */

export const HEADER_BYTES = 127;
/** The header and the root directory fit in the first 16 KB: one read opens the archive. */
export const ROOT_BYTES = 16_384;

export const COMPRESSION = { unknown: 0, none: 1, gzip: 2, brotli: 3, zstd: 4 } as const;
export const TILE_TYPE = { unknown: 0, mvt: 1 } as const;

export type Header = {
  rootOffset: number;
  rootLength: number;
  metadataOffset: number;
  metadataLength: number;
  leavesOffset: number;
  leavesLength: number;
  tileDataOffset: number;
  tileDataLength: number;
  addressedTiles: number;
  tileEntries: number;
  tileContents: number;
  clustered: boolean;
  internalCompression: number;
  tileCompression: number;
  tileType: number;
  minZoom: number;
  maxZoom: number;
  /** [west, south, east, north] in degrees. */
  bounds: [number, number, number, number];
  center: [number, number, number];
};

/** A directory entry: a run of `runLength` tiles from `tileId` sharing one content; runLength 0 points to a leaf directory. */
export type Entry = { tileId: number; offset: number; length: number; runLength: number };

// ---------------------------------------------------------------- tile ids (Hilbert curve, per zoom)

/** Tiles of the zooms below z: 4^0 + ... + 4^(z-1). */
const tilesBefore = (z: number) => ((4 ** z - 1) / 3) | 0;

/** A tile's id: the tiles of lower zooms, then its position on the zoom's Hilbert curve. */
export function zxyToTileId(z: number, x: number, y: number): number {
  const n = 2 ** z;
  let d = 0;
  let tx = x;
  let ty = y;
  for (let s = n / 2; s >= 1; s /= 2) {
    const rx = (tx & s) > 0 ? 1 : 0;
    const ry = (ty & s) > 0 ? 1 : 0;
    d += s * s * ((3 * rx) ^ ry);
    if (ry === 0) {
      if (rx === 1) {
        tx = s - 1 - tx;
        ty = s - 1 - ty;
      }
      [tx, ty] = [ty, tx];
    }
  }
  return tilesBefore(z) + d;
}

// ---------------------------------------------------------------- varints (unsigned LEB128, up to 2^53)

function writeVarint(out: number[], value: number): void {
  let v = value;
  while (v >= 0x80) {
    out.push((v % 0x80) | 0x80);
    v = Math.floor(v / 0x80);
  }
  out.push(v);
}

function readVarint(bytes: Uint8Array, at: { pos: number }): number {
  let value = 0;
  let scale = 1;
  for (;;) {
    const b = bytes[at.pos++];
    if (b === undefined) throw new Error("PMTiles: directory ends inside a varint");
    value += (b & 0x7f) * scale;
    if (b < 0x80) return value;
    scale *= 0x80;
  }
}

// ---------------------------------------------------------------- directories

/** A directory as the specification lays it out: count, then id deltas, run lengths, lengths, offsets (0 = right after the previous). */
export function encodeDirectory(entries: readonly Entry[]): Uint8Array {
  const out: number[] = [];
  writeVarint(out, entries.length);
  let last = 0;
  for (const e of entries) {
    writeVarint(out, e.tileId - last);
    last = e.tileId;
  }
  for (const e of entries) writeVarint(out, e.runLength);
  for (const e of entries) writeVarint(out, e.length);
  entries.forEach((e, i) => {
    const prev = entries[i - 1];
    writeVarint(out, i > 0 && prev && e.offset === prev.offset + prev.length ? 0 : e.offset + 1);
  });
  return Uint8Array.from(out);
}

export function decodeDirectory(bytes: Uint8Array): Entry[] {
  const at = { pos: 0 };
  const n = readVarint(bytes, at);
  const entries: Entry[] = [];
  let id = 0;
  for (let i = 0; i < n; i++) {
    id += readVarint(bytes, at);
    entries.push({ tileId: id, offset: 0, length: 0, runLength: 1 });
  }
  for (const e of entries) e.runLength = readVarint(bytes, at);
  for (const e of entries) e.length = readVarint(bytes, at);
  entries.forEach((e, i) => {
    const v = readVarint(bytes, at);
    const prev = entries[i - 1];
    e.offset = v === 0 && i > 0 && prev ? prev.offset + prev.length : v - 1;
  });
  return entries;
}

/**
 * The entry holding a tile id, or null: the last entry at or before it, if its run covers the id
 * (a leaf pointer, runLength 0, covers every id up to the next entry).
 */
export function findEntry(entries: readonly Entry[], tileId: number): Entry | null {
  let lo = 0;
  let hi = entries.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const e = entries[mid];
    if (e.tileId === tileId) return e;
    if (e.tileId < tileId) lo = mid + 1;
    else hi = mid - 1;
  }
  const e = entries[hi];
  if (!e) return null;
  if (e.runLength === 0) return e;
  return tileId - e.tileId < e.runLength ? e : null;
}

// ---------------------------------------------------------------- header

export function encodeHeader(h: Header): Uint8Array {
  const bytes = new Uint8Array(HEADER_BYTES);
  const view = new DataView(bytes.buffer);
  bytes.set(new TextEncoder().encode("PMTiles"), 0);
  bytes[7] = 3;
  const u64 = (at: number, v: number) => view.setBigUint64(at, BigInt(v), true);
  u64(8, h.rootOffset);
  u64(16, h.rootLength);
  u64(24, h.metadataOffset);
  u64(32, h.metadataLength);
  u64(40, h.leavesOffset);
  u64(48, h.leavesLength);
  u64(56, h.tileDataOffset);
  u64(64, h.tileDataLength);
  u64(72, h.addressedTiles);
  u64(80, h.tileEntries);
  u64(88, h.tileContents);
  bytes[96] = h.clustered ? 1 : 0;
  bytes[97] = h.internalCompression;
  bytes[98] = h.tileCompression;
  bytes[99] = h.tileType;
  bytes[100] = h.minZoom;
  bytes[101] = h.maxZoom;
  const e7 = (at: number, v: number) => view.setInt32(at, Math.round(v * 1e7), true);
  e7(102, h.bounds[0]);
  e7(106, h.bounds[1]);
  e7(110, h.bounds[2]);
  e7(114, h.bounds[3]);
  bytes[118] = h.center[2];
  e7(119, h.center[0]);
  e7(123, h.center[1]);
  return bytes;
}

export function decodeHeader(bytes: Uint8Array): Header {
  if (bytes.length < HEADER_BYTES || new TextDecoder().decode(bytes.subarray(0, 7)) !== "PMTiles" || bytes[7] !== 3) {
    throw new Error("PMTiles: not a version 3 archive");
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const u64 = (at: number) => Number(view.getBigUint64(at, true));
  const e7 = (at: number) => view.getInt32(at, true) / 1e7;
  return {
    rootOffset: u64(8),
    rootLength: u64(16),
    metadataOffset: u64(24),
    metadataLength: u64(32),
    leavesOffset: u64(40),
    leavesLength: u64(48),
    tileDataOffset: u64(56),
    tileDataLength: u64(64),
    addressedTiles: u64(72),
    tileEntries: u64(80),
    tileContents: u64(88),
    clustered: bytes[96] === 1,
    internalCompression: bytes[97],
    tileCompression: bytes[98],
    tileType: bytes[99],
    minZoom: bytes[100],
    maxZoom: bytes[101],
    bounds: [e7(102), e7(106), e7(110), e7(114)],
    center: [e7(119), e7(123), bytes[118]],
  };
}

// ---------------------------------------------------------------- writing a whole archive

/** One tile to write: its id and its stored (already compressed) bytes. */
export type TileBytes = { tileId: number; data: Uint8Array; hash: string };

/**
 * Lays out an archive: header, root directory, metadata, leaf directories, tile data (clustered:
 * tiles in id order, identical contents stored once, consecutive identical tiles as one run). The
 * root directory is split into leaves when it would not fit the first 16 KB.
 */
export function layoutArchive(
  tiles: readonly TileBytes[],
  metadata: unknown,
  header: Pick<Header, "minZoom" | "maxZoom" | "bounds" | "center" | "tileCompression" | "tileType">,
): Uint8Array[] {
  const sorted = [...tiles].sort((a, b) => a.tileId - b.tileId);
  const entries: Entry[] = [];
  const data: Uint8Array[] = [];
  const stored = new Map<string, { offset: number; length: number }>();
  let dataLength = 0;
  for (const t of sorted) {
    const last = entries[entries.length - 1];
    const known = stored.get(t.hash);
    if (last && known && last.offset === known.offset && last.tileId + last.runLength === t.tileId) {
      last.runLength++;
      continue;
    }
    let at = known;
    if (!at) {
      at = { offset: dataLength, length: t.data.length };
      stored.set(t.hash, at);
      data.push(t.data);
      dataLength += t.data.length;
    }
    entries.push({ tileId: t.tileId, offset: at.offset, length: at.length, runLength: 1 });
  }

  let root: Uint8Array = encodeDirectory(entries);
  let leaves: Uint8Array = new Uint8Array(0);
  // Leaves of 4,096 entries (doubled until the root of leaf pointers fits).
  for (let size = 4096; HEADER_BYTES + root.length > ROOT_BYTES; size *= 2) {
    const pointers: Entry[] = [];
    const parts: Uint8Array[] = [];
    let offset = 0;
    for (let i = 0; i < entries.length; i += size) {
      const leaf = encodeDirectory(entries.slice(i, i + size));
      pointers.push({ tileId: entries[i].tileId, offset, length: leaf.length, runLength: 0 });
      parts.push(leaf);
      offset += leaf.length;
    }
    root = encodeDirectory(pointers);
    leaves = concat(parts);
  }
  const meta = new TextEncoder().encode(JSON.stringify(metadata));
  const rootOffset = HEADER_BYTES;
  const metadataOffset = rootOffset + root.length;
  const leavesOffset = metadataOffset + meta.length;
  const tileDataOffset = leavesOffset + leaves.length;
  const head = encodeHeader({
    ...header,
    rootOffset,
    rootLength: root.length,
    metadataOffset,
    metadataLength: meta.length,
    leavesOffset,
    leavesLength: leaves.length,
    tileDataOffset,
    tileDataLength: dataLength,
    addressedTiles: sorted.length,
    tileEntries: entries.length,
    tileContents: data.length,
    clustered: true,
    internalCompression: COMPRESSION.none,
  });
  return [head, root, meta, leaves, ...data];
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
