#!/usr/bin/env node
// The registry mirror on our machines serves platform-specific optional packages only for this
// platform (e.g. @swc/core-darwin-arm64 is a 404), so `npm install` leaves them out of
// package-lock.json and `npm ci` then refuses the lock as out of sync. This adds an entry for each
// missing one, marked with its os/cpu/libc: npm ci skips such entries on other platforms, so they
// are never downloaded here, and a full registry installs them where they apply.
// Run after any `npm install` that changes the lock: node .ci/complete-lockfile.js
const fs = require('node:fs');
const path = require('node:path');

const lockPath = path.join(__dirname, '..', 'package-lock.json');
const lock = JSON.parse(fs.readFileSync(lockPath, 'utf8'));
const OPERATING_SYSTEMS = ['darwin', 'linux', 'win32', 'android', 'freebsd', 'openharmony', 'netbsd', 'openbsd', 'sunos', 'aix'];
const CPUS = ['arm64', 'x64', 'arm', 'ia32', 'ppc64', 's390x', 'loong64', 'riscv64', 'mips64el'];

function platformOf(name) {
  const tokens = name.split('/').pop().split('-');
  const os = tokens.find((token) => OPERATING_SYSTEMS.includes(token));
  const cpu = tokens.find((token) => CPUS.includes(token));
  if (!os || !cpu) return null;
  const libc = tokens.some((token) => token.startsWith('musl')) ? 'musl' : tokens.some((token) => token.startsWith('gnu')) ? 'glibc' : null;
  return { os: [os], cpu: [cpu], ...(libc && os === 'linux' ? { libc: [libc] } : {}) };
}

let added = 0;
for (const [location, entry] of Object.entries(lock.packages)) {
  for (const [name, spec] of Object.entries(entry.optionalDependencies ?? {})) {
    const nested = `${location ? `${location}/` : ''}node_modules/${name}`;
    if (lock.packages[nested] || lock.packages[`node_modules/${name}`]) continue;
    const platform = platformOf(name);
    if (!platform || !/^\d+\.\d+\.\d+/.test(spec)) continue;
    lock.packages[`node_modules/${name}`] = { version: spec, ...platform, optional: true };
    added++;
  }
}
lock.packages = Object.fromEntries(Object.entries(lock.packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))));
fs.writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`Added ${added} foreign-platform optional packages to package-lock.json`);
