import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, arch, platform, release, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ClientCapabilities } from '@modelcontextprotocol/client';
import { findBrowser } from '../../app/cli/find-browser';
import { BERTH_VERSION } from '../../app/host';
import { observeBare, type BareIdentity } from './bare-run';
import { observeBerth } from './berth-run';
import { REAL_SERVERS, versionOf } from './catalog';
import type { RealServer, RunPlaces } from './catalog';
import { judge } from './judge';
import { anyDifference, renderReport, type ReportRow } from './report';

// One run of `npm run test:servers` once the servers are installed: the places both sides share, Berth's side (all
// servers in one host), then the bare clients (all in parallel, declaring what Berth declared), judged and reported.

/** Files the read-only calls read: the same for both sides, so equal results mean equal behaviour. */
async function makePlaces(installDir: string): Promise<{ places: RunPlaces; cleanup(): Promise<void> }> {
  const root = await mkdtemp(join(tmpdir(), 'berth-test-servers-'));
  const filesDir = join(root, 'files');
  const repoDir = join(root, 'repo');
  const outputDir = join(root, 'output');
  await mkdir(filesDir);
  await mkdir(repoDir);
  await mkdir(outputDir);
  await writeFile(join(filesDir, 'notes.md'), '# Notes\n\nBerth compares itself with a bare client.\n');
  await writeFile(join(filesDir, 'data.json'), '{"servers": 9}\n');
  const memoryFile = join(root, 'memory.jsonl');
  await writeFile(
    memoryFile,
    `${JSON.stringify({ type: 'entity', name: 'Berth', entityType: 'app', observations: ['an MCP host'] })}\n`,
  );
  const kubeconfig = join(root, 'kubeconfig.yaml');
  await writeFile(
    kubeconfig,
    [
      'apiVersion: v1',
      'kind: Config',
      'clusters: [{ name: nowhere, cluster: { server: "https://127.0.0.1:9" } }]',
      'users: [{ name: nobody, user: { token: none } }]',
      'contexts: [{ name: nowhere, context: { cluster: nowhere, user: nobody } }]',
      'current-context: nowhere',
      '',
    ].join('\n'),
  );
  await writeFile(join(repoDir, 'README.md'), 'A repository for the git server.\n');
  // A fixed author and date: the commit (and its hash) is the same on every run.
  const gitEnv = {
    ...process.env,
    GIT_AUTHOR_NAME: 'Berth',
    GIT_AUTHOR_EMAIL: 'berth@example.invalid',
    GIT_COMMITTER_NAME: 'Berth',
    GIT_COMMITTER_EMAIL: 'berth@example.invalid',
    GIT_AUTHOR_DATE: '2026-01-01T00:00:00Z',
    GIT_COMMITTER_DATE: '2026-01-01T00:00:00Z',
  };
  for (const args of [
    ['init', '-q', '-b', 'main'],
    ['add', '.'],
    ['commit', '-q', '-m', 'First commit'],
  ])
    execFileSync('git', args, { cwd: repoDir, env: gitEnv, stdio: 'ignore' });
  const browser = findBrowser();
  return {
    places: {
      installDir,
      filesDir,
      repoDir,
      memoryFile,
      kubeconfig,
      outputDir,
      browser: browser.kind === 'found' ? browser.path : undefined,
    },
    cleanup: () => rm(root, { recursive: true, force: true }),
  };
}

/** Runs every server of the catalog; resolves with the report's Markdown and whether Berth differed anywhere. */
export async function runRealServers(
  installDir: string,
  only: readonly string[] = [],
): Promise<{ markdown: string; differs: boolean }> {
  const began = Date.now();
  const { places, cleanup } = await makePlaces(installDir);
  try {
    const chosen = REAL_SERVERS.filter((server) => only.length === 0 || only.includes(server.name));
    // A package missing from the install (a lockfile edited by hand) is reported, not a reason to stop the others.
    const skipReason = (server: RealServer): string | undefined =>
      versionOf(installDir, server.pkg) === undefined
        ? `not installed (run npm ci in ${installDir})`
        : server.unavailable?.(places);
    const rows: ReportRow[] = chosen.map((server) => ({
      server: server.name,
      pkg: server.pkg,
      version: versionOf(installDir, server.pkg) ?? '–',
      tool: server.call(places).tool,
      skipped: skipReason(server),
    }));
    const runnable = chosen.filter((server) => skipReason(server) === undefined);
    const plans = runnable.map((server) => ({
      name: server.name,
      start: server.start(places),
      call: server.call(places),
    }));
    say(`Berth: starting ${plans.length} servers in one host…`);
    const berth = await observeBerth(plans);
    for (const plan of plans)
      say(
        `${plan.name}: Berth declared ${Object.keys(berth.capabilities.get(plan.name) ?? {}).join(', ') || 'no capabilities'}`,
      );
    say('bare SDK clients: starting the same servers…');
    const identityFor = (name: string): BareIdentity => ({
      clientInfo: { name: 'Berth', version: BERTH_VERSION },
      capabilities: (berth.capabilities.get(name) ?? {}) as ClientCapabilities,
    });
    const bare = await Promise.all(plans.map((plan) => observeBare(plan.start, plan.call, identityFor(plan.name))));
    // A bare client that did not get ready where Berth did is tried again, alone: on a loaded machine (two cores, other
    // work) thirteen cold starts at once can starve its handshake, and the baseline should be what a bare client can
    // do, not what the load did. Berth is not given that second chance: its failures stay as they were.
    for (const [index, plan] of plans.entries()) {
      if (bare[index]?.ready !== false || berth.observations.get(plan.name)?.ready !== true) continue;
      say(`${plan.name}: the bare client did not get ready (${bare[index]?.failure ?? '?'}); trying it again alone`);
      bare[index] = await observeBare(plan.start, plan.call, identityFor(plan.name));
    }
    for (const [index, plan] of plans.entries()) {
      const row = rows.find((candidate) => candidate.server === plan.name);
      const server = runnable[index];
      const berthSaw = berth.observations.get(plan.name);
      const bareSaw = bare[index];
      if (row === undefined || server === undefined || berthSaw === undefined || bareSaw === undefined) continue;
      row.berth = berthSaw;
      row.bare = bareSaw;
      row.verdict = judge(bareSaw, berthSaw, server.masks);
      say(
        `${plan.name}: ${row.verdict.kind}${row.verdict.kind === 'different' ? ` — ${row.verdict.differences.join('; ')}` : ''}`,
      );
    }
    const markdown = renderReport(rows, {
      when: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
      where: `${platform()} ${release()} ${arch()}, Node ${process.version}, ${availableParallelism()} cores${places.browser === undefined ? '' : `, browser ${places.browser}`}`,
      seconds: Math.round((Date.now() - began) / 1000),
    });
    return { markdown, differs: anyDifference(rows) };
  } finally {
    await cleanup();
  }
}

function say(line: string): void {
  process.stderr.write(`test:servers: ${line}\n`);
}
