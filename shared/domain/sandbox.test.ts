import { describe, expect, it } from 'vitest';
import { denialMessage, deriveSandboxPolicy, describeSandboxPolicy, domainEntryProblem, folderEntryProblem, sandboxFitProblem, suggestedSandboxDomains, tildePath } from './sandbox';
import type { SandboxPolicyInputs } from './sandbox';

const home = '/home/ann';
const configDir = '/home/ann/.config/berth';
const folders = { data: `${configDir}/sandbox/fs-1/data`, temp: `${configDir}/sandbox/fs-1/tmp`, cache: `${configDir}/sandbox/fs-1/cache` };

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
    for (const path of ['.ssh', '.aws', '.gnupg', '.config/gcloud', '.azure', '.kube', '.docker/config.json', '.npmrc', '.pypirc', '.netrc', '.git-credentials', '.mozilla', '.config/google-chrome', '.config/chromium']) {
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
    for (const path of ['.bashrc', '.profile', '.zshrc', '.config/autostart', '.ssh', '.aws']) expect(policy.denyWrite).toContain(`${home}/${path}`);
    // What runs later that the first list missed: aliases, git's and the editor's config, the X session, ~/bin on Debian's PATH.
    for (const path of ['.bash_aliases', '.config/git', '.xsessionrc', '.config/environment.d', '.config/nvim', '.local/share/applications', 'bin']) expect(policy.denyWrite).toContain(`${home}/${path}`);
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
    const policy = deriveSandboxPolicy(inputs({ settings: { allowedFolders: ['/srv/data', '/srv/data/'], allowedDomains: ['api.github.com', 'api.github.com', '*.npmjs.org'] } }));
    expect(policy.allowWrite.filter((path) => path === '/srv/data')).toHaveLength(1);
    expect(policy.allowedDomains).toEqual(['api.github.com', '*.npmjs.org']);
  });

  it('keeps a root inside a secret folder unreadable', () => {
    const policy = deriveSandboxPolicy(inputs({ roots: [`${home}/.ssh/keys`] }));
    expect(policy.allowRead).not.toContain(`${home}/.ssh/keys`);
    expect(policy.denyRead).toContain(`${home}/.ssh`);
  });
});

describe('describeSandboxPolicy', () => {
  it('says what it may write, read and reach in plain words', () => {
    const words = describeSandboxPolicy(deriveSandboxPolicy(inputs({ settings: { allowedFolders: [], allowedDomains: ['api.github.com'] } })), home, folders);
    expect(words.write).toBe('Can change files only in: ~/Projects/site, and its own folders');
    expect(words.writeFolders).toEqual(['~/Projects/site']);
    expect(words.read).toContain('SSH and GPG keys');
    expect(words.network).toBe('Network only to: api.github.com');
    expect(describeSandboxPolicy(deriveSandboxPolicy(inputs({ roots: [] })), home, folders)).toMatchObject({ write: 'Can change files only in its own folders (data, temporary files, cache)', network: 'No network' });
  });
});

describe('entries the person types', () => {
  it.each([
    ['example.com', undefined],
    ['*.example.com', undefined],
    ['api.example.com:8443', undefined],
    ['127.0.0.1:8080', undefined],
    ['localhost', undefined],
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
    ['/', 'Allowing the whole disk or home folder would defeat the sandbox: pick the folder it needs'],
    ['/home/ann/', 'Allowing the whole disk or home folder would defeat the sandbox: pick the folder it needs'],
    ['/srv/../etc', 'Enter the folder without "." or ".."'],
  ])('folder %j → %j', (path, problem) => {
    expect(folderEntryProblem(path, home)).toBe(problem);
  });
});

describe('words for a denial', () => {
  it('shows paths from home with ~', () => {
    expect(tildePath('/home/ann/Documents/x', home)).toBe('~/Documents/x');
    expect(tildePath('/home/anna/x', home)).toBe('/home/anna/x');
    expect(denialMessage('write', '/home/ann/Documents/x', home)).toBe('blocked by the sandbox: write to ~/Documents/x');
    expect(denialMessage('read', '/home/ann/.ssh/id_rsa', home)).toBe('blocked by the sandbox: read of ~/.ssh/id_rsa');
    expect(denialMessage('network', 'api.example.com', home)).toBe('blocked by the sandbox: connection to api.example.com');
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
