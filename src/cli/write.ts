/**
 * Where `-o` writes, and how. The rules:
 *
 * - `convert -o DIR`: DIR is a directory. An existing file there, or a name that does not exist
 *   and ends like a file (`out.yaml`), is refused; a missing DIR is created, its parent is not.
 *   Inside it, `<manifest>.<target>.yaml` is written (for flux-v2, the folder `<manifest>/` of a
 *   GitOps layout, its folders created as needed, never through a link); an existing file of that
 *   name is replaced only with `--force` (another input whose manifest has the same name would
 *   have written it).
 * - `import -o FILE`: FILE is a file, replaced if it exists; its directory must exist.
 * - Neither writes through, or replaces, a symbolic link or a directory at the target.
 *
 * Refusals are usage errors (exit 2). The write itself is all or nothing: each file goes to a
 * temporary file beside its target, created exclusively under a random name (so a link planted
 * in advance cannot be followed), synced, then renamed over the target, and the directory synced.
 * A failure or a signal on the way removes the temporary files (and a directory it created).
 *
 * Two `convert -o DIR` runs at once must not silently replace each other's files. A run holds
 * `DIR/.armada-cdk.lock` (created exclusively, holding its process id) while it writes, so a second
 * run that overlaps it fails; and a file that was not there when the run checked its targets is
 * put in place with a hard link, which fails when a file appeared at the name since, instead of
 * a rename, which would replace it: so a run that finished between this one's check and its write
 * is not overwritten either. `--force` replaces, as asked, but never while another run writes.
 */
import * as fs from 'fs';
import * as path from 'path';
import { EXIT, ioErrorText, OutputError, UsageError } from './io';

/** A file to write, and the directory to create for it (the `-o DIR` of convert when missing). */
export interface OutputFile {
  readonly path: string;
  readonly content: string | Uint8Array;
  /**
   * Whether a file at `path` may be replaced (`--force`, or `import -o FILE`); otherwise one that
   * appeared there after the check fails the write.
   * @default false
   */
  readonly replace?: boolean | undefined;
}

/** Where convert's output goes, checked; `createDir` when the directory is still to be made. */
export interface OutputPlan {
  readonly files: OutputFile[];
  readonly createDir?: string | undefined;
  /**
   * Folders inside the output directory to create, parents first (a file named `a/b.yaml`).
   * @default - none
   */
  readonly createSubdirs?: readonly string[] | undefined;
  /**
   * The directory locked while the files are written (`convert -o DIR`).
   * @default - no lock
   */
  readonly lockDir?: string | undefined;
}

/** The lock file a run holds in `-o DIR` while it writes there. */
export const LOCK_FILE = '.armada-cdk.lock';

const FILE_LIKE = /\.(?:ya?ml|json|txt|ts|js)$/i;

function lstatOrUndefined(p: string): fs.Stats | undefined {
  try {
    return fs.lstatSync(p);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new OutputError(`cannot use ${p}: ${ioErrorText(e)}`);
  }
}

/** `target` may be replaced by a regular file: not a link, not a directory, nothing odd. */
function checkTarget(target: string, shown: string, command: string): fs.Stats | undefined {
  const st = lstatOrUndefined(target);
  if (!st) return undefined;
  if (st.isSymbolicLink()) {
    throw new UsageError(`${shown} is a symbolic link; armada-cdk neither writes through a link nor replaces one: remove it, or choose another output`, command);
  }
  if (st.isDirectory()) throw new UsageError(`${shown} is a directory; the output would replace it`, command);
  if (!st.isFile()) throw new UsageError(`${shown} exists and is not a regular file; choose another output`, command);
  return st;
}

/**
 * Checks `convert -o DIR` itself, before any input is read: DIR is an existing directory (a link
 * to one included), or a missing name that does not look like a file, in a directory that exists.
 * Returns the directory to create, if any.
 */
