import * as fs from 'fs';
import * as path from 'path';
import { OutputError } from '../../src/cli/io';
import { LOCK_FILE, planDirectoryOutput, writeFilesAtomically } from '../../src/cli/write';
import { cli, tmpdir, write } from '../helpers/cli';
import { readShared } from '../helpers/shared';

const SIMPLE = readShared('corpus', 'armada__examples__simple.yaml');
const OUT_NAME = 'simple-armada.airship-v1.yaml';
/** The mode a new file gets: 0666 less the umask, as for any file the user creates. */
const FILE_MODE = (0o666 & ~process.umask()).toString(8);

/** Every entry below `root`: type, content or link target, and mode, to prove nothing changed. */
function tree(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string) => {
    const abs = path.join(root, rel);
    const st = fs.lstatSync(abs);
    if (st.isSymbolicLink()) out[rel] = `link -> ${fs.readlinkSync(abs)}`;
    else if (st.isDirectory()) {
      out[rel] = `dir ${(st.mode & 0o7777).toString(8)}`;
      for (const e of fs.readdirSync(abs).sort()) walk(path.join(rel, e));
    } else out[rel] = `file ${(st.mode & 0o7777).toString(8)} ${fs.readFileSync(abs, 'utf8')}`;
  };
  walk('.');
  return out;
}

/** A sandbox: the input, an output directory, and a file outside it that must never change. */
function sandbox() {
  const root = tmpdir('armada-cdk-out-');
  const input = write(root, 'site.yaml', SIMPLE);
  fs.mkdirSync(path.join(root, 'out'));
  const outside = write(root, 'outside.txt', 'precious\n');
  return { root, input, out: path.join(root, 'out'), outside };
}

const usage = (r: { code: number; stderr: string }, message: string, command = 'convert') => {
  expect([r.code, r.stderr.split('\n').filter((l) => /^(Run )?armada-cdk /.test(l))]).toEqual([2, [`armada-cdk ${command}: ${message}`, `Run armada-cdk ${command} --help for usage.`]]);
};

