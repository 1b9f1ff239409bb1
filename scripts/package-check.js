#!/usr/bin/env node
// `npm run package`: a production build, then the .vsix with @vscode/vsce, then a check of what
// went in. The extension is one esbuild bundle plus tree-sitter .wasm grammars, so the package
// needs no node_modules (--no-dependencies) and .vscodeignore is an allow-list; this script makes
// sure that stays true (nothing from src/, test/, out/, node_modules/, no source maps) and that the
// package stays under 2 MB, which a stray file would quickly break.
//   node scripts/package-check.js [--no-build]
'use strict';
const fs = require('fs');
const path = require('path');
const zlib = require('zlib');
const { ROOT, run } = require('./lib-codeserver');

const LIMIT = 2 * 1024 * 1024;

/** File names and sizes from a zip's central directory (a .vsix is a zip). */
function zipEntries(file) {
  const buf = fs.readFileSync(file);
  let eocd = buf.length - 22;
  while (eocd >= 0 && buf.readUInt32LE(eocd) !== 0x06054b50) eocd--;
  if (eocd < 0) throw new Error(`${file} is not a zip file`);
  const count = buf.readUInt16LE(eocd + 10);
  let at = buf.readUInt32LE(eocd + 16);
  const entries = [];
  for (let i = 0; i < count; i++) {
    if (buf.readUInt32LE(at) !== 0x02014b50) throw new Error('corrupt central directory');
    const compressed = buf.readUInt32LE(at + 20),
      size = buf.readUInt32LE(at + 24);
    const nameLen = buf.readUInt16LE(at + 28),
      extraLen = buf.readUInt16LE(at + 30),
      commentLen = buf.readUInt16LE(at + 32);
    const local = buf.readUInt32LE(at + 42);
    entries.push({
      name: buf.toString('utf8', at + 46, at + 46 + nameLen),
      size,
      compressed,
      local,
      method: buf.readUInt16LE(at + 10),
    });
    at += 46 + nameLen + extraLen + commentLen;
  }
  const read = (e) => {
    // contents of one entry, to check the manifest inside the package
    const start = e.local + 30 + buf.readUInt16LE(e.local + 26) + buf.readUInt16LE(e.local + 28);
    const data = buf.subarray(start, start + e.compressed);
    return e.method === 8 ? zlib.inflateRawSync(data) : data;
  };
  return { entries, read };
}

function main() {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  const out = path.join(ROOT, `${pkg.name}-${pkg.version}.vsix`);
  if (!process.argv.includes('--no-build')) {
    // Minified, without source maps: this is what users run.
    if (run('node', ['scripts/build.mjs', '--production']) !== 0) return fail('build failed');
  }
  fs.rmSync(out, { force: true });
  const vsce = path.join(ROOT, 'node_modules/@vscode/vsce/vsce');
  const args = [vsce, 'package', '--no-dependencies', '--out', out];
  if (run(process.execPath, args, { stdio: ['ignore', 'inherit', 'inherit'] }) !== 0)
    return fail('vsce package failed');

  const { entries, read } = zipEntries(out);
  const files = entries.map((e) => e.name).filter((n) => !n.endsWith('/'));
  const problems = [];
  const need = [
    'extension/package.json',
    'extension/dist/extension.js',
    'extension/readme.md',
    'extension/changelog.md',
    'extension/LICENSE.txt',
    `extension/${pkg.icon}`,
  ];
  const lower = new Set(files.map((f) => f.toLowerCase()));
  for (const f of need) if (!lower.has(f.toLowerCase())) problems.push(`missing ${f}`);
  // Every grammar the build produced must ship: the extension loads them at run time.
  for (const w of fs.readdirSync(path.join(ROOT, 'dist')).filter((f) => f.endsWith('.wasm'))) {
    if (!files.includes(`extension/dist/${w}`)) problems.push(`missing extension/dist/${w}`);
  }
  for (const f of files) {
    if (
      /^extension\/(src|test|out|bench|scripts|examples|node_modules|\.vscode-test|test-output)\//.test(f) ||
      (/\.(map|ts|vsix)$/.test(f) && !f.endsWith('.d.ts')) ||
      /^extension\/dist\/cli\.js$/.test(f)
    ) {
      problems.push(`should not ship: ${f}`);
    }
  }
  const manifest = JSON.parse(read(entries.find((e) => e.name === 'extension/package.json')).toString('utf8'));
  if (!fs.existsSync(path.join(ROOT, manifest.main.replace(/^\.\//, ''))))
    problems.push(`main ${manifest.main} does not exist`);

  const size = fs.statSync(out).size;
  // vsce has listed the files above: only the checks' verdict here.
  console.log(
    `package: ${path.basename(out)}, ${files.length} files, ${(size / 1024).toFixed(1)} KB (${size} bytes; limit ${LIMIT / 1024} KB)`,
  );
  if (size > LIMIT) problems.push(`package is ${size} bytes, over the ${LIMIT}-byte limit`);
  if (problems.length) return fail(problems.join('\n  '));
  console.log(`package: ok ${path.relative(ROOT, out)}`);
  return 0;
}

function fail(why) {
  console.error(`package: FAILED\n  ${why}`);
  return 1;
}

process.exit(main());
