/** Type-checks generated code the way a user's project would: files on disk, `tsc --strict`. */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as ts from 'typescript';

const OPTIONS: ts.CompilerOptions = {
  strict: true,
  noEmit: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.CommonJS,
  lib: ['lib.es2022.d.ts'],
  types: [],
  skipLibCheck: true,
  noUnusedLocals: true,
};

/**
 * Writes `files` (name → source) to a fresh temporary directory, compiles them together and
 * returns each file's diagnostics as `line:column TScode message` strings.
 */
export function typeCheck(files: Record<string, string>, options: ts.CompilerOptions = {}): Record<string, string[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'values-types-'));
  try {
    const rootNames = Object.entries(files).map(([name, text]) => {
      const file = path.join(dir, name);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, text);
      return file;
    });
    const program = ts.createProgram(rootNames, { ...OPTIONS, ...options });
    const result: Record<string, string[]> = {};
    for (const name of Object.keys(files)) result[name] = [];
    for (const d of ts.getPreEmitDiagnostics(program)) {
      const text = ts.flattenDiagnosticMessageText(d.messageText, '\n');
      if (!d.file) throw new Error(`global diagnostic: TS${d.code} ${text}`);
      const { line, character } = d.file.getLineAndCharacterOfPosition(d.start ?? 0);
      const name = path.relative(dir, d.file.fileName);
      (result[name] ??= []).push(`${line + 1}:${character + 1} TS${d.code} ${text}`);
    }
    return result;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
