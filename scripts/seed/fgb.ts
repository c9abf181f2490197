/**
 * A level's boundaries as FlatGeobuf (`<level>.fgb`, issue 53): the cloud-native file GIS tools open
 * by URL and read by HTTP range requests, only the part of the file their view needs. The features
 * and the header are encoded by the `flatgeobuf` package (its feature and geometry encoders and its
 * generated header tables); its `serialize` writes no spatial index, so the packed Hilbert R-tree is
 * built by `flatbush` (the index FlatGeobuf's is modelled on) and laid out as the format wants it:
 * root level first, 40-byte nodes (box as four float64, then a uint64: a leaf's byte offset into the
 * features, an inner node's first child), features in the tree's leaf order. GDAL (ogrinfo with a
 * bbox, test/gis) and flatgeobuf's own reader (scripts/seed/fgb.test.ts) read it through the index.
 *
 * Only regions with a boundary are in the file (the index needs a box); the others are in the CSV,
 * JSON and GeoJSON files.
 */
import { createHash } from "node:crypto";
import { closeSync, openSync, writeSync } from "node:fs";
import * as flatbuffers from "flatbuffers";
import Flatbush from "flatbush";
import { magicbytes } from "flatgeobuf/lib/mjs/constants.js";
import { Column } from "flatgeobuf/lib/mjs/flat-geobuf/column.js";
import { ColumnType } from "flatgeobuf/lib/mjs/flat-geobuf/column-type.js";
import { Crs } from "flatgeobuf/lib/mjs/flat-geobuf/crs.js";
import { GeometryType } from "flatgeobuf/lib/mjs/flat-geobuf/geometry-type.js";
import { Header } from "flatgeobuf/lib/mjs/flat-geobuf/header.js";
import { buildFeature } from "flatgeobuf/lib/mjs/generic/feature.js";
import { parseGeometry } from "flatgeobuf/lib/mjs/geojson/geometry.js";
import type { HeaderMeta } from "flatgeobuf/lib/mjs/header-meta.js";
import { calcTreeSize, NODE_ITEM_BYTE_LEN } from "flatgeobuf/lib/mjs/packedrtree.js";

/** Nodes per R-tree node: FlatGeobuf's default (GDAL writes 16 too). */
export const FGB_NODE_SIZE = 16;

export type FgbColumnType = "string" | "double" | "int" | "long";
const COLUMN_TYPES: Record<FgbColumnType, ColumnType> = {
  string: ColumnType.String,
  double: ColumnType.Double,
  int: ColumnType.Int,
  long: ColumnType.Long,
};

export type FgbFeature = {
  /** [minX, minY, maxX, maxY] of the geometry. */
  bbox: number[];
  geometry: { type: "MultiPolygon"; coordinates: number[][][][] };
  properties: Record<string, string | number | null>;
};

export type FgbLayer = {
  /** The layer's name (GDAL shows it): the level. */
  name: string;
  title: string;
  description: string;
  /** Free text (JSON here: the export id, data version and licence). */
  metadata: string;
  columns: { name: string; type: FgbColumnType }[];
};

/**
 * Writes `features` as a FlatGeobuf file with its spatial index, EPSG:4326 (longitude, latitude).
 * Returns the number of features, the file's size and SHA-256, as the other export files report them.
 */
