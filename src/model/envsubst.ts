/**
 * Whether a `${VAR}` of a string was meant for `envsubst` before Armada read it, or is text for
 * another program that expands it when it runs (a script, a configuration template): what
 * `validate` warns about as unexpanded, and what the Flux target keeps as a placeholder for
 * kustomize-controller's post-build substitution. Pure.
 */

/** `${NAME}`, as envsubst expands it. */
export const PLACEHOLDER = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

export type WirePath = readonly (string | number)[];

/** Keys whose values are programs or templates that their own runtime expands. */
const RUNTIME_KEY = /^(?:command|commands|args|script|scripts|template|templates|exec|entrypoint|lifecycle|content|contents)$|(?:[-_]script|Script|[-_]template|Template|\.sh|\.conf|\.tpl)$/;
/** A command line (a shell expands it when it runs). */
const SHELL_LINE = /(?:^|\s)(?:echo|export|exec|eval|sh|bash|set|if|for|test)\s|\$\(|&&|\|\||;\s|\s\|\s|`/;

/**
 * Whether a `${...}` of `value` was plausibly meant for envsubst before Armada: not in a
 * multi-line text (a script or configuration file), not under a key that holds a program or a
 * template, not when every name is lower case (fluentd and fluent-bit record fields), not in a
 * shell command line.
 */
export function envsubstMeant(path: WirePath, value: string, names: readonly string[]): boolean {
  if (value.includes('\n')) return false;
  if (path.some((s) => typeof s === 'string' && RUNTIME_KEY.test(s))) return false;
  if (names.every((n) => n === n.toLowerCase())) return false;
  return !SHELL_LINE.test(value);
}
