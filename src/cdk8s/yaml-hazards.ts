/**
 * Strings that cdk8s's YAML writer (the `yaml` package, which `cdk8s synth` writes every object
 * with) writes in a form the file's reader cannot take back as they were. The CLI's own writer
 * (`src/model/wire/yaml.ts`) quotes and escapes all of them; cdk8s's cannot be told to, so an
 * output refuses them at synth, with the field, rather than write a file that fails or means
 * something else where it is applied.
 */
import * as cdk8s from 'cdk8s';

/** Who reads the synthesized file. */
export type YamlReader =
  /** `armada apply` (Armada documents): PyYAML, YAML 1.1. */
  | 'pyyaml'
  /** kubectl and the Kubernetes API (custom resources): go-yaml, YAML 1.1 merge keys included. */
  | 'go-yaml';

/** One string the reader would not read back, at its path (`data.values.a.b`, `values[0]`). */
export interface YamlHazard {
  readonly field: string;
  readonly message: string;
}

const READER_NAME: Record<YamlReader, string> = {
  pyyaml: 'PyYAML (armada apply)',
  'go-yaml': 'go-yaml (kubectl, the Kubernetes API)',
};

// Both readers refuse these anywhere in a file ("special characters are not allowed").
const REFUSED = /[\u007f-\u0084\u0086-\u009f\ufffe\uffff]/;
// YAML 1.1 line breaks, which cdk8s writes as they are: inside quotes both readers fold them into
// a space; in a plain key they end it.
const BREAK = /[\u0085\u2028\u2029]/;
const BREAK_NAME: Record<string, string> = { '\u0085': 'NEL (next line)', '\u2028': 'a line separator', '\u2029': 'a paragraph separator' };

/**
 * The strings and keys under `v` that `reader` would refuse or read differently once cdk8s has
 * written them. `instead` says what writes them safely (e.g. `armada-cdk convert --to flux-v2`).
 */
export function yamlHazards(v: unknown, path: string, reader: YamlReader, instead: string): YamlHazard[] {
  const out: YamlHazard[] = [];
  const check = (s: string, at: string, isKey: boolean) => {
    const message = hazard(s, reader, isKey);
    if (message !== undefined) out.push({ field: at, message: `${message}; write these ${reader === 'pyyaml' ? 'documents' : 'objects'} with \`${instead}\` instead, which quotes and escapes it, or leave it out` });
  };
  const walk = (x: unknown, at: string): void => {
    if (typeof x === 'string') check(x, at, false);
    else if (Array.isArray(x)) x.forEach((item, i) => walk(item, `${at}[${i}]`));
    else if (x !== null && typeof x === 'object') {
      for (const [k, item] of Object.entries(x)) {
        check(k, `${at}.${k}`, true);
        walk(item, `${at}.${k}`);
      }
    }
  };
  walk(v, path);
  return out;
}

function hazard(s: string, reader: YamlReader, isKey: boolean): string | undefined {
  const what = isKey ? 'the key' : 'the string';
  if (s === '<<') {
    return `${what} "<<" is written unquoted by cdk8s's YAML writer, and ${READER_NAME[reader]} reads it as a YAML 1.1 merge key`;
  }
  if (s === '=' && reader === 'pyyaml') {
    return `${what} "=" is written unquoted by cdk8s's YAML writer, and ${READER_NAME[reader]} cannot read it back (it is the YAML 1.1 value key)`;
  }
  const refused = REFUSED.exec(s);
  if (refused) return `${what} holds ${codePoint(refused[0])}, which cdk8s's YAML writer writes as it is, and ${READER_NAME[reader]} refuses a file with it ("special characters are not allowed")`;
  const brk = BREAK.exec(s);
  if (brk) return `${what} holds ${BREAK_NAME[brk[0]]} (${codePoint(brk[0])}), which cdk8s's YAML writer writes as it is, and ${READER_NAME[reader]} reads it as a line break: the ${isKey ? 'key' : 'value'} would change or the file would not load`;
  if (reader === 'pyyaml' && s.includes('\t') && !s.includes('\n') && writtenPlain(s, isKey)) {
    return `${what} holds a tab, which cdk8s's YAML writer leaves in a plain scalar, and ${READER_NAME[reader]} cannot read a tab there ("found character '\\t' that cannot start any token")`;
  }
  return undefined;
}

/** Whether cdk8s writes `s` unquoted (the `yaml` package decides, by rules of its own). */
function writtenPlain(s: string, isKey: boolean): boolean {
  const text = cdk8s.Yaml.stringify(isKey ? { [s]: 0 } : { k: s });
  const first = isKey ? text.charAt(0) : text.charAt(3);
  return first !== '"' && first !== "'" && first !== '?';
}

function codePoint(c: string): string {
  return `U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
}
