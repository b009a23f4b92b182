import { describe, expect, it } from 'vitest';
import { activateLocale } from '../../i18n/i18n';
import { wordsText } from '../../i18n/words';
import { HOME, MISSING, policyView, settingsView } from '../../test-support/sandbox-host';
import { checkDraft, draftOf } from './sandbox-draft';
import { declaredDomains } from './review-sandbox';
import {
  denialActionLabel,
  denialSentence,
  draftPolicyLines,
  homeOf,
  neverSentence,
  unavailableSentence,
} from './sandbox-words';

describe('the policy in words', () => {
  const saved = policyView(
    settingsView('files', {
      enabled: true,
      allowedFolders: [`${HOME}/Documents/reports`],
      allowedDomains: ['api.github.com'],
    }),
  );

  it('reads the home folder off the derived policy, so typed folders are shown as the host shows the rest', () => {
    expect(homeOf(saved)).toBe(HOME);
    expect(homeOf(undefined)).toBeUndefined();
  });

  it('shows the saved policy as derived: roots, extra folders, domains', () => {
    expect(draftPolicyLines(saved, [`${HOME}/Documents/reports`], ['api.github.com'])).toEqual({
      writeFolders: ['~/Projects/site', '~/Documents/reports'],
      read: saved.words.read,
      domains: ['api.github.com'],
    });
  });

  it('replaces the saved extra folders and domains with the ones being edited, keeping the roots', () => {
    const lines = draftPolicyLines(saved, [`${HOME}/Downloads`, '  ', '/srv/data'], ['Example.COM ', '']);
    expect(lines.writeFolders).toEqual(['~/Projects/site', '~/Downloads', '/srv/data']);
    expect(lines.domains).toEqual(['example.com']);
  });

  it('for a server not added yet, knows only what is typed', () => {
    expect(draftPolicyLines(undefined, ['/srv/data'], [])).toMatchObject({ writeFolders: ['/srv/data'], domains: [] });
  });

  it('says why the sandbox is unavailable and what to install', () => {
    expect(unavailableSentence(MISSING)).toBe(
      'The sandbox is unavailable here: bubblewrap (bwrap) is not installed. Install it with: sudo apt-get install bubblewrap socat ripgrep',
    );
    expect(
      unavailableSentence({
        available: false,
        platform: 'win32',
        reason: 'Windows is not supported yet',
        warnings: [],
      }),
    ).toBe('The sandbox is unavailable here: Windows is not supported yet.');
  });

  it('names the one action of a denial, and none for what Berth never allows', () => {
    expect(denialActionLabel({ fix: { folder: '/x' } })).toBe('Allow this folder');
    expect(denialActionLabel({ fix: { domain: 'example.com' } })).toBe('Allow this domain');
    expect(denialActionLabel({})).toBeUndefined();
    expect(denialSentence({ message: 'blocked by the sandbox: connection to example.com' })).toBe(
      'Blocked by the sandbox: connection to example.com',
    );
    expect(denialSentence({ message: 'the server reports the sandbox blocked a write to ~/Documents/x' })).toBe(
      'The server reports the sandbox blocked a write to ~/Documents/x',
    );
    expect(neverSentence({ noFix: 'it holds your home folder (/home/ann)' })).toBe(
      'Berth never allows this: it holds your home folder (/home/ann).',
    );
  });
});

describe("the policy in the person's language", () => {
  it("words Berth's own sentences in Korean and keeps what the host derived as it said it", async () => {
    await activateLocale('ko');
    expect(denialActionLabel({ fix: { domain: 'example.com' } })).toBe('이 도메인 허용');
    expect(neverSentence({})).toBe(
      'Berth는 이를 절대 허용하지 않습니다: 자격 증명이 들어 있거나 로그인할 때 실행됩니다.',
    );
    expect(unavailableSentence({ available: false, platform: 'win32', warnings: [] })).toBe(
      '여기서는 샌드박스를 사용할 수 없습니다: win32에서는 지원되지 않습니다.',
    );
    expect(draftPolicyLines(undefined, [], []).read).toMatch(/^시스템과 자체 프로그램은 읽을 수 있지만/);
  });
});

