import { describe, expect, it } from 'vitest';
import {
  CLOSED_IN_HOME_WORDS,
  denialMessage,
  deriveSandboxPolicy,
  describeSandboxPolicy,
  domainEntryProblem,
  folderEntryProblem,
  protectedFolderProblem,
  sandboxFitProblem,
  suggestedSandboxDomains,
  tildePath,
} from './sandbox';
import type { SandboxPolicyInputs } from './sandbox';

const home = '/home/ann';
const configDir = '/home/ann/.config/berth';
const folders = {
  data: `${configDir}/sandbox/fs-1/data`,
  temp: `${configDir}/sandbox/fs-1/tmp`,
  cache: `${configDir}/sandbox/fs-1/cache`,
};

function inputs(extra: Partial<SandboxPolicyInputs> = {}): SandboxPolicyInputs {
  return {
    home,
    roots: ['/home/ann/Projects/site'],
    folders,
    berthConfigDir: configDir,
    berthReadable: [`${configDir}/bundles`],
    berthSecretFiles: [`${configDir}/secrets.json`],
    settings: { allowedFolders: [], allowedDomains: [] },
    ...extra,
  };
}

describe('deriveSandboxPolicy', () => {
  it('writes only to its roots and its own folders, with no network', () => {
    const policy = deriveSandboxPolicy(inputs());
    expect(policy.allowWrite).toEqual(['/home/ann/Projects/site', folders.data, folders.temp, folders.cache]);
    expect(policy.allowedDomains).toEqual([]);
  });

  it("denies reading secrets, browser profiles and Berth's own config", () => {
    const { denyRead } = deriveSandboxPolicy(inputs());
    for (const path of [
      '.ssh',
      '.aws',
      '.gnupg',
      '.config/gcloud',
      '.azure',
      '.kube',
      '.docker/config.json',
      '.npmrc',
      '.pypirc',
      '.netrc',
      '.git-credentials',
      '.mozilla',
      '.config/google-chrome',
      '.config/chromium',
    ]) {
      expect(denyRead).toContain(`${home}/${path}`);
    }
    expect(denyRead).toContain(configDir);
    expect(denyRead).toContain(`${configDir}/secrets.json`);
  });

  it("re-opens for reading only its own folders and the bundles inside Berth's config folder", () => {
    const { allowRead } = deriveSandboxPolicy(inputs());
    expect(allowRead).toEqual([folders.data, folders.temp, folders.cache, `${configDir}/bundles`]);
  });

  it('never lets it write startup files, secrets or Berth’s files, even inside a root that holds them', () => {
    const policy = deriveSandboxPolicy(inputs({ roots: [home] }));
    expect(policy.allowWrite).toContain(home);
    for (const path of ['.bashrc', '.profile', '.zshrc', '.config/autostart', '.ssh', '.aws'])
      expect(policy.denyWrite).toContain(`${home}/${path}`);
    // What runs later that the first list missed: aliases, git's and the editor's config, the X session, ~/bin on Debian's PATH.
    for (const path of [
      '.bash_aliases',
      '.config/git',
      '.xsessionrc',
      '.config/environment.d',
      '.config/nvim',
      '.local/share/applications',
      'bin',
    ])
      expect(policy.denyWrite).toContain(`${home}/${path}`);
    // Its own folders live in Berth's config folder: Berth's files are denied one by one, not the folder.
    expect(policy.denyWrite).toContain(`${configDir}/config.json`);
    expect(policy.denyWrite).toContain(`${configDir}/state`);
    expect(policy.denyWrite).not.toContain(configDir);
  });

  it("denies writing Berth's whole config folder when its own folders are elsewhere", () => {
    const elsewhere = { data: '/var/berth/fs/data', temp: '/var/berth/fs/tmp', cache: '/var/berth/fs/cache' };
    expect(deriveSandboxPolicy(inputs({ folders: elsewhere })).denyWrite).toContain(configDir);
  });

  it("adds the person's extra folders and domains, once each", () => {
    const policy = deriveSandboxPolicy(
      inputs({
        settings: {
          allowedFolders: ['/srv/data', '/srv/data/'],
          allowedDomains: ['api.github.com', 'api.github.com', '*.npmjs.org'],
        },
      }),
    );
    expect(policy.allowWrite.filter((path) => path === '/srv/data')).toHaveLength(1);
    expect(policy.allowedDomains).toEqual(['api.github.com', '*.npmjs.org']);
  });

  it("keeps Berth's files closed whatever folders are allowed: its config folder allowed (stored by an older Berth) and home as a root", () => {
    const entries = [
      `${configDir}/browser-profile`,
      `${configDir}/sandbox.json`,
      `${configDir}/sandbox`,
      `${configDir}/sandbox/fs-1`,
      `${configDir}/sandbox/other-2`,
      `${configDir}/Cookies`,
    ];
    const policy = deriveSandboxPolicy(
      inputs({
        roots: [home],
        berthEntries: entries,
        settings: { allowedFolders: [configDir, `${configDir}/sandbox`], allowedDomains: [] },
      }),
    );
    // Reading: the whole folder stays denied; only its own folders and the bundles are re-opened.
    expect(policy.denyRead).toContain(configDir);
    expect(policy.allowRead).toEqual([folders.data, folders.temp, folders.cache, `${configDir}/bundles`]);
    // Writing: every file of Berth's, what the host found there included (another server's folder, the browser profile).
    for (const name of [
      'sandbox.json',
      'settings.json',
      'secrets.json',
      'config.json',
      'conversations',
      'logs',
      'state',
      'browser-profile',
      'Cookies',
      'sandbox/other-2',
    ]) {
      expect(policy.denyWrite).toContain(`${configDir}/${name}`);
    }
    // …but not the folders that lead to its own, which it must write.
    expect(policy.denyWrite).not.toContain(`${configDir}/sandbox`);
    expect(policy.denyWrite).not.toContain(`${configDir}/sandbox/fs-1`);
  });

  it('keeps a root inside a secret folder unreadable', () => {
    const policy = deriveSandboxPolicy(inputs({ roots: [`${home}/.ssh/keys`] }));
    expect(policy.allowRead).not.toContain(`${home}/.ssh/keys`);
    expect(policy.denyRead).toContain(`${home}/.ssh`);
  });
});

