import { execFileSync } from 'child_process';

/**
 * Runs `body` (JavaScript, the statements of a function) in a fresh Node process that loads our
 * TypeScript sources and may ask V8 about its objects: `fast(o)` says whether `o` is in V8's fast
 * mode, which only a process started with --allow-natives-syntax can. Returns what `body` returns,
 * through JSON.
 */
export function inV8Process(body: string): unknown {
  const script = `const fast = (o) => eval('%HasFastProperties(o)'); process.stdout.write(JSON.stringify((() => { ${body} })()));`;
  return JSON.parse(execFileSync(process.execPath, ['--allow-natives-syntax', '-r', require.resolve('ts-node/register/transpile-only'), '-e', script], { encoding: 'utf8' }));
}
