import { createServer, type Server } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTOMATION_FLAGS, findBrowser } from '../../app/cli/browser-lookup.mjs';
import { startSandboxProxyServer, type SandboxProxyServer } from '../../app/apps/sandbox-proxy-server';
import { startBrowserServer, type BrowserServer } from '../../app/bridge/ws-server';
import { createEventHub } from '../../app/events/event-hub';
import type { Host } from '../../app/host/host-types';
import { proxyDocumentUrl, readAppCsp } from '../../shared/apps/app-csp';
import type { AppUiCsp } from '../../shared/domain/app-ui';
import { ok } from '../../shared/result';
import { buildSandboxProxy, hostPage, type HostPageConfig } from './app-sandbox-support';

// The MCP Apps sandbox in a real Chromium: a stand-in for Berth's UI on one
// loopback origin embeds the real proxy from the real sandbox server (another
// origin), hands it the hostile fixture app's HTML and CSP exactly as the
// server gives them, and drives it through the spec's messages. Every escape
// the app tries must fail; the origin it declares must stay reachable.

const repoRoot = resolve(import.meta.dirname, '..', '..');
const PROBE_TIMEOUT_MS = 15_000;

/** A loopback HTTP server that counts requests and answers CORS-open text. */
function countingServer(label: string): Promise<{ server: Server; url: string; hits: string[] }> {
  const hits: string[] = [];
  const server = createServer((request, response) => {
    hits.push(request.url ?? '');
    response.writeHead(200, {
      'Content-Type': 'text/plain',
      'Access-Control-Allow-Origin': '*',
      'Content-Security-Policy': "default-src 'none'",
    });
    response.end(`hello from the ${label} origin`);
  });
  return new Promise((resolveListen) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      resolveListen({ server, url: `http://127.0.0.1:${port}/`, hits });
    }),
  );
}

const bridgeCalls: unknown[] = [];
const bridgeHost: Host = {
  dispatch: async (method: unknown) => {
    bridgeCalls.push(method);
    return ok({});
  },
  subscribe: createEventHub().subscribe,
  shutdown: async () => undefined,
};

let dir: string;
let browser: Browser;
let bridge: BrowserServer;
let proxy: SandboxProxyServer;
let hostServer: Server;
let hostOrigin: string;
let declared: Awaited<ReturnType<typeof countingServer>>;
let undeclared: Awaited<ReturnType<typeof countingServer>>;
let app: { html: string; csp: AppUiCsp; resourceUri: string };
let currentPage = '';

beforeAll(async () => {
  const lookup = findBrowser();
  if (lookup.kind !== 'found')
    throw new Error(
      `This test drives a real Chromium: ${lookup.reason} (npm test installs one: scripts/provision-browser.mjs)`,
    );
  dir = await mkdtemp(join(tmpdir(), 'berth-app-sandbox-'));
  const proxyDir = await buildSandboxProxy(join(dir, 'sandbox-proxy'));

  declared = await countingServer('declared');
  undeclared = await countingServer('undeclared');

  // The real fixture server, over MCP: its tool names the UI resource; the resource carries the HTML and the CSP.
  const client = new Client({ name: 'app-sandbox-test', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [join(repoRoot, 'e2e', 'fixtures', 'servers', 'hostile-app.mjs')],
      env: { ...(process.env as Record<string, string>), HOSTILE_APP_CONNECT_DOMAINS: new URL(declared.url).origin },
    }),
  );
  try {
    const { tools } = await client.listTools();
    const tool = tools.find((candidate) => candidate.name === 'hostile_probe');
    const resourceUri = (tool?._meta as { ui?: { resourceUri?: string } } | undefined)?.ui?.resourceUri ?? '';
    const { contents } = await client.readResource({ uri: resourceUri });
    const content = contents[0] as { text?: string; mimeType?: string; _meta?: { ui?: { csp?: unknown } } };
    expect(content.mimeType).toBe('text/html;profile=mcp-app');
    app = { html: content.text ?? '', csp: readAppCsp(content._meta?.ui?.csp), resourceUri };
  } finally {
    await client.close();
  }
  expect(app.csp).toEqual({ connectDomains: [new URL(declared.url).origin] });

  hostServer = createServer((_request, response) => {
    response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
    response.end(currentPage);
  });
  await new Promise<void>((resolveListen) => hostServer.listen(0, '127.0.0.1', () => resolveListen()));
  const hostAddress = hostServer.address();
  hostOrigin = `http://127.0.0.1:${typeof hostAddress === 'object' && hostAddress !== null ? hostAddress.port : 0}`;

  proxy = await startSandboxProxyServer({ proxyDir, embedderOrigins: () => [hostOrigin] });
  bridge = await startBrowserServer({
    host: bridgeHost,
    staticDir: join(dir, 'sandbox-proxy'),
    appSandboxOrigin: proxy.origin,
  });
  browser = await chromium.launch({ executablePath: lookup.path, args: [...AUTOMATION_FLAGS] });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await bridge?.close();
  await proxy?.close();
  for (const server of [hostServer, declared?.server, undeclared?.server]) server?.close();
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
});

