import type { HostMessage } from './host-message';
import { hasPort, isLocalOrPrivateTarget, isMetadataOrLinkLocalTarget } from './sandbox-local-target';

/**
 * The OS sandbox of local (stdio) servers: the person's per-server setting,
 * the policy Berth derives from what the person already decided (roots, the
 * server's own folders, extra folders and domains), and that policy in plain
 * words. Pure and zod-free: the renderer's server form and detail use it
 * without pulling the contract's schemas into the first screen.
 */

/** One server's sandbox setting, as the person chose it (settings.json `sandbox.<server>`). */
export interface SandboxServerSettings {
  /** Run this server in the OS sandbox. A server set so never starts unsandboxed: without support it fails saying why. */
  enabled: boolean;
  /** Extra folders it may write (and read) besides its roots and its own folders: absolute paths. */
  allowedFolders: string[];
  /** Domains it may reach (`example.com`, `*.example.com`, `host:port`, an IP literal); empty = no network. */
  allowedDomains: string[];
  /** Berth offered the sandbox for this server once (existing servers are asked once, never again). */
  offered: boolean;
}

/** A server that was never set: not sandboxed, not offered yet. Installed and imported servers are set on by their review. */
export const DEFAULT_SANDBOX_SETTINGS: SandboxServerSettings = {
  enabled: false,
  allowedFolders: [],
  allowedDomains: [],
  offered: false,
};

/** The longest list of folders or domains one server may have. */
export const SANDBOX_LIST_MAX = 100;

/**
 * What the sandbox lets a server do, in the shape of the runtime's config
 * (`@anthropic-ai/sandbox-runtime`): reads are open except `denyRead`
 * (re-opened for `allowRead` inside a denied folder), writes are closed
 * except `allowWrite` (closed again for `denyWrite`), network only to
 * `allowedDomains` (empty = none).
 */
export interface SandboxPolicy {
  allowWrite: string[];
  denyWrite: string[];
  denyRead: string[];
  allowRead: string[];
  allowedDomains: string[];
}

/** A server's own folders under Berth's data folder: always writable for it, never for another server. */
export interface SandboxServerFolders {
  data: string;
  temp: string;
  cache: string;
}

/** Everything {@linkcode deriveSandboxPolicy} needs; the host fills it in (paths absolute, POSIX). */
export interface SandboxPolicyInputs {
  /** The person's home folder. */
  home: string;
  /** The folders of the roots this server sees (already filtered by its exposure and consent). */
  roots: string[];
  folders: SandboxServerFolders;
  /** Berth's config folder (config.json, secrets, state, logs, conversations…): unreadable. */
  berthConfigDir: string;
  /** Folders inside Berth's config folder a server may read (installed bundles: its own code). */
  berthReadable: string[];
  /** Other files holding Berth's secrets, wherever they are. */
  berthSecretFiles: string[];
  /**
   * What is in Berth's config folder and in its `sandbox/` folder now
   * (absolute paths): each is denied writing whatever it is named (Electron's
   * profile files, other servers' folders), besides the fixed list.
   */
  berthEntries?: string[];
  settings: Pick<SandboxServerSettings, 'allowedFolders' | 'allowedDomains'>;
}

/** Credential files and folders every sandboxed server is denied, relative to home. */
export const SECRET_PATHS_IN_HOME: readonly string[] = [
  '.ssh',
  '.aws',
  '.gnupg',
  '.config/gcloud',
  '.azure',
  '.kube',
  '.docker/config.json',
  '.npmrc',
  '.yarnrc',
  '.yarnrc.yml',
  '.pypirc',
  '.netrc',
  '.git-credentials',
  '.config/gh',
  '.config/hub',
  '.cargo/credentials',
  '.cargo/credentials.toml',
  '.gem/credentials',
  '.terraform.d/credentials.tfrc.json',
  '.vault-token',
  '.password-store',
  '.local/share/keyrings',
  '.pki',
  // Browser profiles: cookies, saved passwords, sessions.
  '.mozilla',
  '.config/google-chrome',
  '.config/chromium',
  '.config/BraveSoftware',
  '.config/microsoft-edge',
  '.config/vivaldi',
  '.config/opera',
  'snap/firefox',
  'snap/chromium',
  '.var/app/org.mozilla.firefox',
  '.var/app/com.google.Chrome',
  'Library/Application Support/Google/Chrome',
  'Library/Application Support/Firefox',
  'Library/Application Support/BraveSoftware',
  'Library/Application Support/Microsoft Edge',
  'Library/Cookies',
  'Library/Keychains',
  'Library/Safari',
];

