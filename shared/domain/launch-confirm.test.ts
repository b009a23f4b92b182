import { describe, expect, it } from 'vitest';
import { addressRisk, launchRisks, unconfirmedMessage, unconfirmedRisks } from './launch-confirm';

describe('launchRisks', () => {
  it('gathers env, docker and address items, each with the key that confirms it', () => {
    const risks = launchRisks({
      command: 'docker',
      args: ['run', '--pid=host', 'img'],
      env: { ENV: '/tmp/x', LOG: 'info' },
    });
    expect(risks.map(({ kind, key }) => ({ kind, key }))).toEqual([
      { kind: 'env', key: 'ENV' },
      { kind: 'docker', key: 'docker:--pid=host' },
    ]);
    expect(launchRisks({ url: 'https://[::ffff:a9fe:a9fe]/mcp' })).toEqual([
      {
        kind: 'address',
        key: 'address:[::ffff:a9fe:a9fe]',
        message: expect.stringContaining("a cloud's metadata service"),
      },
    ]);
    expect(launchRisks({ command: 'npx', args: ['-y', 'pkg@1.0.0'], env: { API_URL: 'http://localhost' } })).toEqual(
      [],
    );
    expect(addressRisk('https://api.example.com/mcp')).toBeUndefined();
  });

  it('leaves only what is not confirmed, and says so in words that name it and the fix', () => {
    const risks = launchRisks({
      command: 'docker',
      args: ['run', '--privileged', 'img'],
      env: { NODE_OPTIONS: '--require x' },
    });
    expect(unconfirmedRisks(risks, ['NODE_OPTIONS', 'docker:--privileged'])).toEqual([]);
    const missing = unconfirmedRisks(risks, ['NODE_OPTIONS']);
    expect(missing.map((risk) => risk.key)).toEqual(['docker:--privileged']);
    expect(unconfirmedMessage(missing, 'import')).toBe(
      'Confirm first what this server asks for that runs code or opens its walls (--privileged): tick "I understand" for it in the review, then import again',
    );
  });
});
