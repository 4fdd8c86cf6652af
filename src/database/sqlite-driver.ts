// Which better-sqlite3 runs the SQLite database. The 13.x line (Node-API, prebuilt) is the
// driver on Node.js 22 and newer. It cannot load on Node 20, which is past its end of life
// but still the system Node of some machines: there the 12.x line, installed as the
// optional package better-sqlite3-node20, takes its place. 12.x must not be used on newer
// Node: on Node 24.19+ its statements abort the process when garbage-collected.
import { createRequire } from 'node:module';

export const NODE_MAJOR = Number(process.versions.node.split('.')[0]);

/** The module to hand TypeORM, or undefined for its default `better-sqlite3`. */
export function sqliteDriverModule(major = NODE_MAJOR): unknown {
  if (major >= 22) return undefined;
  return createRequire(import.meta.url)('better-sqlite3-node20');
}