describe('checking what was typed', () => {
  it('keeps good entries once, trimmed, domains lower-cased, empty rows dropped', () => {
    const result = checkDraft(
      draftOf({
        enabled: true,
        allowedFolders: ['/srv/data/', '/srv/data', ''],
        allowedDomains: ['API.github.com', '*.npmjs.org', ' '],
      }),
      HOME,
    );
    expect(result).toEqual({
      ok: true,
      choice: { enabled: true, allowedFolders: ['/srv/data'], allowedDomains: ['api.github.com', '*.npmjs.org'] },
    });
  });

  it('marks each wrong row with what is wrong, as the host would refuse it', () => {
    const draft = draftOf({
      enabled: true,
      allowedFolders: ['relative/path', HOME, '/', '/home', `${HOME}/.config`, `${HOME}/Projects/site`],
      allowedDomains: [
        'https://example.com/x',
        '*',
        'ok.example.com',
        'localhost',
        '169.254.169.254',
        'localhost:5432',
      ],
    });
    const result = checkDraft(draft, HOME);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const [relative, home, root, parent, config, project] = draft.folders;
    const [url, star, good, local, metadata, localPort] = draft.domains;
    const shown = (id: number) => (result.errors[id] === undefined ? undefined : wordsText(result.errors[id]));
    expect(shown(relative!.id)).toMatch(/absolute/);
    expect(shown(home!.id)).toMatch(/never lets a sandboxed server write there: it is your home folder/);
    expect(shown(root!.id)).toMatch(/it is the whole disk/);
    expect(shown(parent!.id)).toMatch(/it holds your home folder/);
    expect(shown(config!.id)).toMatch(/it holds (credentials|other programs' settings)/);
    expect(shown(project!.id)).toBeUndefined();
    expect(shown(url!.id)).toMatch(/without http/);
    expect(shown(star!.id)).toMatch(/wildcard/);
    expect(shown(good!.id)).toBeUndefined();
    // This computer only as one host:port the person typed; a metadata service never.
    expect(shown(local!.id)).toMatch(/this computer or a private network: enter the one port/);
    expect(shown(metadata!.id)).toMatch(/cloud metadata service/);
    expect(shown(localPort!.id)).toBeUndefined();
  });
});

describe('the network an installed server declares', () => {
  it('its package registry, for the runner that fetches it at the first start', () => {
    expect(declaredDomains({ registryType: 'npm' }).map((s) => s.domain)).toEqual(['registry.npmjs.org']);
    expect(declaredDomains({ registryType: 'pypi' }).map((s) => s.domain)).toEqual([
      'pypi.org',
      'files.pythonhosted.org',
    ]);
    expect(declaredDomains({ registryType: 'oci' })).toEqual([]);
  });

  it('the hosts of the addresses in its arguments and environment, each once, with why', () => {
    const found = declaredDomains({
      args: ['--api', 'https://api.weather.example:8443/v1'],
      env: { BASE_URL: 'http://intranet.example/x', OTHER: 'https://api.weather.example:8443/v2', TOKEN: '••••' },
    });
    expect(found).toEqual([
      { domain: 'api.weather.example:8443', why: 'its settings name https://api.weather.example:8443' },
      { domain: 'intranet.example', why: 'its settings name http://intranet.example' },
    ]);
  });

  it('never an address on this computer, its network or a metadata service, in any spelling', () => {
    const args = [
      'http://2852039166/latest',
      'http://0x7f000001:8080/',
      'http://127.1/',
      'http://[::ffff:127.0.0.1]/',
      'http://[fe80::1]/',
      'http://10.1.2.3/',
      'http://metadata.google.internal/',
      'http://localhost:3000/',
      'https://ok.example/',
    ];
    expect(
      declaredDomains({ args, env: { A: 'http://0177.0.0.1/', B: 'http://169.254.169.254/' } }).map((s) => s.domain),
    ).toEqual(['ok.example']);
  });
});

describe("the sandbox editor's check of a typed folder in the person's language", () => {
  it('keeps the code and words it in Japanese, the English unchanged', async () => {
    const draft = draftOf({ enabled: true, allowedFolders: ['project', HOME] });
    const result = checkDraft(draft, HOME);
    if (result.ok) throw new Error('expected errors');
    const [relative, home] = draft.folders;
    const english = wordsText(result.errors[home!.id]!);
    expect(english).toBe(
      'Berth never lets a sandboxed server write there: it is your home folder. Pick the one folder it needs, such as a project folder',
    );
    await activateLocale('ja');
    try {
      expect(wordsText(result.errors[relative!.id]!)).not.toMatch(/[A-Za-z]{4}/);
      expect(wordsText(result.errors[home!.id]!)).toContain('ホームフォルダー');
    } finally {
      await activateLocale('en');
    }
  });
});
