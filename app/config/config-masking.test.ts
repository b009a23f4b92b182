import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SECRET_MASK } from '../../shared/domain/server';
import { findSecretSlots, maskSecretSlots, unmaskSecretSlots } from './config-masking';
import { ConfigStore } from './config-store';

const MASK = JSON.stringify(SECRET_MASK);
/** Broken twice: a trailing comma (syntax) and an entry without a command. */
const BROKEN = `{
  "mcpServers": {
    "github": {
      "command": "npx",
      "env": { "GITHUB_TOKEN": "ghp_plain\\"secret1", "REGION": "eu", "REF": "\${secret:server/github/env/REF}" },
      "secretEnv": ["GITHUB_TOKEN", "REF"],
    },
    "api": {
      "url": "https://api.example/mcp",
      "headers": { "Authorization": "Bearer hdr-secret-2", "X-Token": "xtok-secret-3", "X-Team": "core" },
      "secretHeaders": ["X-Token"]
    },
    "idp": {
      "url": "https://idp.example/mcp",
      "oauth": { "clientId": "cid", "clientSecret": "client-secret-4" }
    }
  }
}
`;
const PLAIN = ['ghp_plain\\"secret1', 'hdr-secret-2', 'xtok-secret-3', 'client-secret-4'];

describe('maskSecretSlots', () => {
  it('masks secret env values, secret and always-secret headers and OAuth client secrets of a file with syntax errors, and nothing else', () => {
    const { text, slots } = maskSecretSlots(BROKEN);
    for (const secret of PLAIN) expect(text).not.toContain(secret);
    expect(slots.map((slot) => `${slot.server}.${slot.section}.${slot.key}`)).toEqual([
      'github.env.GITHUB_TOKEN',
      'api.headers.Authorization',
      'api.headers.X-Token',
      'idp.oauth.clientSecret',
    ]);
    expect(text).toContain(`"GITHUB_TOKEN": ${MASK}`);
    // References, plain settings and the rest of the text stay as they are (the trailing comma too).
    expect(text).toContain('"REF": "${secret:server/github/env/REF}"');
    expect(text).toContain('"X-Team": "core"');
    expect(text).toContain('"REGION": "eu"');
    expect(text.replaceAll(MASK, '')).toBe(
      BROKEN.replace(/"ghp_plain\\"secret1"|"Bearer hdr-secret-2"|"xtok-secret-3"|"client-secret-4"/g, ''),
    );
  });

  it('finds nothing in a file too deep to parse, without overflowing the stack', () => {
    expect(findSecretSlots('['.repeat(50_000))).toEqual([]);
  });
});

describe('unmaskSecretSlots', () => {
  it('puts every masked value back from the original, also for a renamed entry', () => {
    const shown = maskSecretSlots(BROKEN).text;
    const fixed = shown
      .replace('["GITHUB_TOKEN", "REF"],', '["GITHUB_TOKEN", "REF"]')
      .replace('"api":', '"api-renamed":');
    const { text, problems } = unmaskSecretSlots(fixed, [BROKEN]);
    expect(problems).toEqual([]);
    expect(text).toBe(
      BROKEN.replace('["GITHUB_TOKEN", "REF"],', '["GITHUB_TOKEN", "REF"]').replace('"api":', '"api-renamed":'),
    );
  });

  it('refuses a mask it cannot put back: moved to another key, or inside a longer value', () => {
    const shown = maskSecretSlots(BROKEN).text;
    const moved = unmaskSecretSlots(shown.replace('"REGION": "eu"', `"REGION": ${MASK}`), [BROKEN]);
    expect(moved.problems).toEqual([
      expect.objectContaining({
        message: expect.stringMatching(/no value to put back for REGION of "github": type the value again/),
        line: 5,
      }),
    ]);
    const inside = unmaskSecretSlots(shown.replace('"REGION": "eu"', `"REGION": "eu-${SECRET_MASK}"`), [BROKEN]);
    expect(inside.problems[0]?.message).toMatch(/cannot be part of a longer value/);
  });
});

describe('ConfigStore with an invalid file holding plain secrets', () => {
  let dir: string;
  let file: string;
  let store: ConfigStore;
  let warnings: string[];

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'berth-config-mask-'));
    file = join(dir, 'config.json');
    await writeFile(file, BROKEN);
    warnings = [];
    store = new ConfigStore({ filePath: file, warn: (text) => warnings.push(text) });
  });
  afterEach(async () => {
    store.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('sends the text masked, says how many values it hides, and warns in words without the values', async () => {
    const status = await store.load();
    expect(status.state).toBe('invalid');
    expect(status.hiddenSecrets).toBe(4);
    for (const secret of PLAIN) expect(status.text).not.toContain(secret);
    expect(warnings).toEqual([
      `${file} has errors and holds 4 secret values in plain text (GITHUB_TOKEN of "github", the Authorization header of "api", the X-Token header of "api", oauth.clientSecret of "idp"); the editor shows them masked, and Berth moves them to its secret store once the file is valid`,
    ]);
  });

  it('saving the fixed text with the masks in place writes the real values back, not the mask', async () => {
    const shown = (await store.load()).text ?? '';
    const stillBroken = await store.saveText(shown.replace('"api":', '"api" '));
    expect(stillBroken.state).toBe('invalid');
    expect(stillBroken.text).not.toContain('client-secret-4');
    expect(await readFile(file, 'utf8')).toBe(BROKEN);

    const saved = await store.saveText(shown.replace('["GITHUB_TOKEN", "REF"],', '["GITHUB_TOKEN", "REF"]'));
    expect(saved.problems).toEqual([]);
    expect(saved).toMatchObject({ state: 'ok' });
    const written = await readFile(file, 'utf8');
    expect(written).not.toContain(SECRET_MASK);
    expect(store.rawServer('github')?.env.GITHUB_TOKEN).toBe('ghp_plain"secret1');
    expect(store.rawServer('api')).toMatchObject({
      headers: { Authorization: 'Bearer hdr-secret-2', 'X-Token': 'xtok-secret-3' },
    });
    expect(store.rawServer('idp')?.oauth).toMatchObject({ clientSecret: 'client-secret-4' });
  });

  it('refuses to save a mask it cannot put back, and leaves the file alone', async () => {
    const shown = (await store.load()).text ?? '';
    const result = await store.saveText(
      shown
        .replace('["GITHUB_TOKEN", "REF"],', '["GITHUB_TOKEN", "REF"]')
        .replace('"REGION": "eu"', `"REGION": ${MASK}`),
    );
    expect(result.state).toBe('invalid');
    expect(result.problems[0]?.message).toMatch(/type the value again/);
    expect(await readFile(file, 'utf8')).toBe(BROKEN);
  });
});