interface ProbeReport {
  probes: Record<string, string>;
  violations: Array<{ directive: string; blocked: string }>;
}

/** Loads the host page with the app in it and waits for the app's report. */
async function runHostileApp(
  options: Partial<Pick<HostPageConfig, 'messageCsp' | 'sandbox'>> & {
    queryCsp?: AppUiCsp | 'none';
    extraArguments?: Record<string, string>;
    until?: 'report' | 'proxy-note';
    /** The person's language Berth's UI names to the proxy (its page's own words). */
    language?: string;
  } = {},
) {
  const config: HostPageConfig = {
    proxyUrl:
      options.queryCsp === 'none'
        ? proxy.url
        : proxyDocumentUrl(proxy.url, options.queryCsp ?? app.csp, options.language),
    proxyOrigin: proxy.origin,
    html: app.html,
    messageCsp: options.messageCsp ?? app.csp,
    ...(options.sandbox !== undefined ? { sandbox: options.sandbox } : {}),
    toolArguments: {
      bridgeUrl: bridge.url,
      undeclaredUrl: undeclared.url,
      declaredUrl: declared.url,
      ...options.extraArguments,
    },
  };
  currentPage = hostPage(config);
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const popups: string[] = [];
    context.on('page', (opened) => popups.push(opened.url()));
    const hostUrl = `${hostOrigin}/host.html`;
    await page.goto(hostUrl);
    if (options.until === 'proxy-note') {
      await page.waitForFunction(
        () => (window as unknown as { proxyNotes: unknown[] }).proxyNotes.length > 0,
        undefined,
        { timeout: PROBE_TIMEOUT_MS },
      );
    } else {
      await page.waitForFunction(
        () => (window as unknown as { appReport?: unknown }).appReport !== undefined,
        undefined,
        { timeout: PROBE_TIMEOUT_MS },
      );
    }
    // Give a navigation or popup the app started time to happen before looking.
    await page.waitForTimeout(500);
    const report = (await page.evaluate(() => (window as unknown as { appReport?: unknown }).appReport)) as ProbeReport;
    const proxyNotes = (await page.evaluate(
      () => (window as unknown as { proxyNotes: unknown[] }).proxyNotes,
    )) as unknown[];
    const cspRefusals = (await page.evaluate(
      () => (window as unknown as { cspRefusals: unknown[] }).cspRefusals,
    )) as unknown[];
    // What the proxy's own page shows the person (its note once the app is gone).
    const proxyFrame = page.frames().find((frame) => frame.url().startsWith(proxy.origin));
    const pageNote = (await proxyFrame?.locator('p').allTextContents())?.join('') ?? '';
    return { report, pageUrl: page.url(), popups, proxyNotes, cspRefusals, hostUrl, pageNote };
  } finally {
    await context.close();
  }
}