/**
 * Files that run code at the next login, shell, editor or git command: never
 * writable, even inside a root that holds them or when named. Every other
 * dot-entry directly in home is closed as a class where home is writable
 * (app/sandbox/sandbox-writable.ts); this list also names the deeper ones.
 */
export const STARTUP_PATHS_IN_HOME: readonly string[] = [
  '.bashrc',
  '.bash_profile',
  '.bash_login',
  '.bash_logout',
  '.bash_aliases',
  '.profile',
  '.zshrc',
  '.zshenv',
  '.zprofile',
  '.zlogin',
  '.xsessionrc',
  '.xprofile',
  '.xinitrc',
  '.xsession',
  '.pam_environment',
  '.vimrc',
  '.vim',
  '.emacs',
  '.emacs.d',
  '.config/fish',
  '.config/autostart',
  '.config/systemd',
  '.config/environment.d',
  '.config/git',
  '.config/nvim',
  '.config/plasma-workspace',
  '.local/bin',
  // Debian's and Ubuntu's ~/.profile put it first on PATH when it exists.
  'bin',
  '.local/share/applications',
  '.local/share/systemd',
  '.ssh',
  '.gitconfig',
  'Library/LaunchAgents',
];

function trimSlash(path: string): string {
  return path.length > 1 ? path.replace(/\/+$/, '') : path;
}

function inHome(home: string, relative: string): string {
  return `${trimSlash(home)}/${relative}`;
}

function unique(paths: string[]): string[] {
  return [...new Set(paths.map(trimSlash))];
}

/** Whether `path` is `folder` or inside it (POSIX, already normalized). */
export function isWithin(path: string, folder: string): boolean {
  const f = trimSlash(folder);
  const p = trimSlash(path);
  return p === f || p.startsWith(f === '/' ? '/' : `${f}/`);
}

/**
 * The policy for one sandboxed server. Writes: its roots, its own folders,
 * the person's extra folders — never a startup file, a secret or Berth's
 * config. Reads: everything but secrets and Berth's config (its roots and its
 * own folders re-opened when they lie inside a denied folder). Network: the
 * person's domains only.
 */
export function deriveSandboxPolicy(inputs: SandboxPolicyInputs): SandboxPolicy {
  const { home, folders, settings } = inputs;
  const own = [folders.data, folders.temp, folders.cache];
  const secrets = SECRET_PATHS_IN_HOME.map((relative) => inHome(home, relative));
  const allowWrite = unique([...inputs.roots, ...own, ...settings.allowedFolders]);
  const denyRead = unique([...secrets, inputs.berthConfigDir, ...inputs.berthSecretFiles]);
  // Inside Berth's folder only its own folders and the bundles are re-opened: a root or a folder the person
  // allowed there (stored by an older Berth, or a config edited by hand) never opens Berth's files to reading.
  const readable = [...own, ...inputs.berthReadable];
  const allowRead = unique(
    readable.filter(
      (path) => isWithin(path, inputs.berthConfigDir) && !secrets.some((secret) => isWithin(path, secret)),
    ),
  );
  const ownInConfig = own.some((path) => isWithin(path, inputs.berthConfigDir));
  // Every entry but the folders that lead to its own (`sandbox/`, `sandbox/<it>`): other servers' folders included.
  const berthEntries = (inputs.berthEntries ?? []).filter((entry) => !own.some((path) => isWithin(path, entry)));
  const denyWrite = unique([
    ...STARTUP_PATHS_IN_HOME.map((relative) => inHome(home, relative)),
    ...secrets,
    ...inputs.berthSecretFiles,
    // Berth's config folder, except the server's own folders inside it.
    ...(ownInConfig ? [...berthFilesBesides(inputs.berthConfigDir), ...berthEntries] : [inputs.berthConfigDir]),
  ]);
  return { allowWrite, denyWrite, denyRead, allowRead, allowedDomains: [...new Set(settings.allowedDomains)] };
}

