import { describe, expect, it } from 'vitest';
import { classifyConfigChange } from './config-change';
import { serverConfig } from './test-support';

const base = serverConfig({ command: 'node', args: ['server.js'], env: { A: '1', B: '2' }, logLevel: 'info' });

describe('classifyConfigChange', () => {
  it('sees no change when only the key order differs', () => {
    const reordered = serverConfig({ logLevel: 'info', env: { B: '2', A: '1' }, args: ['server.js'], command: 'node' });
    expect(classifyConfigChange(base, reordered)).toBe('none');
  });

  it('applies a change of the log level alone live, including setting or clearing it', () => {
    expect(classifyConfigChange(base, { ...base, logLevel: 'debug' })).toBe('live');
    const { logLevel: _dropped, ...withoutLevel } = base;
    expect(classifyConfigChange(base, withoutLevel)).toBe('live');
    expect(classifyConfigChange(withoutLevel, base)).toBe('live');
  });

  it('restarts for anything else, even together with a level change', () => {
    expect(classifyConfigChange(base, { ...base, args: ['other.js'] })).toBe('restart');
    expect(classifyConfigChange(base, { ...base, timeouts: { ...base.timeouts, requestMs: 5_000 } })).toBe('restart');
    expect(classifyConfigChange(base, { ...base, enabled: false, logLevel: 'debug' })).toBe('restart');
  });

  it('takes over an authorization server pinned where there was none live, but restarts for a changed or removed one', () => {
    const remote = serverConfig({
      url: 'https://mcp.example.com/mcp',
      oauth: { grant: 'client_credentials', clientId: 'ci', clientSecret: 's' },
    });
    const pinned = { ...remote, oauth: { ...remote.oauth, issuer: 'https://auth.example.com' } };
    expect(classifyConfigChange(remote, pinned)).toBe('live');
    expect(
      classifyConfigChange(pinned, { ...pinned, oauth: { ...pinned.oauth, issuer: 'https://other.example.com' } }),
    ).toBe('restart');
    expect(classifyConfigChange(pinned, remote)).toBe('restart');
    expect(classifyConfigChange(remote, { ...pinned, oauth: { ...pinned.oauth, clientId: 'other' } })).toBe('restart');
  });
});
