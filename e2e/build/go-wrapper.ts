/**
 * Builds the engines' Go commands (Pulumi, its Kubernetes provider, Flux's controllers, Helmfile)
 * from their upstream modules through the module proxy, by module name. `go install module@version`
 * refuses a module whose go.mod has `replace` directives, and each of these has some: a wrapper
 * module, written into the cache directory at build time, requires the upstream module at its
 * release and mirrors its replaces (a sibling folder replaced by a path becomes the same module at
 * its published version), so that the build resolves the module graph upstream's own build does.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { execFileSync } from 'node:child_process';
import { cacheEntry, runTool } from './cache';
import type { GoComponent } from './go-components';

/** How one engine is built. */
export interface WrapperRecipe {
  /** The cache directory's name before the version. */
  readonly component: string;
  /** The version in the cache directory's name (the release, without `v`). */
  readonly version: string;
  /** Module → version, each pinned with `go get module@version` (never `go get package`, which upgrades). */
  readonly requires: Readonly<Record<string, string>>;
  /** Module → `module version` it is replaced with, mirrored from upstream's go.mod. */
  readonly replaces?: Readonly<Record<string, string>> | undefined;
  /** Binary name → package built into it; a `./` package is a folder that `prepare` fills. */
  readonly binaries: Readonly<Record<string, string>>;
  /**
   * Linker flags besides `-s -w`, such as the `-X` that stamps the version a release build reports.
   * @default - none
   */
  readonly ldflags?: string | undefined;
  /**
   * Runs in the wrapper module once its dependencies are downloaded and before the build: for a
   * generate step of upstream's own (files its release build makes and its module does not ship).
   * @default - nothing
   */
  readonly prepare?: ((src: string, env: NodeJS.ProcessEnv, logFile: string) => Promise<void>) | undefined;
  /**
   * Where the binaries go, relative to the cache directory: a Helm plugin's binary lives inside its
   * plugin folder.
   * @default 'bin'
   */
  readonly binDir?: string | undefined;
  /**
   * Whatever else `prepare` makes that the build must be redone for when it changes (named texts).
   * @default - nothing
   */
  readonly stamp?: Readonly<Record<string, string>> | undefined;
}

/**
 * The environment of every engine build: no cgo (static binaries that run on any Linux, as the
 * upstream releases are built), no toolchain download, and the wrapper's go.mod kept up to date.
 */
export function wrapperEnv(): NodeJS.ProcessEnv {
  return { ...process.env, CGO_ENABLED: '0', GOFLAGS: '-mod=mod', GOTOOLCHAIN: 'local' };
}

function goVersion(): string {
  return execFileSync('go', ['env', 'GOVERSION'], { encoding: 'utf8' }).trim();
}

/** The wrapper module's go.mod text. */
export function wrapperGoMod(recipe: WrapperRecipe): string {
  const replaces = Object.entries(recipe.replaces ?? {});
  return [
    `module armada-cdk-e2e/build/${recipe.component}`,
    '',
    'go 1.25',
    '',
    'require (',
    ...Object.entries(recipe.requires).map(([m, v]) => `\t${m} ${v}`),
    ')',
    '',
    ...(replaces.length > 0 ? ['replace (', ...replaces.map(([m, to]) => `\t${m} => ${to}`), ')', ''] : []),
  ].join('\n');
}

/** A {@link GoComponent} built through a wrapper module. */
export function wrapperComponent(recipe: WrapperRecipe): GoComponent {
  const ldflags = ['-s', '-w', ...(recipe.ldflags ? [recipe.ldflags] : [])].join(' ');
  const entry = cacheEntry(recipe.component, recipe.version, {
    go: goVersion(),
    goMod: wrapperGoMod(recipe),
    ldflags,
    binaries: JSON.stringify(recipe.binaries),
    // Only when set, so that the stamps of the other components stay as they were.
    ...(recipe.binDir ? { binDir: recipe.binDir } : {}),
    ...recipe.stamp,
  });
  const bin = path.join(entry.dir, recipe.binDir ?? 'bin');
  return {
    entry,
    binaries: Object.fromEntries(Object.keys(recipe.binaries).map((b) => [b, path.join(bin, b)])),
    async build(dir) {
      const src = path.join(dir, 'src');
      fs.rmSync(src, { recursive: true, force: true });
      fs.mkdirSync(src, { recursive: true });
      fs.mkdirSync(bin, { recursive: true });
      fs.writeFileSync(path.join(src, 'go.mod'), wrapperGoMod(recipe));
      const logFile = path.join(dir, 'build.log');
      const env = wrapperEnv();
      await runTool('go', ['get', ...Object.entries(recipe.requires).map(([m, v]) => `${m}@${v}`)], { cwd: src, env, logFile });
      if (recipe.prepare) await recipe.prepare(src, env, logFile);
      for (const [name, pkg] of Object.entries(recipe.binaries)) {
        await runTool('go', ['build', '-trimpath', '-ldflags', ldflags, '-o', path.join(bin, name), pkg], { cwd: src, env, logFile });
      }
    },
  };
}

/** The folder of a module in the module cache, as the wrapper in `src` resolved it. */
export function moduleDir(src: string, module: string, env: NodeJS.ProcessEnv): string {
  return execFileSync('go', ['list', '-m', '-f', '{{.Dir}}', module], { cwd: src, env, encoding: 'utf8' }).trim();
}
