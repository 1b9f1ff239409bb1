/** The package's version, from its package.json (beside dist/ when installed, two levels up from out/src/cli/). */
import { readFileSync } from 'fs';
import * as path from 'path';

export function packageVersion(): string {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    const found = versionIn(path.join(dir, 'package.json'));
    if (found) return found;
    if (path.dirname(dir) === dir) return 'unknown';
  }
}

function versionIn(file: string): string | undefined {
  try {
    const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: unknown; version?: unknown };
    return pkg.name === 'attention-lens' && typeof pkg.version === 'string' ? pkg.version : undefined;
  } catch {
    return undefined;
  }
}
