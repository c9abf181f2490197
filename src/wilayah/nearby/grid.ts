/**
 * The centroid grid `/nearby` reads (table `wilayah_point`, migrations/0014_wilayah_space.sql):
 * its cell sizes and numbering, shared by the seed (which builds it in SQL) and the query (which
 * walks it). Pure: scripts import this file directly.
 *
 * Cells are numbered `row * 10000 + column` from 12° S, 94° E (the reverse geocoder's origin),
 * with `row = floor((lat + 12) / size)`. Centroids sit in the fine cells of their level
 * (POINT_CELL); above them a pyramid: the cell of `res` r + 1 holds 4 x 4 cells of `res` r, up to
 * POINT_TOP, where Indonesia's whole box is one or two cells. Only occupied cells have a row.
 */
import type { Level } from "../codes.ts";

export const POINT_ORIGIN = { lat: -12, lng: 94 } as const;

/** Fine cell size per level (degrees): a few centroids per occupied cell. */
export const POINT_CELL: Record<Level, number> = { provinsi: 2, kabupaten: 0.5, kecamatan: 0.2, kelurahan: 0.05 };

/** Cells of one pyramid step per side. */
export const POINT_FANOUT = 4;

/** The top `res` per level: the first whose cell is at least 32° wide. */
export const POINT_TOP: Record<Level, number> = { provinsi: 2, kabupaten: 3, kecamatan: 4, kelurahan: 5 };
