import * as fs from 'fs';
import * as path from 'path';

/**
 * Writes files all or nothing: everything is written to temporary files beside the targets first,
 * then renamed into place; if anything fails, the temporaries are removed and the directory is
 * left as it was.
 */
export function writeFilesAtomically(files: readonly { path: string; content: string }[]): void {
  const temps: { tmp: string; final: string }[] = [];
  try {
    for (const f of files) {
      fs.mkdirSync(path.dirname(f.path), { recursive: true });
      const tmp = path.join(path.dirname(f.path), `.${path.basename(f.path)}.${process.pid}.tmp`);
      fs.writeFileSync(tmp, f.content);
      temps.push({ tmp, final: f.path });
    }
  } catch (e) {
    for (const t of temps) fs.rmSync(t.tmp, { force: true });
    throw e;
  }
  for (const t of temps) fs.renameSync(t.tmp, t.final);
}
