// Names the site's script, wasm and stylesheet by a hash of their content
// and, with --compress, stores brotli (quality 11) and gzip (level 9)
// copies beside each, for the server to send as they are. Writes the
// hashes to {site}/hash.txt (the buyer's bundle) and hash-console.txt (the
// console's), where the server (and Leptos) read the names.
//
//   node scripts/site-assets.js target/site [--compress]
const crypto = require('crypto');
const fs = require('fs');
const path = require('path');
const zlib = require('zlib');

const site = process.argv[2];
const compress = process.argv.includes('--compress');
const pkg = path.join(site, 'pkg');

// Earlier builds' hashed files go: only the current ones are served.
for (const f of fs.readdirSync(pkg)) {
  if (/^holdfast(-console)?\.[0-9a-f]{16}\./.test(f)) fs.rmSync(path.join(pkg, f));
}

// The buyer's bundle (hash.txt) and the console's (hash-console.txt, the
// same stylesheet).
const bundles = [
  { name: 'holdfast', hashFile: 'hash.txt', exts: ['js', 'wasm', 'css'] },
  { name: 'holdfast-console', hashFile: 'hash-console.txt', exts: ['js', 'wasm'] },
];
for (const bundle of bundles) {
  const lines = [];
  for (const ext of bundle.exts) {
    const body = fs.readFileSync(path.join(pkg, `${bundle.name}.${ext}`));
    const hash = crypto.createHash('sha256').update(body).digest('hex').slice(0, 16);
    const named = path.join(pkg, `${bundle.name}.${hash}.${ext}`);
    fs.writeFileSync(named, body);
    if (compress) {
      const br = zlib.brotliCompressSync(body, {
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
        },
      });
      fs.writeFileSync(`${named}.br`, br);
      fs.writeFileSync(`${named}.gz`, zlib.gzipSync(body, { level: 9 }));
      console.log(`${path.basename(named)}: ${body.length} bytes, ${br.length} brotli`);
    } else {
      console.log(`${path.basename(named)}: ${body.length} bytes`);
    }
    lines.push(`${ext}: ${hash}`);
  }
  fs.writeFileSync(path.join(site, bundle.hashFile), lines.join('\n') + '\n');
}