describe.skipIf(process.platform !== 'linux')('an MCP App in the real sandbox, in Chromium', () => {
  it('cannot escape: bridge, parent and top documents, navigation, undeclared origins and popups all fail; its declared origin works', async () => {
    undeclared.hits.length = 0;
    bridgeCalls.length = 0;
    const { report, pageUrl, popups, hostUrl } = await runHostileApp();
    const { probes } = report;

    expect(probes.websocket).toMatch(/^blocked/);
    expect(bridgeCalls).toEqual([]);
    expect(probes.parentDocument).toBe('blocked: SecurityError');
    expect(probes.topDocument).toBe('blocked: SecurityError');
    expect(probes.proxyStorage).toBe('blocked: SecurityError');
    expect(probes.openPopup).toBe('blocked: window.open returned null');
    expect(popups).toEqual([]);
    expect(probes.navigateTop).toMatch(/^blocked/);
    expect(probes.navigateParent).toMatch(/^blocked/);
    expect(pageUrl).toBe(hostUrl);
    expect(probes.fetchUndeclared).toBe('blocked: TypeError');
    expect(probes.imageUndeclared).toBe('blocked: error event');
    expect(probes.fetchBridge).toBe('blocked: TypeError');
    expect(undeclared.hits).toEqual([]);
    // The CSP is what stopped the network probes (the bridge's own Origin check is the second wall).
    expect(report.violations.map((violation) => violation.directive)).toEqual(
      expect.arrayContaining(['connect-src', 'img-src']),
    );

    expect(probes.fetchDeclared).toBe('reached: cors 200 hello from the declared origin');
    for (const [name, outcome] of Object.entries(probes)) expect(outcome, name).not.toMatch(/^ESCAPED/);
  });

  it("framed at the bare proxy URL, the proxy loads itself again with the app's CSP: the declared origin works, nothing else does", async () => {
    undeclared.hits.length = 0;
    const { report, proxyNotes, cspRefusals } = await runHostileApp({ queryCsp: 'none' });
    expect(report.probes.fetchDeclared).toBe('reached: cors 200 hello from the declared origin');
    expect(report.probes.fetchUndeclared).toBe('blocked: TypeError');
    expect(report.probes.parentDocument).toBe('blocked: SecurityError');
    expect(undeclared.hits).toEqual([]);
    expect(proxyNotes).toEqual([]);
    // What the policy refused reaches the host as facts (the app card words them: renderer/features/apps/csp-refusal.ts).
    expect(cspRefusals).toContainEqual({
      directive: 'connect-src',
      blocked: expect.stringMatching(/^ws:\/\/127\.0\.0\.1:\d+\/bridge$/),
    });
    expect(cspRefusals).toContainEqual({ directive: 'img-src', blocked: expect.stringMatching(/^http/) });
  });

  it('the header policy holds on its own: a domain only the message declares stays unreachable', async () => {
    const { report } = await runHostileApp({ queryCsp: {} });
    expect(report.probes.fetchDeclared).toBe('blocked: TypeError');
  });

  it("the <meta> policy holds on its own: a domain only the proxy's URL declares stays unreachable", async () => {
    undeclared.hits.length = 0;
    const { report } = await runHostileApp({
      queryCsp: { connectDomains: [new URL(undeclared.url).origin, new URL(declared.url).origin] },
    });
    expect(report.probes.fetchUndeclared).toBe('blocked: TypeError');
    expect(undeclared.hits).toEqual([]);
    expect(report.probes.fetchDeclared).toMatch(/^reached/);
  });

  it('a sandbox override cannot widen the frame: same-origin and popups stay refused, and the host is told', async () => {
    const { report, proxyNotes } = await runHostileApp({
      sandbox: 'allow-scripts allow-same-origin allow-popups allow-top-navigation',
    });
    expect(report.probes.parentDocument).toBe('blocked: SecurityError');
    expect(report.probes.openPopup).toBe('blocked: window.open returned null');
    expect(proxyNotes).toEqual([
      expect.objectContaining({
        data: expect.stringContaining('allow-same-origin, allow-popups, allow-top-navigation'),
      }),
    ]);
  });

  it("even an app that declares Berth's bridge cannot open it: the bridge refuses the app's opaque origin", async () => {
    bridgeCalls.length = 0;
    const bridgeWs = bridge.url.replace(/^http/, 'ws').replace(/\/$/, '');
    const csp = { connectDomains: [bridgeWs, new URL(bridge.url).origin, new URL(declared.url).origin] };
    const { report } = await runHostileApp({ queryCsp: csp, messageCsp: csp });
    expect(report.violations.filter((violation) => violation.blocked.startsWith(bridgeWs))).toEqual([]);
    expect(report.probes.websocket).toBe('blocked: error event');
    expect(bridgeCalls).toEqual([]);
  });

  it("an app that declares Berth's own origin or the proxy's gets neither: the CSP leaves them out and the host is told", async () => {
    const csp = {
      connectDomains: [hostOrigin, proxy.origin.replace('127.0.0.1', 'localhost'), new URL(declared.url).origin],
    };
    const { report, proxyNotes } = await runHostileApp({
      queryCsp: csp,
      messageCsp: csp,
      extraArguments: { undeclaredUrl: `${hostOrigin}/host.html` },
    });
    expect(report.probes.fetchUndeclared).toBe('blocked: TypeError');
    expect(
      report.violations.some(
        (violation) => violation.directive === 'connect-src' && violation.blocked.startsWith(hostOrigin),
      ),
    ).toBe(true);
    expect(report.probes.fetchDeclared).toBe('reached: cors 200 hello from the declared origin');
    expect(proxyNotes).toEqual([
      expect.objectContaining({
        level: 'warning',
        data: expect.stringContaining(`(it is Berth's own window and bridge (${hostOrigin})`),
      }),
      expect.objectContaining({ level: 'warning', data: expect.stringContaining("(it is the app sandbox's own page") }),
    ]);
  });

  it('an app that navigates its own frame away is closed, and the host is told', async () => {
    const { proxyNotes, pageUrl, hostUrl, pageNote } = await runHostileApp({
      extraArguments: { navigateSelf: 'yes' },
      until: 'proxy-note',
    });
    expect(pageUrl).toBe(hostUrl);
    expect(proxyNotes).toEqual([
      expect.objectContaining({ level: 'error', data: expect.stringContaining('navigated away from its own page') }),
    ]);
    expect(pageNote).toBe('The app navigated away from its own page, so Berth closed it.');
  });

  it("the proxy's page tells the person in their language, and the host's log keeps the English", async () => {
    const { proxyNotes, pageNote } = await runHostileApp({
      extraArguments: { navigateSelf: 'yes' },
      until: 'proxy-note',
      language: 'ja',
    });
    expect(pageNote).toBe('アプリが自身のページから移動したため、Berth はアプリを閉じました。');
    expect(proxyNotes).toEqual([
      expect.objectContaining({ level: 'error', data: expect.stringContaining('navigated away from its own page') }),
    ]);
  });
});
