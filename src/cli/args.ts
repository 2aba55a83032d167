/** Command-line parsing on Node's own `util.parseArgs`: no dependency, fast start-up. */
import { parseArgs } from 'util';
import { suggest } from '../model/diagnostics';
import { UsageError } from './io';

/** An option of a command. */
export interface OptionSpec {
  readonly type: 'string' | 'boolean';
  readonly short?: string | undefined;
  readonly multiple?: boolean | undefined;
  /** Allowed values of a string option. */
  readonly choices?: readonly string[] | undefined;
}

export interface ParsedArgs {
  readonly values: Record<string, string | boolean | string[] | undefined>;
  readonly positionals: string[];
}

/** Parses `argv` for `command`; unknown options, empty and bad values are usage errors with a suggestion. */
export function parse(command: string, argv: readonly string[], options: Record<string, OptionSpec>): ParsedArgs {
  const all: Record<string, OptionSpec> = { help: { type: 'boolean', short: 'h' }, ...options };
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: [...argv],
      options: Object.fromEntries(
        Object.entries(all).map(([k, o]) => [k, { type: o.type, ...(o.short ? { short: o.short } : {}), ...(o.multiple ? { multiple: true } : {}) }]),
      ) as never,
      allowPositionals: true,
      strict: true,
    });
  } catch (e) {
    const err = e as Error & { code?: string | undefined };
    const m = /Unknown option '(-{1,2}[^']+)'/.exec(err.message);
    if (m) {
      const name = m[1].replace(/^-+/, '');
      const hint = suggest(name, Object.keys(all));
      throw new UsageError(`unknown option ${m[1]}${hint ? ` (did you mean --${hint}?)` : ''}`, command);
    }
    const v = /Option '(-[^']+)' argument missing/.exec(err.message) ?? /Option '([^']+)' argument missing/.exec(err.message);
    if (v) throw new UsageError(`option ${v[1].replace(/, .*$/, '')} needs a value`, command);
    throw new UsageError(err.message.replace(/\. To specify.*$/s, ''), command);
  }
  for (const [k, o] of Object.entries(all)) {
    const v = (parsed.values as Record<string, unknown>)[k];
    // `-o ''` (an unset variable, `-o "$OUT"`) would name the current directory, or nothing.
    if (o.type === 'string' && (Array.isArray(v) ? v.includes('') : v === '')) {
      throw new UsageError(`option ${o.short ? `-${o.short}/` : ''}--${k} needs a value; received an empty string`, command);
    }
    if (o.choices && v !== undefined) {
      for (const x of Array.isArray(v) ? v : [v]) {
        if (!o.choices.includes(String(x))) {
          const hint = suggest(String(x), o.choices);
          throw new UsageError(`--${k} must be one of ${o.choices.join(', ')}; received ${JSON.stringify(x)}${hint ? ` (did you mean ${hint}?)` : ''}`, command);
        }
      }
    }
  }
  return { values: parsed.values as ParsedArgs['values'], positionals: parsed.positionals };
}

export function str(a: ParsedArgs, k: string): string | undefined {
  const v = a.values[k];
  return typeof v === 'string' ? v : undefined;
}

export function list(a: ParsedArgs, k: string): string[] {
  const v = a.values[k];
  return Array.isArray(v) ? v : typeof v === 'string' ? [v] : [];
}

export function flag(a: ParsedArgs, k: string): boolean {
  return a.values[k] === true;
}