/** Berth's own files and folders inside its config folder (everything but `sandbox/`, where the servers' folders live). */
export function berthFilesBesides(configDir: string): string[] {
  return [
    'config.json',
    'settings.json',
    'secrets.json',
    'registries.json',
    'sandbox.json',
    'state',
    'logs',
    'conversations',
    'bundles',
  ].map((name) => `${trimSlash(configDir)}/${name}`);
}

/** `/home/ann/Documents/x` → `~/Documents/x`: how paths are shown. */
export function tildePath(path: string, home: string): string {
  const h = trimSlash(home);
  if (h === '' || h === '/') return path;
  if (path === h) return '~';
  return path.startsWith(`${h}/`) ? `~${path.slice(h.length)}` : path;
}

/** The policy in plain words, for the server form, its detail and the review. */
export interface SandboxPolicyWords {
  /** "Can change files only in: ~/Projects/site, its own folders". */
  write: string;
  /** "Cannot read: SSH keys, cloud and package-manager credentials, browser profiles, Berth's settings and secrets". */
  read: string;
  /** "No network" / "Network only to: api.github.com, *.npmjs.org". */
  network: string;
  /** The folders it may write, shown with `~`. */
  writeFolders: string[];
  /** Said when a writable folder is home or holds it: what stays closed inside (app/sandbox/sandbox-writable.ts). */
  closedInside?: string;
}

/** What stays closed in a writable folder that is home or holds it. */
export const CLOSED_IN_HOME_WORDS =
  'In your home folder, its dotfiles and dot-folders (shell and login start-up files, program settings) stay read-only, and nothing new can be made directly in it';

/** {@linkcode SandboxPolicyWords} for a policy; `ownFolders` are named "its own folders" instead of listed. */
export function describeSandboxPolicy(
  policy: SandboxPolicy,
  home: string,
  ownFolders: SandboxServerFolders,
): SandboxPolicyWords {
  const own = new Set([ownFolders.data, ownFolders.temp, ownFolders.cache].map(trimSlash));
  const writeFolders = policy.allowWrite
    .filter((path) => !own.has(trimSlash(path)))
    .map((path) => tildePath(path, home));
  const write =
    writeFolders.length === 0
      ? 'Can change files only in its own folders (data, temporary files, cache)'
      : `Can change files only in: ${writeFolders.join(', ')}, and its own folders`;
  const read =
    "Can read the system and its own program, but not: SSH and GPG keys, cloud and package-manager credentials, browser profiles, Berth's settings and secrets";
  const network =
    policy.allowedDomains.length === 0 ? 'No network' : `Network only to: ${policy.allowedDomains.join(', ')}`;
  const holdsHome = policy.allowWrite.some((path) => isWithin(home, path));
  return { write, read, network, writeFolders, ...(holdsHome ? { closedInside: CLOSED_IN_HOME_WORDS } : {}) };
}

/** What a sandboxed server was refused. */
export type SandboxDenialKind = 'read' | 'write' | 'network';

/**
 * Where a denial was seen: `server` — read from the server's own output
 * (stderr, a failed tool call's text, its start error), so it is the
 * server's claim, which a hostile server can forge; `proxy` — the sandbox's
 * own network proxy refused the connection: Berth saw it happen.
 */
export type SandboxDenialSource = 'server' | 'proxy';