describe('describeSandboxPolicy', () => {
  it('says what it may write, read and reach in plain words', () => {
    const words = describeSandboxPolicy(
      deriveSandboxPolicy(inputs({ settings: { allowedFolders: [], allowedDomains: ['api.github.com'] } })),
      home,
      folders,
    );
    expect(words.write).toBe('Can change files only in: ~/Projects/site, and its own folders');
    expect(words.writeFolders).toEqual(['~/Projects/site']);
    expect(words.read).toContain('SSH and GPG keys');
    expect(words.network).toBe('Network only to: api.github.com');
    expect(describeSandboxPolicy(deriveSandboxPolicy(inputs({ roots: [] })), home, folders)).toMatchObject({
      write: 'Can change files only in its own folders (data, temporary files, cache)',
      network: 'No network',
    });
    expect(words.closedInside).toBeUndefined();
    // Home, or a folder above it, as a root: what stays closed inside is said.
    for (const root of [home, '/home', '/'])
      expect(
        describeSandboxPolicy(deriveSandboxPolicy(inputs({ roots: [root] })), home, folders).closedInside,
        root,
      ).toBe(CLOSED_IN_HOME_WORDS);
  });
});

describe('entries the person types', () => {
  it.each([
    ['example.com', undefined],
    ['*.example.com', undefined],
    ['api.example.com:8443', undefined],
    ['127.0.0.1:8080', undefined],
    ['localhost:5432', undefined],
    ['192.168.1.20:8443', undefined],
    [
      'localhost',
      "localhost is this computer or a private network: enter the one port the server needs (localhost:5432), so no other local service, Berth's own included, is opened to it",
    ],
    [
      '127.1',
      "127.1 is this computer or a private network: enter the one port the server needs (127.1:5432), so no other local service, Berth's own included, is opened to it",
    ],
    [
      '2130706433',
      "2130706433 is this computer or a private network: enter the one port the server needs (2130706433:5432), so no other local service, Berth's own included, is opened to it",
    ],
    [
      '10.0.0.1',
      "10.0.0.1 is this computer or a private network: enter the one port the server needs (10.0.0.1:5432), so no other local service, Berth's own included, is opened to it",
    ],
    [
      '*.app.localhost',
      'A wildcard cannot name this computer or a private network: enter the one host:port the server needs',
    ],
    [
      '169.254.169.254:80',
      "169.254.169.254:80 is a cloud metadata service or a link-local address, which hands out this machine's cloud credentials: Berth never opens it to a sandboxed server",
    ],
    [
      'metadata.google.internal',
      "metadata.google.internal is a cloud metadata service or a link-local address, which hands out this machine's cloud credentials: Berth never opens it to a sandboxed server",
    ],
    [
      '2852039166:80',
      "2852039166:80 is a cloud metadata service or a link-local address, which hands out this machine's cloud credentials: Berth never opens it to a sandboxed server",
    ],
    ['https://example.com', 'Enter a domain without http:// or a path (example.com)'],
    ['example.com/path', 'Enter a domain without http:// or a path (example.com)'],
    ['*', 'A wildcard is allowed only as "*.example.com"'],
    ['ex*ample.com', 'A wildcard is allowed only as "*.example.com"'],
    ['*.com', 'A wildcard needs a domain with a dot ("*.example.com")'],
    ['example.com:70000', 'The port must be between 1 and 65535'],
    ['exa mple.com', 'That is not a domain (example.com or *.example.com)'],
    ['', 'Enter a domain'],
  ])('domain %j → %j', (entry, problem) => {
    expect(domainEntryProblem(entry)).toBe(problem);
  });

  it.each([
    ['/srv/data', undefined],
    ['relative/path', 'Enter an absolute folder path (starting with /)'],
    ['/home/ann/Projects/site', undefined],
    ['/home/ann/.config-backup', undefined],
    ['/srv/../etc', 'Enter the folder without "." or ".."'],
    ['/', protectedFolderProblem('it is the whole disk')],
    ['/home/ann/', protectedFolderProblem('it is your home folder')],
    ['/home', protectedFolderProblem('it holds your home folder (/home/ann)')],
    [
      '/home/ann/.config/berth',
      protectedFolderProblem(
        "it is Berth's own settings folder (~/.config/berth): Berth's settings, secrets, conversations and every server's sandbox",
      ),
    ],
    [
      '/home/ann/.config/berth/sandbox/other-1/data',
      protectedFolderProblem(
        "it is inside Berth's own settings folder (~/.config/berth), which holds Berth's settings, secrets and the other servers' files",
      ),
    ],
    ['/home/ann/.config', protectedFolderProblem("it holds Berth's own settings folder (~/.config/berth)")],
    [
      '/home/ann/.config/git',
      protectedFolderProblem('it holds files that run code at login or in your shell (~/.config/git)'),
    ],
    ['/home/ann/.local', protectedFolderProblem('it holds credentials (~/.local/share/keyrings)')],
    [
      '/home/ann/.config/autostart',
      protectedFolderProblem('it holds files that run code at login or in your shell (~/.config/autostart)'),
    ],
    [
      '/home/ann/.local/share/applications',
      protectedFolderProblem('it holds files that run code at login or in your shell (~/.local/share/applications)'),
    ],
    ['/home/ann/.ssh', protectedFolderProblem('it holds credentials (~/.ssh)')],
    ['/home/ann/.docker', protectedFolderProblem('it holds credentials (~/.docker/config.json)')],
    ['/home/ann/.aws/sso', protectedFolderProblem('it holds credentials (~/.aws)')],
  ])('folder %j → %j', (path, problem) => {
    expect(folderEntryProblem(path, home, configDir)).toBe(problem);
  });

  it('checks what it can without the config folder (the renderer before the host answers)', () => {
    expect(folderEntryProblem('/home/ann/.config/berth', home)).toBe(
      protectedFolderProblem("it holds other programs' settings and launchers, some of which run code (~/.config)"),
    );
    expect(folderEntryProblem('/home', home)).toBe(protectedFolderProblem('it holds your home folder (/home/ann)'));
    expect(folderEntryProblem('/srv/data', '')).toBeUndefined();
    expect(folderEntryProblem('/', '')).toBe(protectedFolderProblem('it is the whole disk'));
  });
});

