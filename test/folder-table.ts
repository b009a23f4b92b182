// Which part of Berth may import which: the layers of docs/ARCHITECTURE.md as
// data, checked by test/folder-imports.test.ts over every relative import. A
// wrong arrow fails the build with the file and the import named; to add an
// arrow, add it here and say in the review why it points that way.

/** An arrow allowed for any source file of `from`: `from` → the listed parts. */
export type Arrows = Readonly<Record<string, readonly string[]>>;

export interface FolderTable {
  /** Top-level folders (and repo-root files such as package.json) each layer may import besides itself. */
  layers: Arrows;
  /** What tests (`*.test.ts[x]`, `*test-support*`) may import too, in any layer: fixtures, fake servers, generators. */
  testLayers: readonly string[];
  /**
   * Inside app/: what each folder (or file at app/'s root) may import besides itself and shared/. Read a row
   * as "builds on". `*`: every part of app/ (the composition). A part without a row fails the test.
   */
  app: Arrows;
  /** Arrows that are wrong but still there, each removed by named work: the test fails once one is not needed. */
  exceptions: Arrows;
}

/** Files at app/'s root named host.ts or host-<word>.ts share the composition row, `host*.ts`. */
export const COMPOSITION_FILE = /^host(-[a-z-]+)?\.ts$/;

export const FOLDER_TABLE: FolderTable = {
  layers: {
    shared: [],
    // package.json: the host states its version (app/host.ts); bundlers inline just that field.
    app: ['shared', 'package.json'],
    main: ['app', 'shared'],
    preload: ['shared'],
    renderer: ['shared'],
  },
  testLayers: ['e2e', 'bench', 'test', 'scripts'],
  app: {
    // Leaves: storage, the queue of what waits for the person, loopback HTTP checks, small helpers.
    config: [],
    net: [],
    events: [],
    'format-seconds.ts': [],
    'tick-cork.ts': [],
    secrets: ['config'],
    logs: ['config'],
    settings: ['config', 'secrets'],
    oauth: ['secrets', 'format-seconds.ts'],
    // One server: its connection, transports and supervision.
    servers: ['config', 'logs', 'oauth', 'secrets', 'format-seconds.ts', 'tick-cork.ts'],
    // What waits for the person (and the calls running meanwhile, timed as a server's requests are).
    pending: ['servers'], // What the person answers.
    elicitation: ['logs', 'pending'],
    // The client's questions (sampling, elicitation) are answered through consent, which follows each server.
    consent: ['config', 'elicitation', 'logs', 'pending', 'sampling', 'servers'],
    // Roots: the folders, and the person's answer before a server first sees one.
    roots: ['config', 'consent', 'events', 'logs', 'pending', 'servers'], // Models, and what runs on them: providers know nothing of the chat; the chat owns result capping (chat/results/).
    providers: ['events', 'settings', 'format-seconds.ts'],
    sampling: ['events', 'logs', 'pending', 'providers', 'settings'],
    chat: ['config', 'consent', 'events', 'logs', 'pending', 'providers', 'servers', 'settings'], // Capabilities built over servers.
    workspace: ['logs', 'servers'],
    'config-import': ['config', 'secrets', 'servers'],
    registry: ['config', 'config-import'],
    bundles: ['config', 'config-import'],
    sandbox: ['config', 'events', 'logs', 'roots', 'servers'],
    tasks: ['config', 'logs', 'pending', 'servers', 'format-seconds.ts'],
    apps: ['chat', 'consent', 'events', 'logs', 'net', 'servers', 'workspace'],
    skills: ['chat', 'config', 'consent', 'events', 'pending', 'roots', 'servers'],
    // MCP Events (a draft extension): event types and the person's subscriptions over servers; actions reach the chat.
    'mcp-events': ['config', 'servers'],
    // Serving the contract: the router's handlers reach every capability they answer for.
    bridge: [
      'apps',
      'bundles',
      'chat',
      'config-import',
      'consent',
      'elicitation',
      'events',
      'mcp-events',
      'net',
      'oauth',
      'pending',
      'providers',
      'registry',
      'roots',
      'sampling',
      'sandbox',
      'secrets',
      'servers',
      'settings',
      'skills',
      'tasks',
      'workspace',
      'tick-cork.ts',
      // HostOptions (app/host/host-types.ts): what the browser-mode server is given.
      'host',
    ],
    // Browser mode's entry point runs the host, as main/ does under Electron.
    cli: ['apps', 'bridge', 'config', 'host', 'host.ts'],
    // The composition: app/host/ (the host-modules work) and today's host.ts with the files cut from it.
    host: ['*'],
    'host*.ts': ['*'],
    'default-open-external.ts': ['host'],
  },
  // None left: the host-modules work moved the services feature folders reached into into their folders.
  exceptions: {},
};
