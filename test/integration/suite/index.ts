// Entry point that VS Code's extension host loads for --extensionTestsPath (this folder's index.js).
// VS Code calls run() once the workbench and the extension under development are up; a rejected
// promise makes the extension host exit with code 1.
import * as fs from 'fs';
import * as path from 'path';
import Mocha from 'mocha';

export function run(): Promise<void> {
  const mocha = new Mocha({
    ui: 'tdd',
    color: false, // output is relayed line by line through the browser console
    timeout: 60000, // first hover/lens request may wait for the extension to load its parsers
    reporter: 'spec',
    diff: false, // node's assert messages already carry an actual/expected diff
    grep: process.env.ATTENTION_LENS_GREP, // run a subset: ATTENTION_LENS_GREP=notebook npm run test:integration
  });
  for (const f of fs.readdirSync(__dirname).sort()) {
    if (f.endsWith('.test.js')) mocha.addFile(path.join(__dirname, f));
  }
  return new Promise((resolve, reject) => {
    try {
      const runner = mocha.run((failures) => {
        // Machine-readable counts for scripts/code-shim.js, which prints the closing line.
        const { passes, pending } = runner.stats ?? { passes: 0, pending: 0 };
        console.log(`MOCHA_RESULT ${JSON.stringify({ passes, failures, pending })}`);
        if (failures > 0) reject(new Error(`${failures} tests failed.`));
        else resolve();
      });
    } catch (err) {
      reject(err);
    }
  });
}
