import * as fs from 'fs';
import * as path from 'path';

const PACKAGE_NAME = 'armada-cdk';

let cachedRoot: string | undefined;

/**
 * The directory of this package's own `package.json`.
 *
 * The same code runs compiled (`lib/src/importer/load/*.js`) and from the TypeScript sources
 * (under jest, ts-node), at different depths, so the root is found by walking up instead of by a
 * fixed `../..`. Only a `package.json` named `armada-cdk` counts, so that a nested package (or the
 * user's own project, when we are installed in its `node_modules`) is never taken for ours.
 *
 * @param from where to start walking up.
 * @default from - the directory of this module
 * @throws Error when no such directory exists above `from` (a broken installation, not a user mistake).
 */
export function findPackageRoot(from: string = __dirname): string {
  if (from === __dirname && cachedRoot !== undefined) return cachedRoot;
  let dir = path.resolve(from);
  for (;;) {
    const manifest = path.join(dir, 'package.json');
    if (isOurManifest(manifest)) {
      if (from === __dirname) cachedRoot = dir;
      return dir;
    }
    const parent = path.dirname(dir);
    if (parent === dir) {
      throw new Error(`${PACKAGE_NAME}: cannot find the package root (a package.json named "${PACKAGE_NAME}") above ${from}`);
    }
    dir = parent;
  }
}

function isOurManifest(file: string): boolean {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return false;
  }
  try {
    return (JSON.parse(text) as { name?: unknown }).name === PACKAGE_NAME;
  } catch {
    return false;
  }
}

/** The directory holding Armada's six bundled JSON schemas (`<package root>/schemas/armada`). */
export function armadaSchemaDir(): string {
  return path.join(findPackageRoot(), 'schemas', 'armada');
}