describe('words for a denial', () => {
  it('shows paths from home with ~', () => {
    expect(tildePath('/home/ann/Documents/x', home)).toBe('~/Documents/x');
    expect(tildePath('/home/anna/x', home)).toBe('/home/anna/x');
    expect(denialMessage('network', 'api.example.com', home, 'proxy')).toBe(
      'blocked by the sandbox: connection to api.example.com',
    );
  });

  it("words what the server's own output says as its claim", () => {
    expect(denialMessage('write', '/home/ann/Documents/x', home, 'server')).toBe(
      'the server reports the sandbox blocked a write to ~/Documents/x',
    );
    expect(denialMessage('read', '/home/ann/.ssh/id_rsa', home, 'server')).toBe(
      'the server reports the sandbox blocked a read of ~/.ssh/id_rsa',
    );
  });
});

describe('review helpers', () => {
  it('suggests the package registry a launcher downloads from', () => {
    expect(suggestedSandboxDomains('npx')).toEqual(['registry.npmjs.org']);
    expect(suggestedSandboxDomains('/usr/local/bin/uvx')).toEqual(['pypi.org', 'files.pythonhosted.org']);
    expect(suggestedSandboxDomains('C:\\nodejs\\npx.cmd')).toEqual(['registry.npmjs.org']);
    expect(suggestedSandboxDomains('/usr/bin/node')).toEqual([]);
  });

  it('says why a container server cannot run in the sandbox', () => {
    expect(sandboxFitProblem('docker')).toMatch(/Docker's socket/);
    expect(sandboxFitProblem('npx')).toBeUndefined();
  });
});
