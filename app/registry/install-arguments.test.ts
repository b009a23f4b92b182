import { describe, expect, it } from 'vitest';
import { buildInstall, installOptions } from './install-plan';
import { parseServerResponse, type ServerDetail } from './server-json';

// Entries shaped as publishers write them for the official registry (and for VS Code, which takes
// runtime arguments as given): positional, named-with-value and bare named flags mixed, in order.
const detail = (pkg: Record<string, unknown>): ServerDetail =>
  parseServerResponse({
    server: {
      name: 'io.github.x/y',
      description: 'd',
      version: '1.0.0',
      packages: [{ transport: { type: 'stdio' }, ...pkg }],
    },
  }).server;
const context = { registryUrl: 'https://registry.example.com' };

function argv(server: ServerDetail, values: Record<string, string> = {}): string[] {
  const built = buildInstall(server, 0, values, context);
  if (!built.ok) throw new Error(JSON.stringify(built.errors));
  return [built.config.command ?? '', ...built.config.args];
}

describe('the command line of a registry entry, argument by argument', () => {
  it('oci: the entry’s own `run -i --rm` is kept once, so docker reads the image as the image', () => {
    const server = detail({
      registryType: 'oci',
      identifier: 'docker.io/acme/files-mcp',
      version: '2.1.0',
      runtimeHint: 'docker',
      runtimeArguments: [
        { type: 'positional', value: 'run' },
        { type: 'named', name: '-i' },
        { type: 'named', name: '--rm' },
        { type: 'named', name: '--network', value: 'none' },
        {
          type: 'named',
          name: '--mount',
          value: 'type=bind,src={source},dst=/data',
          variables: { source: { isRequired: true, format: 'filepath' } },
        },
      ],
      packageArguments: [
        { type: 'positional', value: 'serve' },
        { type: 'named', name: '--read-only' },
        { type: 'named', name: '--root', value: '/data' },
      ],
      environmentVariables: [{ name: 'LOG_LEVEL', default: 'info' }],
    });
    // Bare flags ask nothing: the mount's source and the variable are the only fields.
    expect(installOptions(server)[0]?.fields.map((field) => field.id)).toEqual([
      'arg:runtime:4:var:source',
      'env:LOG_LEVEL',
    ]);
    expect(argv(server, { 'arg:runtime:4:var:source': '/home/p/data' })).toEqual([
      'docker',
      'run',
      '-i',
      '--rm',
      '--network',
      'none',
      '--mount',
      'type=bind,src=/home/p/data,dst=/data',
      '-e',
      'LOG_LEVEL',
      'docker.io/acme/files-mcp:2.1.0',
      'serve',
      '--read-only',
      '--root',
      '/data',
    ]);
  });

  it('oci without its own `run`: Berth’s `run -i --rm` comes first, then the entry’s flags in order', () => {
    const server = detail({
      registryType: 'oci',
      identifier: 'ghcr.io/acme/db-mcp',
      version: '3.1.0',
      runtimeArguments: [
        { type: 'named', name: '--read-only' },
        { type: 'named', name: '--user', value: '1000' },
      ],
    });
    expect(argv(server)).toEqual([
      'docker',
      'run',
      '-i',
      '--rm',
      '--read-only',
      '--user',
      '1000',
      'ghcr.io/acme/db-mcp:3.1.0',
    ]);
  });

  it('npm: runtime flags before the package, package arguments after it, positional and named interleaved as listed', () => {
    const server = detail({
      registryType: 'npm',
      identifier: '@acme/fs-mcp',
      version: '0.4.2',
      runtimeArguments: [
        { type: 'named', name: '--prefer-offline' },
        { type: 'named', name: '--node-options', value: '--max-old-space-size=512' },
      ],
      packageArguments: [
        { type: 'named', name: '--stdio' },
        { type: 'positional', valueHint: 'root', isRequired: true, format: 'filepath' },
        { type: 'named', name: '--depth', format: 'number', default: '3' },
        { type: 'positional', value: 'extra' },
      ],
    });
    expect(installOptions(server)[0]?.fields.map((field) => field.label)).toEqual(['root', '--depth']);
    expect(argv(server, { 'arg:package:1': '/srv' })).toEqual([
      'npx',
      '--prefer-offline',
      '--node-options',
      '--max-old-space-size=512',
      '-y',
      '@acme/fs-mcp@0.4.2',
      '--stdio',
      '/srv',
      '--depth',
      '3',
      'extra',
    ]);
  });

  it('pypi: a repeated positional takes one value per line, a repeated named flag repeats its name', () => {
    const server = detail({
      registryType: 'pypi',
      identifier: 'mcp-server-git',
      version: '0.6.2',
      packageArguments: [
        { type: 'named', name: '-v' },
        {
          type: 'named',
          name: '--repository',
          description: 'A repository to serve',
          isRepeated: true,
          isRequired: true,
        },
        { type: 'positional', valueHint: 'path', description: 'More folders', isRepeated: true },
      ],
    });
    const fields = installOptions(server)[0]?.fields ?? [];
    expect(fields.map((field) => [field.id, field.repeated])).toEqual([
      ['arg:package:1', true],
      ['arg:package:2', true],
    ]);
    expect(argv(server, { 'arg:package:1': '/a\n /b \n\n', 'arg:package:2': 'x\ny' })).toEqual([
      'uvx',
      'mcp-server-git==0.6.2',
      '-v',
      '--repository',
      '/a',
      '--repository',
      '/b',
      'x',
      'y',
    ]);
    expect(argv(server, { 'arg:package:1': '/only' })).toEqual([
      'uvx',
      'mcp-server-git==0.6.2',
      '-v',
      '--repository',
      '/only',
    ]);
    const missing = buildInstall(server, 0, {}, context);
    expect(missing.ok ? [] : missing.errors).toEqual([{ field: 'arg:package:1', message: 'Enter --repository' }]);
  });

  it('checks each value of a repeated argument on its own', () => {
    const server = detail({
      registryType: 'npm',
      identifier: 'srv',
      version: '1.0.0',
      packageArguments: [{ type: 'named', name: '--port', format: 'number', isRepeated: true }],
    });
    const built = buildInstall(server, 0, { 'arg:package:0': '80\neighty' }, context);
    expect(built.ok ? [] : built.errors).toEqual([{ field: 'arg:package:0', message: '--port must be a number' }]);
  });
});
