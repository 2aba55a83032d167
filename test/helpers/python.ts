import { spawnSync } from 'child_process';

const checked = new Map<string, boolean>();

/**
 * Whether `python3` can import `module`, for the cross-checks against Armada's own libraries
 * (PyYAML, jsonschema). Where the cross-checks are required (CI sets `CI` or
 * `ARMADA_CDK_REQUIRE_PYTHON`), a missing module throws, so that the suite fails instead of
 * passing without them; elsewhere the skip is printed with the number of tests it costs.
 */
export function havePythonModule(module: 'yaml' | 'jsonschema', skippedTests: number, what: string): boolean {
  let ok = checked.get(module);
  if (ok === undefined) {
    ok = spawnSync('python3', ['-c', `import ${module}`], { encoding: 'utf8' }).status === 0;
    checked.set(module, ok);
  }
  if (ok) return true;
  const debian = module === 'yaml' ? 'python3-yaml' : 'python3-jsonschema';
  if (process.env.CI || process.env.ARMADA_CDK_REQUIRE_PYTHON) {
    throw new Error(`python3 cannot import ${module}, and the ${what} cross-check is required here (CI); install it (Debian: apt-get install -y ${debian}; .ci/run does)`);
  }
  // eslint-disable-next-line no-console
  console.warn(`SKIPPED ${skippedTests} test${skippedTests === 1 ? '' : 's'}: the ${what} cross-check needs python3 with ${module} (Debian: ${debian})`);
  return false;
}
