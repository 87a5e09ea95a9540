// The registry here lacks some platform builds that packages list as optional dependencies (today:
// @unrs/resolver-binding-* for other platforms, pulled in by Jest 30). `npm install` then leaves them
// out of package-lock.json and `npm ci` refuses the lock ("Missing: … from lock file"). This adds each
// missing optional package as an entry for its own os/cpu, so npm ci skips it on this platform.
// Run after any `npm install` that rewrites the lock: node .ci/repair-lockfile.mjs
import { readFileSync, writeFileSync } from 'node:fs';

const OSES = ['android', 'darwin', 'freebsd', 'linux', 'openharmony', 'win32', 'netbsd', 'openbsd', 'sunos', 'aix'];
const CPUS = ['arm64', 'arm', 'x64', 'ia32', 'loong64', 'ppc64', 'riscv64', 's390x', 'mips64el', 'wasm32'];
const part = (name, list) => list.find((p) => new RegExp(`[-/]${p}(?:-|$)`).test(name));

const file = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(file, 'utf8'));
const added = [];
for (const [path, entry] of Object.entries(lock.packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const nested = `${path ? `${path}/` : ''}node_modules/${name}`;
    if (lock.packages[nested] || lock.packages[`node_modules/${name}`]) continue;
    const os = part(name, OSES);
    const cpu = part(name, CPUS);
    if (!os && !cpu) continue; // not a platform build: leave it for npm to report
    lock.packages[`node_modules/${name}`] = { version, ...(cpu ? { cpu: [cpu] } : {}), dev: entry.dev, optional: true, ...(os ? { os: [os] } : {}) };
    added.push(name);
  }
}
const sorted = {};
for (const key of Object.keys(lock.packages).sort((a, b) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b)))) sorted[key] = lock.packages[key];
lock.packages = sorted;
writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(added.length ? `added ${added.length} platform-only optional entries: ${added.join(', ')}` : 'lockfile already complete');
