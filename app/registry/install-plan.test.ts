import { describe, expect, it } from 'vitest';
import { buildInstall, installOptions } from './install-plan';
import { parseServerResponse, type ServerDetail } from './server-json';

const detail = (server: Record<string, unknown>): ServerDetail =>
  parseServerResponse({ server: { name: 'io.github.x/y', description: 'd', version: '1.0.0', ...server } }).server;
const context = { registryUrl: 'https://registry.example.com' };

describe('install options and configs from a server.json', () => {
  it('npm: npx -y name@version with runtime and package arguments, env and secrets marked', () => {
    const server = detail({
      packages: [
        {
          registryType: 'npm',
          identifier: '@scope/server',
          version: '2.0.1',
          transport: { type: 'stdio' },
          runtimeArguments: [{ type: 'named', name: '--prefer-offline', value: '' }],
          packageArguments: [
            { type: 'positional', valueHint: 'root', isRequired: true, format: 'filepath' },
            { type: 'named', name: '--port', format: 'number', default: '8080' },
          ],
          environmentVariables: [
            { name: 'API_KEY', isRequired: true, isSecret: true },
            { name: 'AUTH', value: 'Bearer {token}', variables: { token: { isSecret: true, isRequired: true } } },
          ],
        },
      ],
    });
    const [option] = installOptions(server);
    expect(option?.fields.map((field) => [field.id, field.secret])).toEqual([
      ['arg:package:0', false],
      ['arg:package:1', false],
      ['env:API_KEY', true],
      ['env:AUTH:var:token', true],
    ]);
    const built = buildInstall(
      server,
      0,
      { 'arg:package:0': '/data', 'env:API_KEY': 'k', 'env:AUTH:var:token': 't' },
      context,
    );
    if (!built.ok) throw new Error(JSON.stringify(built.errors));
    expect(built.config.command).toBe('npx');
    expect(built.config.args).toEqual(['--prefer-offline', '-y', '@scope/server@2.0.1', '/data', '--port', '8080']);
    expect(built.config.env).toEqual({ API_KEY: 'k', AUTH: 'Bearer t' });
    expect(built.config.secretEnv).toEqual(['API_KEY', 'AUTH']);
    expect(built.config.registry).toEqual({
      url: context.registryUrl,
      name: 'io.github.x/y',
      version: '1.0.0',
      option: 0,
      values: { 'arg:package:0': '/data' },
    });
  });

  it('checks required values, choices and formats, naming each field', () => {
    const server = detail({
      packages: [
        {
          registryType: 'npm',
          identifier: 'srv',
          version: '1.0.0',
          transport: { type: 'stdio' },
          packageArguments: [
            { type: 'named', name: '--mode', choices: ['a', 'b'] },
            { type: 'named', name: '--n', format: 'number' },
            { type: 'named', name: '--flag', format: 'boolean' },
          ],
          environmentVariables: [{ name: 'NEEDED', isRequired: true }],
        },
      ],
    });
    const built = buildInstall(
      server,
      0,
      { 'arg:package:0': 'c', 'arg:package:1': 'ten', 'arg:package:2': 'yes' },
      context,
    );
    expect(built.ok ? [] : built.errors).toEqual([
      { field: 'env:NEEDED', message: 'Enter NEEDED' },
      { field: 'arg:package:0', message: 'Choose one of: a, b' },
      { field: 'arg:package:1', message: '--n must be a number' },
      { field: 'arg:package:2', message: '--flag must be true or false' },
    ]);
  });

  it('pypi: uvx name==version', () => {
    const built = buildInstall(
      detail({
        packages: [
          { registryType: 'pypi', identifier: 'mcp-server-time', version: '0.6.2', transport: { type: 'stdio' } },
        ],
      }),
      0,
      {},
      context,
    );
    expect(built.ok && [built.config.command, ...built.config.args]).toEqual(['uvx', 'mcp-server-time==0.6.2']);
  });

  it('oci: docker run -i --rm with env passed by name only, and a tag from the version or the identifier', () => {
    const env = [{ name: 'TOKEN', isSecret: true, isRequired: true }];
    const built = buildInstall(
      detail({
        packages: [
          {
            registryType: 'oci',
            identifier: 'docker.io/mcp/fetch',
            version: '1.2.0',
            transport: { type: 'stdio' },
            environmentVariables: env,
          },
        ],
      }),
      0,
      { 'env:TOKEN': 's3cret' },
      context,
    );
    if (!built.ok) throw new Error('not built');
    expect([built.config.command, ...built.config.args]).toEqual([
      'docker',
      'run',
      '-i',
      '--rm',
      '-e',
      'TOKEN',
      'docker.io/mcp/fetch:1.2.0',
    ]);
    expect(built.config.args.join(' ')).not.toContain('s3cret');
    const tagged = buildInstall(
      detail({ packages: [{ registryType: 'oci', identifier: 'ghcr.io/o/img:3.1', transport: { type: 'stdio' } }] }),
      0,
      {},
      context,
    );
    expect(tagged.ok && tagged.config.args.at(-1)).toBe('ghcr.io/o/img:3.1');
  });

  it('refuses what it cannot or must not run, saying why', () => {
    const reasons = installOptions(
      detail({
        packages: [
          { registryType: 'nuget', identifier: 'X', version: '1', transport: { type: 'stdio' } },
          { registryType: 'npm', identifier: '--registry=http://evil', version: '1.0.0', transport: { type: 'stdio' } },
          { registryType: 'npm', identifier: 'srv', transport: { type: 'stdio' } },
          { registryType: 'npm', identifier: 'srv', version: '^1.0.0', transport: { type: 'stdio' } },
          {
            registryType: 'npm',
            identifier: 'srv',
            version: '1.0.0',
            transport: { type: 'streamable-http', url: 'http://localhost:3000/mcp' },
          },
          {
            registryType: 'npm',
            identifier: 'srv',
            version: '1.0.0',
            transport: { type: 'stdio' },
            packageArguments: [{ type: 'named', name: '--token', isSecret: true }],
          },
        ],
        remotes: [{ type: 'websocket', url: 'wss://x' }],
      }),
    ).map((option) => option.unsupported);
    expect(reasons).toEqual([
      'nuget packages are not supported yet',
      '"--registry=http://evil" is not a valid npm package name',
      'The entry names no package version, so what would run is not pinned',
      '"^1.0.0" is not an exact version',
      'This package runs its own streamable-http server; Berth installs packages that talk over stdio (not supported yet)',
      'It passes a secret on the command line, where other programs on this computer can read it: Berth does not install that',
      '"websocket" remotes are not supported',
    ]);
    const built = buildInstall(
      detail({ packages: [{ registryType: 'nuget', identifier: 'X', version: '1', transport: { type: 'stdio' } }] }),
      0,
      {},
      context,
    );
    expect(built).toEqual({
      ok: false,
      errors: [{ field: 'option', message: 'nuget packages are not supported yet' }],
    });
  });

  it('remote: URL variables encoded into the address, headers with secrets, plain http only to this machine', () => {
    const server = detail({
      remotes: [
        {
          type: 'sse',
          url: 'https://{tenant}.example.com/sse',
          variables: { tenant: { isRequired: true } },
          headers: [
            { name: 'X-Key', isSecret: true, isRequired: true },
            { name: 'X-Region', default: 'eu' },
          ],
        },
        { type: 'streamable-http', url: 'http://{host}/mcp', variables: { host: { isRequired: true } } },
      ],
    });
    const built = buildInstall(server, 0, { 'url:var:tenant': 'acme', 'header:X-Key': 'k1' }, context);
    if (!built.ok) throw new Error(JSON.stringify(built.errors));
    expect(built.config).toMatchObject({
      url: 'https://acme.example.com/sse',
      type: 'sse',
      headers: { 'X-Key': 'k1', 'X-Region': 'eu' },
      secretHeaders: ['X-Key'],
    });
    const sneaky = buildInstall(server, 0, { 'url:var:tenant': 'evil.com/x?', 'header:X-Key': 'k1' }, context);
    // Encoded, a value cannot add a path or query to the host: such an address is refused.
    expect(sneaky.ok ? sneaky.config.url : sneaky.errors[0]?.message).toMatch(
      /^The address https:\/\/evil\.com%2Fx%3F\.example\.com\/sse cannot be used/,
    );
    const plain = buildInstall(server, 1, { 'url:var:host': 'example.com' }, context);
    expect(plain.ok ? 'built' : plain.errors[0]?.message).toMatch(/plain http:\/\/ is only allowed for localhost/);
  });

  it('an update keeps secrets it is not given again (as the mask the secret store resolves)', () => {
    const server = detail({
      packages: [
        {
          registryType: 'npm',
          identifier: 'srv',
          version: '1.0.0',
          transport: { type: 'stdio' },
          environmentVariables: [{ name: 'KEY', isRequired: true, isSecret: true }],
        },
      ],
    });
    const built = buildInstall(
      server,
      0,
      {},
      { ...context, keepSecret: (section, key) => section === 'env' && key === 'KEY' },
    );
    expect(built.ok && built.config.env).toEqual({ KEY: '••••••••' });
    expect(buildInstall(server, 0, {}, context).ok).toBe(false);
  });
});