/** One refusal seen in a sandboxed server's stderr or error (the `sandbox.denied` topic). */
export interface SandboxDenial {
  server: string;
  kind: SandboxDenialKind;
  /** The absolute path, or the host (`host` or `host:port`). */
  target: string;
  source: SandboxDenialSource;
  /** "the server reports the sandbox blocked a write to ~/Documents/x", "blocked by the sandbox: connection to host": the log line and the card's text. */
  message: string;
  /** Epoch ms. */
  at: number;
  /** What `sandbox.allow` would add for this denial: the folder to allow writing, or the domain; absent when Berth never allows it. */
  fix?: { folder: string } | { domain: string };
  /** Why no fix is offered, saying what the place holds ("it holds your home folder (/home/ann)"); absent with a fix. */
  noFix?: string;
  /** `noFix` as a code (sandbox-errors.no-fix-*), which the denial notice words in the person's language. */
  noFixMessage?: HostMessage;
}

/** How the log lines of denials start, by source (the renderer puts the fix beside them). */
export const DENIAL_PREFIXES: Readonly<Record<SandboxDenialSource, string>> = {
  server: 'the server reports the sandbox blocked ',
  proxy: 'blocked by the sandbox: ',
};

/** The words of a denial: a server's claim says it is one ("the server reports the sandbox blocked a write to ~/x"). */
export function denialMessage(
  kind: SandboxDenialKind,
  target: string,
  home: string,
  source: SandboxDenialSource,
): string {
  const what =
    kind === 'network'
      ? `connection to ${target}`
      : `${kind} ${kind === 'read' ? 'of' : 'to'} ${tildePath(target, home)}`;
  return source === 'proxy' ? `${DENIAL_PREFIXES.proxy}${what}` : `${DENIAL_PREFIXES.server}a ${what}`;
}

function commandName(command: string | undefined): string {
  return (
    (command ?? '')
      .split(/[\\/]/)
      .pop()
      ?.replace(/\.(exe|cmd|bat)$/i, '') ?? ''
  );
}

/**
 * Domains a launcher needs on a sandboxed server's first start, to pre-fill
 * a review: npx & co. download the package (into the server's own cache),
 * uvx & co. from PyPI. The person sees and may remove them.
 */
export function suggestedSandboxDomains(command: string | undefined): string[] {
  const name = commandName(command);
  if (['npx', 'npm', 'pnpm', 'pnpx', 'yarn', 'bunx', 'bun'].includes(name)) return ['registry.npmjs.org'];
  if (['uvx', 'uv', 'pip', 'pip3', 'pipx'].includes(name)) return ['pypi.org', 'files.pythonhosted.org'];
  return [];
}

/**
 * Why a local server cannot run in the sandbox as configured, or undefined.
 * `docker run` talks to Docker's socket, which is exactly what the sandbox
 * blocks (a server with the Docker socket could start a container with the
 * whole disk); such a server is isolated by its container instead.
 */
export function sandboxFitProblem(command: string | undefined): string | undefined {
  const name = commandName(command);
  if (name === 'docker' || name === 'podman')
    return `${name} servers run in their own container: the sandbox would block ${name === 'docker' ? "Docker's" : "Podman's"} socket, so they cannot start in it`;
  return undefined;
}

/** Whether the platform can sandbox servers, and if not, why and what to install. */
export interface SandboxSupport {
  available: boolean;
  /** `process.platform` of the host. */
  platform: string;
  /** Why not, in words (absent when available). */
  reason?: string;
  /** What to install, as a command or a sentence (absent when nothing would help, e.g. Windows). */
  install?: string;
  /** Notes that do not stop the sandbox (the runtime's warnings). */
  warnings: string[];
}

const DOMAIN_LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
const IPV4 = /^(?:25[0-5]|2[0-4]\d|1?\d?\d)(?:\.(?:25[0-5]|2[0-4]\d|1?\d?\d)){3}$/;

/**
 * Why a network entry is not one the sandbox takes, or undefined when it is:
 * `example.com`, `*.example.com`, an IPv4 address, each with an optional
 * `:port`. No scheme, no path, no bare `*`; this computer or a private
 * network only as one `host:port`; never a metadata service.
 */