describe('convert -o DIR: the rules', () => {
  test('writes DIR/<manifest>.<target>.yaml, a regular file with the stdout bytes, and nothing else', async () => {
    const s = sandbox();
    const before = tree(s.root);
    const r = await cli(['convert', s.input, '--to', 'airship-v1', '-o', s.out]);
    expect(r.code).toBe(0);
    const stdout = (await cli(['convert', s.input, '--to', 'airship-v1'])).stdout;
    expect(tree(s.root)).toEqual({ ...before, [`out/${OUT_NAME}`]: `file ${FILE_MODE} ${stdout}` });
  });

  test('a missing DIR is created, but not its parents', async () => {
    const s = sandbox();
    expect((await cli(['convert', s.input, '--to', 'airship-v1', '-o', path.join(s.root, 'new')])).code).toBe(0);
    expect(fs.readdirSync(path.join(s.root, 'new'))).toEqual([OUT_NAME]);
    const before = tree(s.root);
    const deep = path.join(s.root, 'a', 'b');
    usage(await cli(['convert', s.input, '--to', 'airship-v1', '-o', deep]), `-o ${deep}: the directory ${path.join(s.root, 'a')} it would be created in does not exist; create it first`);
    expect(tree(s.root)).toEqual(before);
  });

  test('-o FILE.yaml that does not exist is refused, not made a directory', async () => {
    const s = sandbox();
    const before = tree(s.root);
    const target = path.join(s.root, 'site.out.yaml');
    const r = await cli(['convert', s.input, '--to', 'airship-v1', '-o', target]);
    usage(r, `-o ${target} does not exist and looks like a file name; for convert, -o names a directory (for a single file, redirect stdout: > ${target})`);
    // Checked before the input is read: no diagnostics of the input precede the refusal.
    expect(r.stderr).not.toMatch(/: (warning|error): /);
    expect(tree(s.root)).toEqual(before);
  });

  test('-o at an existing file is refused with exit 2 (not an internal EEXIST error), the file untouched', async () => {
    const s = sandbox();
    const before = tree(s.root);
    usage(
      await cli(['convert', s.input, '--to', 'airship-v1', '-o', s.outside]),
      `-o ${s.outside} is a file; for convert, -o names the directory to write into (for a single file, redirect stdout: > ${s.outside})`,
    );
    expect(tree(s.root)).toEqual(before);
  });

  test('an existing output (another input whose manifest has the same name) is replaced only with --force', async () => {
    const s = sandbox();
    expect((await cli(['convert', s.input, '--to', 'airship-v1', '-o', s.out])).code).toBe(0);
    const other = write(s.root, 'other.yaml', SIMPLE.replace('release: blog-1', 'release: other-1'));
    const before = tree(s.root);
    const shown = path.join(s.out, OUT_NAME);
    usage(
      await cli(['convert', other, '--to', 'airship-v1', '-o', s.out]),
      `${shown} already exists (from an earlier run, or from another input whose manifest has the same name); pass --force to replace it, or choose another -o directory`,
    );
    expect(tree(s.root)).toEqual(before);
    const forced = await cli(['convert', other, '--to', 'airship-v1', '-o', s.out, '--force']);
    expect(forced.code).toBe(0);
    expect(fs.readFileSync(shown, 'utf8')).toContain('release: other-1');
    expect(fs.readdirSync(s.out)).toEqual([OUT_NAME]);
  });

  test('a symbolic link at the target is refused, never followed, even with --force', async () => {
    const s = sandbox();
    fs.symlinkSync(s.outside, path.join(s.out, OUT_NAME));
    const before = tree(s.root);
    for (const extra of [[], ['--force']]) {
      usage(
        await cli(['convert', s.input, '--to', 'airship-v1', '-o', s.out, ...extra]),
        `${path.join(s.out, OUT_NAME)} is a symbolic link; armada-cdk neither writes through a link nor replaces one: remove it, or choose another output`,
      );
      expect(tree(s.root)).toEqual(before);
    }
  });

  test('a directory at the target is refused', async () => {
    const s = sandbox();
    fs.mkdirSync(path.join(s.out, OUT_NAME));
    usage(await cli(['convert', s.input, '--to', 'airship-v1', '-o', s.out, '--force']), `${path.join(s.out, OUT_NAME)} is a directory; the output would replace it`);
  });

  test('links planted at the temporary names of earlier versions (.<name>.<pid>.tmp) are not followed', async () => {
    const s = sandbox();
    for (const pid of [process.pid, process.pid + 1]) fs.symlinkSync(s.outside, path.join(s.out, `.${OUT_NAME}.${pid}.tmp`));
    const before = tree(s.root);
    const r = await cli(['convert', s.input, '--to', 'airship-v1', '-o', s.out]);
    expect(r.code).toBe(0);
    const after = tree(s.root);
    expect(after[`out/${OUT_NAME}`]).toMatch(new RegExp(`^file ${FILE_MODE} ---\napiVersion: armada\\.airshipit\\.org/v1\n`));
    delete after[`out/${OUT_NAME}`];
    expect(after).toEqual(before);
  });
});