export function checkOutputDirectory(cwd: string, dir: string, command: string): { abs: string; create: boolean } {
  const abs = path.resolve(cwd, dir);
  let st: fs.Stats | undefined;
  try {
    st = fs.statSync(abs); // a link to a directory is the user's way to put the output elsewhere
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw new OutputError(`cannot use -o ${dir}: ${ioErrorText(e)}`);
  }
  if (st && !st.isDirectory()) {
    throw new UsageError(`-o ${dir} is a file; for ${command}, -o names the directory to write into (for a single file, redirect stdout: > ${dir})`, command);
  }
  if (st) return { abs, create: false };
  if (FILE_LIKE.test(dir)) {
    throw new UsageError(`-o ${dir} does not exist and looks like a file name; for ${command}, -o names a directory (for a single file, redirect stdout: > ${dir})`, command);
  }
  if (!isDirectory(path.dirname(abs))) throw new UsageError(`-o ${dir}: the directory ${path.dirname(dir) || '.'} it would be created in does not exist; create it first`, command);
  return { abs, create: true };
}

function isDirectory(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Checks `convert -o DIR` for writing `files` into it: the directory (see
 * {@link checkOutputDirectory}), then each target. Several outputs of the same name are refused
 * (one would overwrite the other), and so is an existing one without `force`.
 */
export function planDirectoryOutput(cwd: string, dir: string, files: readonly { name: string; content: string | Uint8Array }[], options: { force: boolean; command: string }): OutputPlan {
  const { command } = options;
  const seen = new Set<string>();
  for (const f of files) {
    if (seen.has(f.name)) throw new UsageError(`two outputs are both named ${f.name}; one would overwrite the other`, command);
    seen.add(f.name);
  }
  const { abs, create } = checkOutputDirectory(cwd, dir, command);
  const out: OutputFile[] = [];
  // A name with "/" is a file in a folder of the directory: each folder is checked as a target
  // is (an existing one must be a real directory, never a link), a missing one created.
  const subdirs: string[] = [];
  const seenDirs = new Set<string>();
  for (const f of files) {
    const parts = f.name.split('/');
    for (let i = 1; i < parts.length; i++) {
      const rel = parts.slice(0, i).join('/');
      if (seenDirs.has(rel)) continue;
      seenDirs.add(rel);
      const st = create ? undefined : lstatOrUndefined(path.join(abs, rel));
      if (st && (st.isSymbolicLink() || !st.isDirectory())) {
        throw new UsageError(`${path.join(dir, rel)} exists and is not a directory (a link is not followed); remove it, or choose another -o directory`, command);
      }
      if (!st) subdirs.push(path.join(abs, rel));
    }
  }
  for (const f of files) {
    const target = path.join(abs, f.name);
    const shown = path.join(dir, f.name);
    const existing = create || subdirs.includes(path.dirname(target)) ? undefined : checkTarget(target, shown, command);
    if (existing && !options.force) {
      throw new UsageError(`${shown} already exists (from an earlier run, or from another input whose manifest has the same name); pass --force to replace it, or choose another -o directory`, command);
    }
    out.push({ path: target, content: f.content, replace: options.force });
  }
  return { files: out, lockDir: abs, ...(create ? { createDir: abs } : {}), ...(subdirs.length > 0 ? { createSubdirs: subdirs } : {}) };
}

/** Checks `import -o FILE` before any input is read: a file (replaced when it exists) in a directory that exists. */
export function checkOutputFile(cwd: string, file: string, command: string): string {
  const abs = path.resolve(cwd, file);
  if (file.endsWith('/') || file.endsWith(path.sep)) throw new UsageError(`-o ${file} names a directory; for ${command}, -o names the file to write`, command);
  if (!isDirectory(path.dirname(abs))) throw new UsageError(`-o ${file}: the directory ${path.dirname(file)} does not exist; create it first`, command);
  checkTarget(abs, file, command);
  return abs;
}

/** The real path of `p`, links followed; for a path that does not exist, its directory's real path and its name. */
function realPath(p: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    try {
      return path.join(fs.realpathSync(path.dirname(p)), path.basename(p));
    } catch {
      return p;
    }
  }
}

/**
 * Refuses an output that is one of the inputs: the same file, by its real path (links followed)
 * or as the same file on disk (a hard link). Writing it would replace the input with the output.
 * `-` (stdin) is no file; an output that does not exist yet is no input.
 *
 * @param shown the output, for the message (`-o site.ts`).
 * @param target the file that would be written (absolute).
 */
