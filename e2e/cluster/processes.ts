/**
 * The stack's server processes: each started in its own process group with its output in a log
 * file, and stopped as a group (TERM, then KILL after a grace period), so that nothing a component
 * starts outlives the run.
 */
import { ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';

/** A started server process. */
export interface ServerProcess {
  readonly name: string;
  readonly pid: number;
  readonly logFile: string;
  /** Resolves with the exit code (or signal) once the process has ended. */
  readonly exited: Promise<string>;
  readonly child: ChildProcess;
}

/** Starts and stops the stack's processes, in reverse order of starting. */
export class ProcessGroup {
  private readonly running: ServerProcess[] = [];

  constructor(private readonly logDir: string) {}

  public start(name: string, command: string, args: readonly string[], env: NodeJS.ProcessEnv = process.env): ServerProcess {
    const logFile = path.join(this.logDir, `${name}.log`);
    const out = fs.openSync(logFile, 'a');
    // detached: a process group of its own, so a signal reaches whatever the server forks too.
    const child = spawn(command, [...args], { detached: true, stdio: ['ignore', out, out], env });
    fs.closeSync(out);
    if (child.pid === undefined) throw new Error(`Cannot start ${name} (${command})`);
    const exited = new Promise<string>((resolve) => {
      child.on('exit', (code, signal) => resolve(signal ?? `exit ${code}`));
      child.on('error', (e) => resolve(`error ${e.message}`));
    });
    const proc: ServerProcess = { name, pid: child.pid, logFile, exited, child };
    this.running.push(proc);
    return proc;
  }

  /** Stops one process's group and forgets it. */
  public async stop(proc: ServerProcess, graceMs = 10_000): Promise<void> {
    const i = this.running.indexOf(proc);
    if (i >= 0) this.running.splice(i, 1);
    await stopGroup(proc, graceMs);
  }

  /** Stops every process still running, the last started first. */
  public async stopAll(graceMs = 10_000): Promise<void> {
    while (this.running.length > 0) await stopGroup(this.running.pop()!, graceMs);
  }

  /** Processes started and not stopped: the last started last. */
  public list(): readonly ServerProcess[] {
    return [...this.running];
  }
}

async function stopGroup(proc: ServerProcess, graceMs: number): Promise<void> {
  if (!signalGroup(proc.pid, 'SIGTERM')) return;
  const ended = await Promise.race([proc.exited.then(() => true), delay(graceMs).then(() => false)]);
  // The leader may be gone while children it forked live on: KILL the group either way.
  signalGroup(proc.pid, 'SIGKILL');
  if (!ended) await proc.exited;
}

/** Signals a process group; false when it no longer exists. */
function signalGroup(pid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw e;
  }
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A TCP port on 127.0.0.1 that was free a moment ago (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** `n` distinct free ports. */
export async function freePorts(n: number): Promise<number[]> {
  const ports = new Set<number>();
  while (ports.size < n) ports.add(await freePort());
  return [...ports];
}

/**
 * Polls `check` until it resolves true; fails with the process's log tail when the process exits
 * first or `timeoutMs` passes.
 */
export async function waitUntil(what: string, check: () => Promise<boolean>, proc: ServerProcess | undefined, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  let exited: string | undefined;
  void proc?.exited.then((how) => (exited = how));
  for (;;) {
    if (exited !== undefined) throw new Error(`${proc!.name} exited (${exited}) before ${what}; its log ${proc!.logFile} ends:\n${logTail(proc!.logFile)}`);
    if (await check().catch(() => false)) return;
    if (Date.now() > end) {
      throw new Error(`Timed out after ${timeoutMs / 1000} s waiting for ${what}${proc ? `; ${proc.name}'s log ${proc.logFile} ends:\n${logTail(proc.logFile)}` : ''}`);
    }
    await delay(250);
  }
}

export function logTail(file: string, lines = 20): string {
  try {
    return fs.readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}