describe('convert -o DIR: failures leave nothing behind', () => {
  afterEach(() => jest.restoreAllMocks());

  const errno = (code: string, message: string) => Object.assign(new Error(`${code}: ${message}`), { code });

  test('a full disk while writing: an I/O error, exit 1, no temporary file', async () => {
    const s = sandbox();
    const before = tree(s.root);
    const open = fs.promises.open;
    jest.spyOn(fs.promises, 'open').mockImplementation(async (...args: Parameters<typeof open>) => {
      const fh = await open(...args);
      if (String(args[0]).endsWith('.tmp')) {
        fh.writeFile = async () => {
          await fs.promises.appendFile(String(args[0]), 'partial');
          throw errno('ENOSPC', 'no space left on device, write');
        };
      }
      return fh;
    });
    const r = await cli(['convert', s.input, '--to', 'airship-v1', '-o', s.out]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`armada-cdk convert: cannot write ${path.relative(process.cwd(), path.join(s.out, OUT_NAME))}: no space left on device (ENOSPC); nothing was written\n`);
    expect(r.stderr).not.toMatch(/internal error|This is a bug/);
    expect(tree(s.root)).toEqual(before);
  });

  test('a failing fsync and a failing rename: the same, and a directory it created is removed again', async () => {
    const s = sandbox();
    const before = tree(s.root);
    // A new file is put in place with link (rename when the file system has no hard links).
    jest.spyOn(fs.promises, 'link').mockRejectedValue(errno('EXDEV', 'cross-device link not permitted, link'));
    jest.spyOn(fs.promises, 'rename').mockRejectedValue(errno('EXDEV', 'cross-device link not permitted, rename'));
    const fresh = path.join(s.root, 'fresh');
    const r = await cli(['convert', s.input, '--to', 'airship-v1', '-o', fresh]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(': it is on another file system (EXDEV); nothing was written\n');
    expect(tree(s.root)).toEqual(before);
    jest.restoreAllMocks();
    const open = fs.promises.open;
    jest.spyOn(fs.promises, 'open').mockImplementation(async (...args: Parameters<typeof open>) => {
      const fh = await open(...args);
      if (String(args[0]).endsWith('.tmp')) fh.sync = async () => Promise.reject(errno('EIO', 'i/o error, fsync'));
      return fh;
    });
    const e = await cli(['convert', s.input, '--to', 'airship-v1', '-o', s.out]);
    expect([e.code, /input\/output error \(EIO\); nothing was written/.test(e.stderr)]).toEqual([1, true]);
    expect(tree(s.root)).toEqual(before);
  });

  test.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ])('%s while writing: no temporary file, the old output kept, exit %d', async (signal, code) => {
    const s = sandbox();
    expect((await cli(['convert', s.input, '--to', 'airship-v1', '-o', s.out])).code).toBe(0);
    const before = tree(s.root);
    const open = fs.promises.open;
    jest.spyOn(fs.promises, 'open').mockImplementation(async (...args: Parameters<typeof open>) => {
      const fh = await open(...args);
      if (String(args[0]).endsWith('.tmp')) {
        const write = fh.writeFile.bind(fh);
        fh.writeFile = async (data: never) => {
          await write(data);
          process.emit(signal as NodeJS.Signals, signal as NodeJS.Signals);
        };
      }
      return fh;
    });
    const r = await cli(['convert', s.input, '--to', 'airship-v1', '-o', s.out, '--force']);
    expect(r.code).toBe(code);
    expect(r.stderr).toContain(`armada-cdk convert: interrupted (${signal}); nothing was written\n`);
    expect(tree(s.root)).toEqual(before);
    expect(process.listenerCount(signal as NodeJS.Signals)).toBe(0);
  });
});

