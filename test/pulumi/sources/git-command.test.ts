/**
 * The bounds `runGit` keeps on a command, checked with stand-in executables that misbehave the
 * way a hostile server can make git misbehave: a download that keeps growing, an endless listing,
 * a flood of remote messages before the one line that explains the failure.
 */
import { promises as fs } from 'fs';
import * as path from 'path';
import { GitCommandError, GitLimitError, runGit } from '../../../src/pulumi/sources/git-command';
import { cleanup, tempDir } from './helpers';

afterAll(cleanup);

/** An executable shell script standing in for git. */
async function fakeGit(script: string): Promise<string> {
  const dir = await tempDir('fake-git');
  const file = path.join(dir, 'git');
  await fs.writeFile(file, `#!/bin/sh\n${script}\n`, { mode: 0o755 });
  return file;
}

const posix = process.platform === 'win32' ? describe.skip : describe;

posix('runGit bounds', () => {
  test('a download that passes the limit stops the command, whatever it would have sent', async () => {
    const dir = await tempDir('watched');
    // 64 kB a step, for up to a minute: only the watch can end it in time
    const git = await fakeGit(`mkdir -p "$1/objects/pack"; i=0; while [ $i -lt 600 ]; do head -c 65536 /dev/zero >> "$1/objects/pack/tmp_pack"; i=$((i+1)); sleep 0.1; done`);
    const started = Date.now();
    const e = await runGit([dir], { git, env: process.env, timeoutMs: 60_000, watch: { dir, maxBytes: 300_000 } }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(GitLimitError);
    expect((e as GitLimitError).kind).toBe('download');
    expect((e as GitLimitError).message).toBe(`git ${dir} was stopped: its download passed 300000 bytes`);
    expect(Date.now() - started).toBeLessThan(20_000);
  });

  test('a command quicker than the first check is measured when it is done', async () => {
    const dir = await tempDir('watched');
    const git = await fakeGit(`head -c 500000 /dev/zero > "$1/pack"`);
    await expect(runGit([dir], { git, env: process.env, timeoutMs: 60_000, watch: { dir, maxBytes: 400_000 } })).rejects.toBeInstanceOf(GitLimitError);
    await fs.rm(path.join(dir, 'pack'));
    await expect(runGit([dir], { git, env: process.env, timeoutMs: 60_000, watch: { dir, maxBytes: 600_000 } })).resolves.toBe('');
  });

  test('standard output past its limit stops the command; within it, all of it is returned', async () => {
    const endless = await fakeGit('yes "100644 blob 0123456789abcdef0123456789abcdef01234567 12\tsome/path"');
    const e = await runGit(['ls-tree'], { git: endless, env: process.env, timeoutMs: 60_000, maxOutputBytes: 100_000 }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(GitLimitError);
    expect((e as GitLimitError).kind).toBe('output');
    const short = await fakeGit(`printf 'a\\0b\\0'`);
    await expect(runGit(['ls-tree'], { git: short, env: process.env, timeoutMs: 60_000, maxOutputBytes: 4 })).resolves.toBe('a\0b\0');
  });

  test('a flood on stderr keeps its last 64 kB, where git says what failed', async () => {
    const git = await fakeGit(`i=0; while [ $i -lt 20000 ]; do echo "remote: noise noise noise noise noise noise noise noise $i" >&2; i=$((i+1)); done; echo "fatal: the real reason" >&2; exit 128`);
    const e = await runGit(['clone'], { git, env: process.env, timeoutMs: 60_000 }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(GitCommandError);
    const err = e as GitCommandError;
    expect(err.exitCode).toBe(128);
    expect(err.stderr.length).toBeLessThanOrEqual(64 * 1024);
    expect(err.stderr.trimEnd().endsWith('fatal: the real reason')).toBe(true);
  });
});