export function checkOutputNotInput(cwd: string, shown: string, target: string, inputs: readonly string[], command: string): void {
  let outStat: fs.Stats | undefined;
  try {
    outStat = fs.statSync(target);
  } catch {
    return;
  }
  const outReal = realPath(target);
  for (const input of inputs) {
    if (input === '-') continue;
    const abs = path.resolve(cwd, input);
    let same = realPath(abs) === outReal;
    if (!same) {
      try {
        const st = fs.statSync(abs);
        same = st.ino !== 0 && st.dev === outStat.dev && st.ino === outStat.ino;
      } catch {
        // an input that cannot be read is reported when it is read
      }
    }
    if (same) {
      const where = abs === target ? `the input ${input}` : `the same file as the input ${input} (through a link)`;
      throw new UsageError(`${shown} is ${where}; writing the output there would replace it: choose another output file`, command);
    }
  }
}

/** {@link checkOutputFile}, then the plan to write `content` there. */
export function planFileOutput(cwd: string, file: string, content: string, command: string): OutputPlan {
  return { files: [{ path: checkOutputFile(cwd, file, command), content, replace: true }] };
}

/**
 * Takes `dir`'s lock file, or throws {@link OutputError} naming the run that holds it. A lock
 * whose process is gone (a run killed with SIGKILL, or a crash) is taken over.
 * @returns the function that releases it
 */