describe('convert -o DIR: two runs at once', () => {
  /** The same manifest name (so the same output file) with a different namespace, to tell whose output is in place. */
  const variant = (root: string, ns: string) => write(root, `site-${ns}.yaml`, SIMPLE.replace(/namespace: default/g, `namespace: ${ns}`));

  test('overlapping runs: one writes, the other fails and says why; no temporary or lock file is left', async () => {
    // The repro: both exited 0, and the file held whichever run renamed last.
    const s = sandbox();
    const inputs = [variant(s.root, 'alpha'), variant(s.root, 'beta')];
    const runs = await Promise.all(inputs.map((input) => cli(['convert', input, '--to', 'airship-v1', '-o', s.out])));
    expect(runs.map((r) => r.code).sort()).toEqual([0, 1]);
    const loser = runs.find((r) => r.code === 1)!;
    expect(loser.stderr).toMatch(/armada-cdk convert: (another armada-cdk run \(process \d+\) is writing into .*out \(it holds .*out\/\.armada-cdk\.lock\); nothing was written|.*out\/simple-armada\.airship-v1\.yaml appeared while this run was writing \(another armada-cdk run into the same directory\?\) and was left as it is; nothing was written\. Pass --force to replace it)/);
    const winner = runs.findIndex((r) => r.code === 0);
    const expected = (await cli(['convert', inputs[winner], '--to', 'airship-v1'])).stdout;
    expect(fs.readdirSync(s.out)).toEqual([OUT_NAME]);
    expect(fs.readFileSync(path.join(s.out, OUT_NAME), 'utf8')).toBe(expected);
  });

  test('a file that appeared after this run checked its targets is not replaced, without --force', async () => {
    const s = sandbox();
    const plan = planDirectoryOutput(s.root, 'out', [{ name: OUT_NAME, content: 'mine\n' }], { force: false, command: 'convert' });
    // Another run finishes between this one's check and its write.
    write(s.out, OUT_NAME, 'theirs\n');
    await expect(writeFilesAtomically(plan)).rejects.toThrow(
      new OutputError(`${path.join(s.out, OUT_NAME)} appeared while this run was writing (another armada-cdk run into the same directory?) and was left as it is; nothing was written. Pass --force to replace it`),
    );
    expect(fs.readdirSync(s.out)).toEqual([OUT_NAME]);
    expect(fs.readFileSync(path.join(s.out, OUT_NAME), 'utf8')).toBe('theirs\n');
    // With --force it is replaced, as asked.
    await writeFilesAtomically(planDirectoryOutput(s.root, 'out', [{ name: OUT_NAME, content: 'mine\n' }], { force: true, command: 'convert' }));
    expect(fs.readFileSync(path.join(s.out, OUT_NAME), 'utf8')).toBe('mine\n');
  });

  test('a lock held by a live run stops even --force; one whose process is gone is taken over', async () => {
    const s = sandbox();
    const lock = path.join(s.out, LOCK_FILE);
    fs.writeFileSync(lock, `${process.pid}\n`);
    const held = await cli(['convert', s.input, '--to', 'airship-v1', '-o', s.out, '--force']);
    expect(held.code).toBe(1);
    expect(held.stderr.split('\n').filter((l) => l.startsWith('armada-cdk '))).toEqual([`armada-cdk convert: another armada-cdk run (process ${process.pid}) is writing into ${path.relative(process.cwd(), s.out)} (it holds ${path.relative(process.cwd(), lock)}); nothing was written: run again once it is done, or remove ${path.relative(process.cwd(), lock)} if no such run is left`]);
    expect(fs.readdirSync(s.out)).toEqual([LOCK_FILE]);
    // A process id that cannot exist (above Linux's pid_max): a run that was killed.
    fs.writeFileSync(lock, '99999999\n');
    expect((await cli(['convert', s.input, '--to', 'airship-v1', '-o', s.out])).code).toBe(0);
    expect(fs.readdirSync(s.out)).toEqual([OUT_NAME]);
  });
});

describe('import -o FILE: the rules', () => {
  test('writes the file, replacing an existing one', async () => {
    const s = sandbox();
    const target = write(s.root, 'site.ts', '// old\n');
    const r = await cli(['import', s.input, '-o', target]);
    expect(r.code).toBe(0);
    expect(fs.readFileSync(target, 'utf8')).toBe((await cli(['import', s.input])).stdout);
    expect(fs.readdirSync(s.root).sort()).toEqual(['out', 'outside.txt', 'site.ts', 'site.yaml']);
  });

  test('a missing directory is not created', async () => {
    const s = sandbox();
    const before = tree(s.root);
    const target = path.join(s.root, 'missing', 'dir', 'x.ts');
    const r = await cli(['import', s.input, '-o', target]);
    usage(r, `-o ${target}: the directory ${path.join(s.root, 'missing', 'dir')} does not exist; create it first`, 'import');
    expect(r.stderr).not.toMatch(/: (warning|error): /);
    expect(tree(s.root)).toEqual(before);
  });

  test('a directory, a trailing slash and a symbolic link are refused', async () => {
    const s = sandbox();
    const link = path.join(s.root, 'link.ts');
    fs.symlinkSync(s.outside, link);
    const before = tree(s.root);
    usage(await cli(['import', s.input, '-o', s.out]), `${s.out} is a directory; the output would replace it`, 'import');
    usage(await cli(['import', s.input, '-o', `${s.out}/`]), `-o ${s.out}/ names a directory; for import, -o names the file to write`, 'import');
    usage(await cli(['import', s.input, '-o', link]), `${link} is a symbolic link; armada-cdk neither writes through a link nor replaces one: remove it, or choose another output`, 'import');
    expect(tree(s.root)).toEqual(before);
  });
});
