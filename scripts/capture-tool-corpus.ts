/**
 * Lists the tools of the real npm servers in the test set (server-everything, server-filesystem,
 * server-memory) once and saves them as the fixed ranking corpus of tool search's tests:
 *
 *   node --import tsx scripts/capture-tool-corpus.ts
 *
 * Written to bench/fixtures/real-tools.json. Run again only when those servers are
 * upgraded (and check the ranking test's queries still name tools that exist).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const require = createRequire(import.meta.url);

function entryOf(pkg: string, file: string): string {
  return join(dirname(require.resolve(`${pkg}/package.json`)), file);
}

async function listTools(args: string[]): Promise<unknown[]> {
  const client = new Client({ name: 'berth-corpus', version: '1.0.0' }, { capabilities: {} });
  await client.connect(new StdioClientTransport({ command: process.execPath, args, stderr: 'ignore' }));
  try {
    const { tools } = await client.listTools();
    // Only what tool search reads and sends: the rest (annotations, _meta) would tie the fixture to a version for nothing.
    return tools.map(({ name, title, description, inputSchema }) => ({
      name,
      ...(title !== undefined ? { title } : {}),
      ...(description !== undefined ? { description } : {}),
      inputSchema,
    }));
  } finally {
    await client.close();
  }
}

const root = await mkdtemp(join(tmpdir(), 'berth-corpus-'));
try {
  const corpus = {
    everything: await listTools([entryOf('@modelcontextprotocol/server-everything', 'dist/index.js'), 'stdio']),
    filesystem: await listTools([entryOf('@modelcontextprotocol/server-filesystem', 'dist/index.js'), root]),
    memory: await listTools([entryOf('@modelcontextprotocol/server-memory', 'dist/index.js')]),
  };
  const out = join(import.meta.dirname, '..', 'bench', 'fixtures', 'real-tools.json');
  await writeFile(out, `${JSON.stringify(corpus, null, 2)}\n`);
  process.stdout.write(
    `${Object.entries(corpus)
      .map(([server, tools]) => `${server}: ${tools.length}`)
      .join(', ')} → ${out}\n`,
  );
} finally {
  await rm(root, { recursive: true, force: true });
}