async function lockDirectory(dir: string, shown: (p: string) => string): Promise<() => Promise<void>> {
  const lock = path.join(dir, LOCK_FILE);
  for (let attempt = 0; ; attempt++) {
    try {
      const fh = await fs.promises.open(lock, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_NOFOLLOW, 0o644);
      try {
        await fh.writeFile(`${process.pid}\n`);
      } finally {
        await fh.close();
      }
      return () => fs.promises.rm(lock, { force: true }).catch(() => undefined);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    const text = await fs.promises.readFile(lock, 'utf8').catch(() => '');
    const pid = /^\d+$/.test(text.trim()) ? Number(text.trim()) : undefined;
    if (pid !== undefined && attempt === 0 && !isRunning(pid)) {
      await fs.promises.rm(lock, { force: true });
      continue;
    }
    throw new OutputError(
      `another armada-cdk run${pid !== undefined ? ` (process ${pid})` : ''} is writing into ${shown(dir)} (it holds ${shown(lock)}); nothing was written: run again once it is done, or remove ${shown(lock)} if no such run is left`,
      EXIT.INVALID,
    );
  }
}

/** Whether a process of that id exists (one of another user counts: signalling it is refused, not unknown). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** What `link` fails with on file systems without hard links. */
const NO_HARD_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EXDEV', 'EMLINK']);

/**
 * Moves `tmp` to `final` only if nothing is at `final`: a hard link, which fails with EEXIST when
 * a file appeared there, then the temporary name removed. Without hard links, a check then a
 * rename (the lock still keeps overlapping runs apart).
 */
async function placeNew(tmp: string, final: string): Promise<void> {
  try {
    await fs.promises.link(tmp, final);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? '';
    if (!NO_HARD_LINKS.has(code)) throw e;
    if (lstatOrUndefined(final)) throw Object.assign(new Error(`${final} exists`), { code: 'EEXIST' });
    await fs.promises.rename(tmp, final);
    return;
  }
  await fs.promises.rm(tmp, { force: true });
}

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
const SIGNAL_NUMBERS: Record<(typeof SIGNALS)[number], number> = { SIGINT: 2, SIGTERM: 15, SIGHUP: 1 };

async function syncDirectory(dir: string): Promise<void> {
  const fh = await fs.promises.open(dir, fs.constants.O_RDONLY);
  try {
    await fh.sync();
  } catch (e) {
    // Some file systems cannot sync a directory; the data itself was synced.
    if ((e as NodeJS.ErrnoException).code !== 'EINVAL' && (e as NodeJS.ErrnoException).code !== 'EBADF') throw e;
  } finally {
    await fh.close();
  }
}

/**
 * Writes the planned files all or nothing (see the module comment). Throws {@link OutputError}
 * for an I/O failure or an interrupt, after removing every temporary file.
 *
 * @param shown how a path is named in messages.
 */
export async function writeFilesAtomically(plan: OutputPlan, shown: (p: string) => string = (p) => p): Promise<void> {
  const temps: { tmp: string; final: string; replace: boolean }[] = [];
  let interrupted: (typeof SIGNALS)[number] | undefined;
  const onSignal = (sig: (typeof SIGNALS)[number]) => {
    interrupted ??= sig;
  };
  const handlers = SIGNALS.map((sig) => [sig, () => onSignal(sig)] as const);
  for (const [sig, h] of handlers) process.on(sig, h);
  let createdDir: string | undefined;
  const createdSubdirs: string[] = [];
  let unlock: (() => Promise<void>) | undefined;
  let renamed = 0;
  let current = plan.files[0]?.path ?? '';
  const checkSignal = () => {
    if (interrupted) throw new OutputError(`interrupted (${interrupted}); nothing was written`, 128 + SIGNAL_NUMBERS[interrupted]);
  };
  try {
    if (plan.createDir) {
      current = plan.createDir;
      await fs.promises.mkdir(plan.createDir);
      createdDir = plan.createDir;
    }
    if (plan.lockDir) {
      current = plan.lockDir;
      unlock = await lockDirectory(plan.lockDir, shown);
    }
    for (const d of plan.createSubdirs ?? []) {
      current = d;
      checkSignal();
      // Not recursive: a folder that appeared since the check (another run) fails the write.
      await fs.promises.mkdir(d);
      createdSubdirs.push(d);
    }
    // Node's crypto module, loaded only by a run that writes files (most print to stdout): it
    // costs a short run a tenth of its start-up.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { randomBytes } = require('crypto') as typeof import('crypto');
    for (const f of plan.files) {
      current = f.path;
      checkSignal();
      const dir = path.dirname(f.path);
      const tmp = path.join(dir, `.${path.basename(f.path)}.${randomBytes(8).toString('hex')}.tmp`);
      // O_EXCL: never an existing file, nor a link planted at the name; O_NOFOLLOW: belt and braces.
      const fh = await fs.promises.open(tmp, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_NOFOLLOW, 0o666);
      temps.push({ tmp, final: f.path, replace: f.replace === true });
      try {
        await fh.writeFile(f.content);
        await fh.sync();
      } finally {
        await fh.close();
      }
    }
    checkSignal();
    for (const dir of new Set(plan.files.map((f) => path.dirname(f.path)))) await syncDirectory(dir);
    checkSignal();
    // rename() replaces whatever is at the target (a link planted since the check included)
    // without following it.
    for (const t of [...temps]) {
      current = t.final;
      if (t.replace) await fs.promises.rename(t.tmp, t.final);
      else {
        await placeNew(t.tmp, t.final).catch((e: NodeJS.ErrnoException) => {
          if (e.code !== 'EEXIST') throw e;
          const outcome = renamed === 0 ? 'nothing was written' : `${renamed} of ${plan.files.length} files were already in place`;
          throw new OutputError(
            `${shown(t.final)} appeared while this run was writing (another armada-cdk run into the same directory?) and was left as it is; ${outcome}. Pass --force to replace it`,
            EXIT.INVALID,
          );
        });
      }
      temps.shift();
      renamed++;
    }
    for (const dir of new Set(plan.files.map((f) => path.dirname(f.path)))) await syncDirectory(dir);
  } catch (e) {
    for (const t of temps) await fs.promises.rm(t.tmp, { force: true }).catch(() => undefined);
    await unlock?.();
    unlock = undefined;
    if (renamed === 0) for (const d of [...createdSubdirs].reverse()) await fs.promises.rmdir(d).catch(() => undefined);
    if (createdDir && renamed === 0) await fs.promises.rmdir(createdDir).catch(() => undefined);
    if (e instanceof OutputError) throw e;
    const outcome = renamed === 0 ? 'nothing was written' : `${renamed} of ${plan.files.length} files were already in place`;
    throw new OutputError(`cannot write ${shown(current)}: ${ioErrorText(e)}; ${outcome}`, EXIT.INVALID);
  } finally {
    await unlock?.();
    for (const [sig, h] of handlers) process.removeListener(sig, h);
  }
  if (interrupted) throw new OutputError(`interrupted (${interrupted}) after the output was written`, 128 + SIGNAL_NUMBERS[interrupted]);
}
