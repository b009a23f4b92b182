import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import type { AppUiCsp } from '../../shared/domain/app-ui';

const repoRoot = resolve(import.meta.dirname, '..', '..');

/** Builds the real sandbox proxy page (vite.sandbox-proxy.config.ts) into `outDir`. */
export async function buildSandboxProxy(outDir: string): Promise<string> {
  await promisify(execFile)(
    process.execPath,
    [
      resolve(repoRoot, 'node_modules', 'vite', 'bin', 'vite.js'),
      'build',
      '--config',
      'vite.sandbox-proxy.config.ts',
      '--outDir',
      outDir,
      '--logLevel',
      'warn',
    ],
    {
      cwd: repoRoot,
    },
  );
  return outDir;
}

export interface HostPageConfig {
  /** The proxy document's URL (with the app's CSP in its query). */
  proxyUrl: string;
  proxyOrigin: string;
  html: string;
  /** The CSP sent with sandbox-resource-ready. */
  messageCsp: AppUiCsp;
  /** A sandbox override sent with sandbox-resource-ready. */
  sandbox?: string;
  /** Sent to the app as ui/notifications/tool-input. */
  toolArguments: Record<string, string>;
}

/**
 * A stand-in for Berth's UI: frames the proxy on its own origin WITHOUT a
 * sandbox attribute (the renderer adds one, a second wall; these tests check
 * that the proxy's inner frame holds on its own), answers the
 * spec's handshake by hand (sandbox-proxy-ready → sandbox-resource-ready;
 * ui/initialize → result; initialized → tool-input) and keeps the app's report
 * in `window.appReport`, the proxy's own notes in `window.proxyNotes`, the app's CSP refusals as the
 * proxy words them in `window.cspRefusals`.
 */
export function hostPage(config: HostPageConfig): string {
  // JSON inside <script>: "<" escaped so nothing in it can close the element.
  const json = JSON.stringify(config).replace(/</g, '\\u003c');
  return `<!doctype html><html><head><meta charset="utf-8"><title>test host</title></head><body>
<iframe id="app" style="width:600px;height:400px"></iframe>
<script>
const config = ${json};
const frame = document.getElementById('app');
window.proxyNotes = [];
window.cspRefusals = [];
const toProxy = (message) => frame.contentWindow.postMessage(Object.assign({ jsonrpc: '2.0' }, message), config.proxyOrigin);
window.addEventListener('message', (event) => {
  if (event.source !== frame.contentWindow || event.origin !== config.proxyOrigin) return;
  const message = event.data;
  if (message.method === 'ui/notifications/sandbox-proxy-ready') {
    const params = { html: config.html, csp: config.messageCsp, permissions: {} };
    if (config.sandbox !== undefined) params.sandbox = config.sandbox;
    toProxy({ method: 'ui/notifications/sandbox-resource-ready', params });
  } else if (message.method === 'ui/initialize') {
    toProxy({ id: message.id, result: { protocolVersion: '2026-01-26', hostInfo: { name: 'test-host', version: '1.0.0' }, hostCapabilities: {}, hostContext: {} } });
  } else if (message.method === 'ui/notifications/initialized') {
    toProxy({ method: 'ui/notifications/tool-input', params: { arguments: config.toolArguments } });
  } else if (message.method === 'notifications/message' && message.params.logger === 'hostile-app') {
    window.appReport = message.params.data;
  } else if (message.method === 'notifications/message' && message.params.logger === 'berth-app-csp') {
    window.cspRefusals.push(message.params.data);
  } else if (message.method === 'notifications/message') {
    window.proxyNotes.push(message.params);
  }
});
frame.src = config.proxyUrl;
</script></body></html>`;
}
