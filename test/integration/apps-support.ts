import { join } from 'node:path';
import { REPO_ROOT } from '../../app/servers/test-support';

// The real MCP Apps example servers (devDependencies), run over stdio. Their
// package.json is not exported, so they are found under node_modules.
const entry = (name: string): string =>
  join(REPO_ROOT, 'node_modules', '@modelcontextprotocol', name, 'dist', 'index.js');

/** @modelcontextprotocol/server-basic-vanillajs: tool get-time, app ui://get-time/mcp-app.html. */
export const vanillaConfig = { command: process.execPath, args: [entry('server-basic-vanillajs'), '--stdio'] };
/** @modelcontextprotocol/server-basic-react: the same tool and URI, the app built with React. */
export const reactConfig = { command: process.execPath, args: [entry('server-basic-react'), '--stdio'] };
export const GET_TIME_URI = 'ui://get-time/mcp-app.html';
