// `npm run test:servers`: popular real MCP servers from npm, all started in one Berth host and each compared with a
// bare MCP SDK client on the same command (ready, era, tools and their schemas, one read-only call). Not part of
// `npm test`: it installs servers and starts browsers. Runs with tsx loaded (`node --import tsx scripts/test-servers.mjs`).
//
//   npm run test:servers            run, write docs/COMPATIBILITY.md, exit 1 when Berth differs from the bare client
//   npm run test:servers -- --check run without writing the table (printed instead)
//   npm run test:servers -- git apps only the servers named (their names in the table); the table is printed, not written
//
// The servers are pinned, with their whole dependency tree, in tools/real-servers (package.json and lockfile). They
// are installed on first use (npm ci, once per lockfile, install scripts off: nothing is downloaded but the packages)
// into node_modules/.cache/berth-real-servers, apart from Berth's own dependencies. The browser servers use the
// machine's Chromium, found as the e2e tests find it (app/cli/browser-lookup.mjs); without one they are reported as
// not run. A server that fails in Berth AND in the bare client is reported as such and does not fail the run.
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { installToolsOnce } from './tools-install.mjs';
import { REAL_SERVERS } from './real-servers/catalog.ts';
import { runRealServers } from './real-servers/run.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pinned = join(root, 'tools', 'real-servers');
const installDir = join(root, 'node_modules', '.cache', 'berth-real-servers');
const reportFile = join(root, 'docs', 'COMPATIBILITY.md');

const args = process.argv.slice(2);
const only = args.filter((arg) => arg !== '--check');
// A partial run never overwrites the whole table.
const check = args.includes('--check') || only.length > 0;
const names = REAL_SERVERS.map((server) => server.name);
for (const arg of only) {
  if (!names.includes(arg)) {
    process.stderr.write(
      `test:servers: ${arg} is neither --check nor a server (${names.join(', ')})\nusage: npm run test:servers [-- --check] [server…]\n`,
    );
    process.exit(2);
  }
}

mkdirSync(installDir, { recursive: true });
for (const file of ['package.json', 'package-lock.json', '.npmrc'])
  copyFileSync(join(pinned, file), join(installDir, file));
const failed = installToolsOnce(installDir, 'test:servers: installing the pinned real servers (tools/real-servers)…');
if (failed !== undefined) {
  process.stderr.write(`test:servers: ${failed}; check the network to the npm registry and run again\n`);
  process.exit(1);
}

const { markdown, differs } = await runRealServers(installDir, only);
if (!check) {
  writeFileSync(reportFile, markdown);
  process.stderr.write(`test:servers: wrote ${reportFile}\n`);
} else {
  process.stdout.write(markdown);
}
if (differs) {
  process.stderr.write('test:servers: Berth differs from the bare SDK client (see the table)\n');
  process.exit(1);
}
// Servers' handles (a browser's pipes) must not keep the run alive once everything is closed.
process.exit(0);