export function domainEntryProblem(entry: string): string | undefined {
  const text = entry.trim().toLowerCase();
  if (text === '') return 'Enter a domain';
  if (text.length > 253 + 6) return 'That domain is too long';
  if (/^[a-z][a-z0-9+.-]*:\/\//.test(text) || text.includes('/'))
    return 'Enter a domain without http:// or a path (example.com)';
  const match = /^(.*?)(?::(\d{1,5}))?$/.exec(text);
  const host = match?.[1] ?? '';
  const port = match?.[2];
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65_535)) return 'The port must be between 1 and 65535';
  return (IPV4.test(host) ? undefined : domainNameProblem(host)) ?? localDomainProblem(text);
}

function domainNameProblem(host: string): string | undefined {
  const name = host.startsWith('*.') ? host.slice(2) : host;
  if (name === '' || name === '*' || host.includes('*', host.startsWith('*.') ? 1 : 0))
    return 'A wildcard is allowed only as "*.example.com"';
  const labels = name.split('.');
  if (labels.some((label) => !DOMAIN_LABEL.test(label))) return 'That is not a domain (example.com or *.example.com)';
  if (host.startsWith('*.') && labels.length < 2) return 'A wildcard needs a domain with a dot ("*.example.com")';
  return undefined;
}

/**
 * Why a network entry for this computer, a private network or a metadata
 * service is refused, or undefined: never a metadata or link-local address;
 * otherwise only one exact `host:port`, typed by the person, so no other local
 * service (Berth's own bridge among them) is opened with it.
 */
function localDomainProblem(entry: string): string | undefined {
  if (isMetadataOrLinkLocalTarget(entry))
    return `${entry} is a cloud metadata service or a link-local address, which hands out this machine's cloud credentials: Berth never opens it to a sandboxed server`;
  if (!isLocalOrPrivateTarget(entry)) return undefined;
  if (entry.startsWith('*.'))
    return 'A wildcard cannot name this computer or a private network: enter the one host:port the server needs';
  if (!hasPort(entry))
    return `${entry} is this computer or a private network: enter the one port the server needs (${entry}:5432), so no other local service, Berth's own included, is opened to it`;
  return undefined;
}

/**
 * Folders in home that hold other programs' settings or launchers (a part of
 * them runs code at login, in a shell or on the next `git status`): never
 * offered, never accepted as a folder to write, nor any folder inside them.
 */
export const PROGRAM_FOLDERS_IN_HOME: readonly string[] = [
  '.config',
  '.local/bin',
  '.local/share/applications',
  '.local/share/systemd',
];

/** The places a folder to write is checked against; `configDir` is Berth's config folder when known (the host always knows it). */
export interface ProtectedPlaces {
  home: string;
  configDir?: string | undefined;
}

/**
 * What a folder Berth never lets a sandboxed server write holds, as a fact the catalog words:
 * `place` is the folder that makes it so, as shown (`~/.ssh`); '' for the whole disk.
 */
export type ProtectedKind =
  'disk' | 'home' | 'holdsHome' | 'config' | 'insideConfig' | 'holdsConfig' | 'secrets' | 'startup' | 'programs';
export interface ProtectedPlace {
  kind: ProtectedKind;
  place: string;
}

/**
 * Why Berth never lets a sandboxed server write `path`, as what the folder
 * holds, or undefined. Refused: the whole disk; home, and any
 * folder that holds it; Berth's config folder (settings, secrets, the browser
 * profile, every server's sandbox folders), inside it or holding it; a
 * credentials folder, a startup file or a program-settings folder, inside it
 * or holding it. `path` is absolute and normalized; the host passes its real
 * path too (symlinks resolved), as a link may lead anywhere.
 */
