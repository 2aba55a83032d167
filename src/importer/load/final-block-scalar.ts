/**
 * A block scalar that ends a stream whose last line has no line break (`content: |` then the text,
 * and no newline at the end of the file). PyYAML keeps only the line breaks the text has; js-yaml
 * adds one at the end of the input before it reads it (so does the `yaml` package's reading), so
 * that its value has one more: `x\n` where PyYAML reads `x` (clip and keep chomping, `|`, `>`,
 * `|+`, when the last line is content; for js-yaml, keep chomping after a blank last line too:
 * `x\n\n` where PyYAML reads `x\n`). Strip chomping
 * (`|-`) reads alike. The value is made PyYAML's as the node is built.
 */
import { skipProperties, skipSeparation } from './yaml-text';

/** The part of js-yaml's parser state the listener reads and changes. */
interface ScalarState {
  readonly position: number;
  readonly kind: string | null;
  result: unknown;
}

/** Whether `text`, a stream's last chunk, may end in a block scalar that js-yaml reads with one line break too many. */
export function mayEndInBlockScalar(text: string): boolean {
  return text.length > 0 && !text.endsWith('\n') && (text.includes('|') || text.includes('>'));
}

/**
 * PyYAML's value of a block scalar whose header starts at `header` of `text` and whose content
 * runs to the end of `text`, from the value read with a line break added at the end: one line
 * break less, or the same.
 */
export function finalBlockScalarValue(text: string, header: number, value: string, reader: 'js-yaml' | 'yaml' = 'js-yaml'): string {
  if (text.endsWith('\n') || !value.endsWith('\n')) return value;
  const indicator = text.charCodeAt(header);
  if (indicator !== 0x7c /* | */ && indicator !== 0x3e /* > */) return value;
  let end = header + 1;
  while (end < text.length && !' \t\n#'.includes(text[end])) end++;
  const chomping = text.slice(header + 1, end);
  if (chomping.includes('-')) return value;
  // js-yaml's added line break always counts for keep chomping; the yaml package's, like clip's, only after a content line.
  if (chomping.includes('+') && reader === 'js-yaml') return value.slice(0, -1);
  const lastLine = text.slice(text.lastIndexOf('\n') + 1);
  return /[^ \t]/.test(lastLine) ? value.slice(0, -1) : value;
}

/** A js-yaml `listener` that gives the block scalar ending `text` ({@link mayEndInBlockScalar}) PyYAML's value. */
export function finalBlockScalarListener(text: string): (event: 'open' | 'close', state: ScalarState) => void {
  const opened: number[] = [];
  let done = false;
  return (event, state) => {
    if (event === 'open') {
      opened.push(state.position);
      return;
    }
    const open = opened.pop() ?? 0;
    // Only the node that reaches the end of the input, once (a node around it ends there too).
    if (done || state.position < text.length || state.kind !== 'scalar' || typeof state.result !== 'string') return;
    done = true;
    state.result = finalBlockScalarValue(text, skipProperties(text, skipSeparation(text, open)), state.result);
  };
}