export function writeFlatGeobuf(path: string, layer: FgbLayer, features: FgbFeature[]): { records: number; size: number; sha256: string } {
  if (features.length === 0) throw new Error(`FlatGeobuf ${layer.name}: no feature with a boundary`);
  const columns = layer.columns.map((c) => ({
    name: c.name,
    type: COLUMN_TYPES[c.type],
    title: null,
    description: null,
    width: -1,
    precision: -1,
    scale: -1,
    nullable: true,
    unique: false,
    primary_key: false,
  }));
  const meta: HeaderMeta = {
    geometryType: GeometryType.MultiPolygon,
    columns,
    envelope: null,
    featuresCount: features.length,
    indexNodeSize: FGB_NODE_SIZE,
    crs: null,
    title: null,
    description: null,
    metadata: null,
  };

  // The packed Hilbert R-tree over the features' boxes: flatbush sorts them (to node granularity)
  // and builds the levels bottom-up; `_indices` maps each leaf to its feature, each inner node to its first child.
  const tree = new Flatbush(features.length, FGB_NODE_SIZE);
  for (const f of features) tree.add(f.bbox[0], f.bbox[1], f.bbox[2], f.bbox[3]);
  tree.finish();
  const boxes = tree._boxes as Float64Array;
  const indices = tree._indices;
  const levelEnds = tree._levelBounds.map((b: number) => b / 4); // node counts at each level's end, leaves first
  const numNodes = levelEnds.at(-1) as number;
  if (calcTreeSize(features.length, FGB_NODE_SIZE) !== numNodes * NODE_ITEM_BYTE_LEN) throw new Error("FlatGeobuf: tree size disagrees with the format's");

  // Features in leaf order, each encoded once; a leaf's offset is its feature's byte offset in the data.
  const encoded: Uint8Array[] = [];
  const offsets: number[] = [];
  let dataSize = 0;
  for (let leaf = 0; leaf < features.length; leaf++) {
    const f = features[indices[leaf]];
    const bytes = buildFeature(parseGeometry(f.geometry), f.properties, meta);
    offsets.push(dataSize);
    encoded.push(bytes);
    dataSize += bytes.length;
  }

  // Flatbush's node i (level k, counted from the leaves) is FlatGeobuf's node `fgbIndex(i)`: levels root first.
  const levelStarts = [0, ...levelEnds.slice(0, -1)];
  const fgbLevelStart: number[] = [];
  for (let k = levelEnds.length - 1, start = 0; k >= 0; k--) {
    fgbLevelStart[k] = start;
    start += levelEnds[k] - levelStarts[k];
  }
  const fgbIndex = (i: number) => {
    const k = levelEnds.findIndex((end: number) => i < end);
    return fgbLevelStart[k] + (i - levelStarts[k]);
  };
  const index = new DataView(new ArrayBuffer(numNodes * NODE_ITEM_BYTE_LEN));
  for (let i = 0; i < numNodes; i++) {
    const at = fgbIndex(i) * NODE_ITEM_BYTE_LEN;
    for (let c = 0; c < 4; c++) index.setFloat64(at + c * 8, boxes[i * 4 + c], true);
    const offset = i < features.length ? offsets[i] : fgbIndex(indices[i] >> 2);
    index.setBigUint64(at + 32, BigInt(offset), true);
  }

  const root = numNodes - 1;
  const envelope = [boxes[root * 4], boxes[root * 4 + 1], boxes[root * 4 + 2], boxes[root * 4 + 3]];
  const header = buildHeader(layer, columns, features.length, envelope);

  const hash = createHash("sha256");
  const fd = openSync(path, "w");
  let size = 0;
  const write = (bytes: Uint8Array) => {
    writeSync(fd, bytes);
    hash.update(bytes);
    size += bytes.length;
  };
  try {
    write(magicbytes);
    write(header);
    write(new Uint8Array(index.buffer));
    for (const bytes of encoded) write(bytes);
  } finally {
    closeSync(fd);
  }
  return { records: features.length, size, sha256: hash.digest("hex") };
}

/** The header table (size-prefixed), as flatgeobuf's buildHeader writes it, with the index node size, the envelope, the CRS and the layer's texts. */
function buildHeader(layer: FgbLayer, columns: NonNullable<HeaderMeta["columns"]>, count: number, envelope: number[]): Uint8Array {
  const builder = new flatbuffers.Builder(4096);
  const columnOffsets = columns.map((c) => {
    const name = builder.createString(c.name);
    Column.startColumn(builder);
    Column.addName(builder, name);
    Column.addType(builder, c.type);
    return Column.endColumn(builder);
  });
  const columnsVector = Header.createColumnsVector(builder, columnOffsets);
  const name = builder.createString(layer.name);
  const title = builder.createString(layer.title);
  const description = builder.createString(layer.description);
  const metadata = builder.createString(layer.metadata);
  const org = builder.createString("EPSG");
  Crs.startCrs(builder);
  Crs.addOrg(builder, org);
  Crs.addCode(builder, 4326);
  const crs = Crs.endCrs(builder);
  const envelopeVector = Header.createEnvelopeVector(builder, envelope);
  Header.startHeader(builder);
  Header.addName(builder, name);
  Header.addEnvelope(builder, envelopeVector);
  Header.addGeometryType(builder, GeometryType.MultiPolygon);
  Header.addColumns(builder, columnsVector);
  Header.addFeaturesCount(builder, BigInt(count));
  Header.addIndexNodeSize(builder, FGB_NODE_SIZE);
  Header.addCrs(builder, crs);
  Header.addTitle(builder, title);
  Header.addDescription(builder, description);
  Header.addMetadata(builder, metadata);
  builder.finishSizePrefixed(Header.endHeader(builder));
  return builder.asUint8Array();
}
