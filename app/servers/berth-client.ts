import { Client, LOG_LEVEL_META_KEY, specTypeSchemas } from '@modelcontextprotocol/client';
import { z } from 'zod';
import { describeInvalidResult } from './invalid-result';
import type { Tool, Transport } from '@modelcontextprotocol/client';
import type { LogLevel, ToolInfo } from '../../shared/domain/server';
import { toolUiOf } from '../../shared/apps/tool-ui';
import { nameToolTwins } from '../../shared/domain/tool-twins';

/**
 * The SDK client with one addition: in the 2026-07-28 era there is no
 * `logging/setLevel`, the level travels in each request's `_meta`, so the
 * envelope the SDK attaches gets the requested level added.
 */
export class BerthClient extends Client {
  requestLogLevel: LogLevel | undefined;

  protected override _outboundMetaEnvelope(): Readonly<Record<string, unknown>> | undefined {
    const envelope = super._outboundMetaEnvelope();
    if (envelope === undefined || this.requestLogLevel === undefined) return envelope;
    return { ...envelope, [LOG_LEVEL_META_KEY]: this.requestLogLevel };
  }

  /**
   * The `_meta` envelope this client puts on every request of a modern-era
   * connection (protocol version, client info and capabilities, log level);
   * undefined before a version is negotiated. For requests Berth sends past
   * the SDK (app/tasks/modern-dispatch.ts), so they say the same.
   */
  requestEnvelope(): Readonly<Record<string, unknown>> | undefined {
    return this._outboundMetaEnvelope();
  }
}

function toToolInfo(tool: Tool): ToolInfo {
  const info: ToolInfo = {
    name: tool.name,
    ...(tool.title !== undefined ? { title: tool.title } : {}),
    ...(tool.description !== undefined ? { description: tool.description } : {}),
    inputSchema: tool.inputSchema as Record<string, unknown>,
    ...(tool.outputSchema !== undefined ? { outputSchema: tool.outputSchema as Record<string, unknown> } : {}),
    ...(tool.annotations !== undefined ? { annotations: tool.annotations as Record<string, unknown> } : {}),
    ...(tool.execution?.taskSupport !== undefined ? { execution: { taskSupport: tool.execution.taskSupport } } : {}),
  };
  // MCP Apps: the UI resource the tool's card renders and who may call it.
  const ui = toolUiOf(tool._meta);
  return ui === undefined ? info : { ...info, ui };
}

/**
 * SEP-2322: a 2026-07-28 result without `resultType` is to be read as
 * "complete". The SDK (2.4) refuses such a result instead, so after the
 * handshake of a modern-era connection every incoming result that lacks the
 * field gets `resultType: "complete"` before the SDK sees it. `noticed` is
 * told the first time, so the server's log says so once.
 */
export function acceptResultsWithoutType(transport: Transport, noticed: () => void): void {
  const deliver = transport.onmessage;
  if (deliver === undefined) return;
  let told = false;
  transport.onmessage = (message, extra) => {
    if (
      'result' in message &&
      typeof message.result === 'object' &&
      message.result !== null &&
      !Array.isArray(message.result) &&
      !('resultType' in message.result)
    ) {
      if (!told) {
        told = true;
        noticed();
      }
      deliver.call(transport, { ...message, result: { ...message.result, resultType: 'complete' } }, extra);
      return;
    }
    deliver.call(transport, message, extra);
  };
}

/** One page of tools/list, each tool left unchecked so one bad tool does not sink the others. */
const ToolsPageSchema = z.looseObject({ tools: z.array(z.unknown()), nextCursor: z.string().optional() });
/** A server that keeps sending cursors is cut off here. */
const MAX_TOOL_PAGES = 100;

/**
 * Every page of the server's tools/list (following `nextCursor`). Each page
 * goes through the SDK's `listTools`, which also learns what it needs for
 * later calls (SEP-2243 parameter headers, tools it must exclude). Only when
 * the SDK refuses a page as invalid is that page read again leniently, each
 * tool checked on its own against the MCP Tool schema: a tool that is not
 * valid MCP is left out and named in `skipped`, instead of the whole list
 * (and so the whole server) failing. Tools that share a name get names of
 * their own (shared/domain/tool-twins.ts).
 */
export async function listAllTools(
  client: Client,
  timeoutMs: number,
): Promise<{ tools: ToolInfo[]; skipped: string[] }> {
  const tools: ToolInfo[] = [];
  const skipped: string[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_TOOL_PAGES; page += 1) {
    const params = cursor === undefined ? undefined : { cursor };
    try {
      const result = await client.listTools(params, { timeout: timeoutMs });
      tools.push(...result.tools.map(toToolInfo));
      cursor = result.nextCursor;
    } catch (error) {
      if (describeInvalidResult(error) === undefined) throw error;
      const result = await client.request({ method: 'tools/list', params: params ?? {} }, ToolsPageSchema, {
        timeout: timeoutMs,
      });
      for (const [index, raw] of result.tools.entries()) {
        const checked = await specTypeSchemas.Tool['~standard'].validate(raw);
        if (checked.issues === undefined) tools.push(toToolInfo(checked.value as Tool));
        else skipped.push(describeBadTool(raw, page, index, checked.issues));
      }
      cursor = result.nextCursor;
    }
    if (cursor === undefined) break;
  }
  // The whole list, every page: a twin on a later page is named after the earlier pages' tools.
  return { tools: nameToolTwins(tools), skipped };
}

function describeBadTool(
  raw: unknown,
  page: number,
  index: number,
  issues: ReadonlyArray<{ message: string; path?: ReadonlyArray<PropertyKey | { key: PropertyKey }> }>,
): string {
  const name =
    typeof raw === 'object' && raw !== null && typeof (raw as { name?: unknown }).name === 'string'
      ? `'${(raw as { name: string }).name}'`
      : `#${index + 1}${page > 0 ? ` of page ${page + 1}` : ''} (no name)`;
  const problems = issues.slice(0, 2).map((issue) => {
    const path = (issue.path ?? [])
      .map((segment) => String(typeof segment === 'object' ? segment.key : segment))
      .join('.');
    return path === '' ? issue.message : `${path}: ${issue.message}`;
  });
  return `${name}: ${problems.join('; ')}${issues.length > 2 ? ` (and ${issues.length - 2} more)` : ''}`;
}