export function protectedFolderPlace(path: string, places: ProtectedPlaces): ProtectedPlace | undefined {
  const p = trimSlash(path);
  if (p === '/') return { kind: 'disk', place: '' };
  const home = trimSlash(places.home);
  if (home === '' || home === '/') return undefined;
  const shown = (folder: string) => tildePath(folder, home);
  if (p === home) return { kind: 'home', place: home };
  if (isWithin(home, p)) return { kind: 'holdsHome', place: home };
  const config = places.configDir === undefined ? undefined : trimSlash(places.configDir);
  if (config !== undefined && config !== '') {
    if (p === config) return { kind: 'config', place: shown(config) };
    if (isWithin(p, config)) return { kind: 'insideConfig', place: shown(config) };
    if (isWithin(config, p)) return { kind: 'holdsConfig', place: shown(config) };
  }
  const under = (relative: readonly string[]) =>
    relative.map((rel) => inHome(home, rel)).find((folder) => isWithin(p, folder) || isWithin(folder, p));
  const secret = under(SECRET_PATHS_IN_HOME);
  if (secret !== undefined) return { kind: 'secrets', place: shown(secret) };
  const startup = under(STARTUP_PATHS_IN_HOME);
  if (startup !== undefined) return { kind: 'startup', place: shown(startup) };
  const programs = under(PROGRAM_FOLDERS_IN_HOME);
  if (programs !== undefined) return { kind: 'programs', place: shown(programs) };
  return undefined;
}

/** What a protected folder holds, in English ("it holds credentials (~/.ssh)"). */
export function protectedPlaceText({ kind, place }: ProtectedPlace): string {
  switch (kind) {
    case 'disk':
      return 'it is the whole disk';
    case 'home':
      return 'it is your home folder';
    case 'holdsHome':
      return `it holds your home folder (${place})`;
    case 'config':
      return `it is Berth's own settings folder (${place}): Berth's settings, secrets, conversations and every server's sandbox`;
    case 'insideConfig':
      return `it is inside Berth's own settings folder (${place}), which holds Berth's settings, secrets and the other servers' files`;
    case 'holdsConfig':
      return `it holds Berth's own settings folder (${place})`;
    case 'secrets':
      return `it holds credentials (${place})`;
    case 'startup':
      return `it holds files that run code at login or in your shell (${place})`;
    case 'programs':
      return `it holds other programs' settings and launchers, some of which run code (${place})`;
  }
}

/** Why Berth never lets a sandboxed server write `path`, in words that say what the folder holds, or undefined. */
export function protectedFolderReason(path: string, places: ProtectedPlaces): string | undefined {
  const found = protectedFolderPlace(path, places);
  return found === undefined ? undefined : protectedPlaceText(found);
}

/** What is wrong with a folder entry as typed, before any place is looked at. */
export type FolderEntryIssue = 'empty' | 'tooLong' | 'nul' | 'notAbsolute' | 'dots';

/** The entry's own problem as a fact, or undefined: an absolute path, not too long, with no NUL, `.` or `..`. */
export function folderEntryIssue(path: string): FolderEntryIssue | undefined {
  if (path.trim() === '') return 'empty';
  if (path.length > 4_096) return 'tooLong';
  if (path.includes('\0')) return 'nul';
  if (!path.startsWith('/')) return 'notAbsolute';
  if (path.split('/').some((part) => part === '..' || part === '.')) return 'dots';
  return undefined;
}

/** A folder entry's own problem in English. */
export function folderEntryIssueText(issue: FolderEntryIssue): string {
  switch (issue) {
    case 'empty':
      return 'Enter a folder';
    case 'tooLong':
      return 'That path is too long';
    case 'nul':
      return 'That path holds a NUL character';
    case 'notAbsolute':
      return 'Enter an absolute folder path (starting with /)';
    case 'dots':
      return 'Enter the folder without "." or ".."';
  }
}

/**
 * Why a folder entry is not one the sandbox takes, or undefined: an absolute
 * path with no `.`/`..` that {@linkcode protectedFolderReason} does not refuse.
 * The renderer checks with `home` alone for a quick answer; the host, the
 * authority, checks with its config folder and the real path too.
 */
export function folderEntryProblem(path: string, home: string, configDir?: string): string | undefined {
  const issue = folderEntryIssue(path);
  if (issue !== undefined) return folderEntryIssueText(issue);
  const reason = protectedFolderReason(path, { home, configDir });
  return reason === undefined ? undefined : protectedFolderProblem(reason);
}

/** The refusal for a protected folder, with what to do instead. */
export function protectedFolderProblem(reason: string): string {
  return `Berth never lets a sandboxed server write there: ${reason}. Pick the one folder it needs, such as a project folder`;
}
