// The judge of `npm run test:servers`: what Berth saw of a real server against what a bare SDK client saw of the same
// command. Pure: the runners observe, this compares, so its unit test (judge.test.ts) can prove a difference is found.

/** Something that may differ between two runs of one call (a clock, a fresh id): each match becomes `<name>`. */
export interface Mask {
  name: string;
  /** Global (`g`), so every occurrence is replaced. */
  pattern: RegExp;
}

/** A tool as both sides list it: what a model and a call depend on. */
export interface ToolShape {
  name: string;
  inputSchema: unknown;
  outputSchema?: unknown;
}

/** A call's result as MCP returns it. */
export interface CallResult {
  content: unknown[];
  structuredContent?: unknown;
  isError: boolean;
}

/** What one side (Berth, or the bare client) saw of one server. */
export interface Observation {
  ready: boolean;
  /** Not ready: why, in the side's own words. */
  failure?: string;
  protocolVersion?: string;
  era?: 'legacy' | 'modern';
  tools: ToolShape[];
  /** The read-only call: its result, or why there was none. Absent when the server was not ready. */
  call?: { result: CallResult } | { error: string };
}

export type Verdict =
  /** Berth saw what the bare client saw. */
  | { kind: 'same' }
  /** Neither side got the server ready: a server or machine problem, not Berth's. */
  | { kind: 'failed-in-both'; reason: string }
  | { kind: 'different'; differences: string[] };

/** JSON with object keys sorted, so two equal values print alike whatever order their keys came in. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, inner]) => inner !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return Object.fromEntries(entries.map(([key, inner]) => [key, sortKeys(inner)]));
  }
  return value;
}

/** Every string in `value` (keys too) with each mask's matches replaced by `<name>`; nothing else changes. */
export function applyMasks<T>(value: T, masks: readonly Mask[]): T {
  if (masks.length === 0) return value;
  const maskText = (text: string): string =>
    masks.reduce((masked, mask) => masked.replace(mask.pattern, `<${mask.name}>`), text);
  const walk = (inner: unknown): unknown => {
    if (typeof inner === 'string') return maskText(inner);
    if (Array.isArray(inner)) return inner.map(walk);
    if (inner !== null && typeof inner === 'object')
      return Object.fromEntries(
        Object.entries(inner as Record<string, unknown>).map(([k, v]) => [maskText(k), walk(v)]),
      );
    return inner;
  };
  return walk(value) as T;
}

/**
 * A call's result as compared: masked, keys sorted, `isError` false when absent, and text that holds JSON compared
 * as the JSON it holds (servers print it with varying whitespace, never with varying meaning).
 */
export function normalizeResult(result: CallResult, masks: readonly Mask[]): string {
  const masked = applyMasks(result, masks);
  const content = masked.content.map((block) => {
    if (block === null || typeof block !== 'object') return block;
    const { type, text } = block as { type?: unknown; text?: unknown };
    if (type !== 'text' || typeof text !== 'string') return block;
    try {
      return { ...block, text: canonicalJson(JSON.parse(text)) };
    } catch {
      return block;
    }
  });
  return canonicalJson({ content, structuredContent: masked.structuredContent, isError: masked.isError === true });
}

/** The first place two canonical JSON texts part, with some context: what a reader needs to find the difference. */
export function firstDifference(a: string, b: string, context = 60): string {
  let index = 0;
  while (index < a.length && index < b.length && a[index] === b[index]) index++;
  const from = Math.max(0, index - context);
  const cut = (text: string): string =>
    `${from > 0 ? '…' : ''}${text.slice(from, index + context)}${index + context < text.length ? '…' : ''}`;
  return `at character ${index}: bare ${JSON.stringify(cut(a))}, Berth ${JSON.stringify(cut(b))}`;
}

function compareTools(bare: readonly ToolShape[], berth: readonly ToolShape[]): string[] {
  const differences: string[] = [];
  const byName = (tools: readonly ToolShape[]): Map<string, ToolShape> =>
    new Map(tools.map((tool) => [tool.name, tool]));
  const bareTools = byName(bare);
  const berthTools = byName(berth);
  const missing = [...bareTools.keys()].filter((name) => !berthTools.has(name));
  const extra = [...berthTools.keys()].filter((name) => !bareTools.has(name));
  if (missing.length > 0) differences.push(`tools Berth does not list: ${missing.join(', ')}`);
  if (extra.length > 0) differences.push(`tools only Berth lists: ${extra.join(', ')}`);
  for (const [name, tool] of bareTools) {
    const mine = berthTools.get(name);
    if (mine === undefined) continue;
    for (const field of ['inputSchema', 'outputSchema'] as const) {
      const a = canonicalJson(tool[field] ?? null);
      const b = canonicalJson(mine[field] ?? null);
      if (a !== b) differences.push(`${name}.${field} differs ${firstDifference(a, b)}`);
    }
  }
  return differences;
}

/**
 * Whether Berth's result hands on the bare client's failure: where the server answered the call with a JSON-RPC error,
 * a chat host must still give the model a tool result, so Berth makes it a tool error whose text carries the error.
 */
export function handsOnFailure(error: string, result: CallResult): boolean {
  const [only, ...more] = result.content;
  const text = (only as { type?: unknown; text?: unknown } | undefined)?.text;
  return result.isError && more.length === 0 && typeof text === 'string' && error.trim() !== '' && text.includes(error);
}

function compareCalls(bare: Observation['call'], berth: Observation['call'], masks: readonly Mask[]): string[] {
  if (bare === undefined && berth === undefined) return [];
  if (bare === undefined || berth === undefined)
    return [`the call ran only ${bare === undefined ? 'in Berth' : 'in the bare client'}`];
  if ('error' in berth) return 'error' in bare ? [] : [`the call failed only in Berth (${berth.error})`];
  if ('error' in bare)
    return handsOnFailure(bare.error, berth.result) ? [] : [`the call failed only in the bare client (${bare.error})`];
  const a = normalizeResult(bare.result, masks);
  const b = normalizeResult(berth.result, masks);
  return a === b ? [] : [`the call's result differs ${firstDifference(a, b)}`];
}

/** Berth's observation of a server against the bare client's. `masks`: what may differ in the call's result. */
export function judge(bare: Observation, berth: Observation, masks: readonly Mask[]): Verdict {
  if (!bare.ready && !berth.ready)
    return { kind: 'failed-in-both', reason: bare.failure ?? berth.failure ?? 'not ready, no reason given' };
  if (bare.ready !== berth.ready) {
    const notReady = bare.ready ? berth : bare;
    return {
      kind: 'different',
      differences: [
        `ready only in ${bare.ready ? 'the bare client' : 'Berth'}; ${bare.ready ? 'Berth' : 'the bare client'}: ${notReady.failure ?? 'no reason given'}`,
      ],
    };
  }
  const differences: string[] = [];
  if (bare.era !== berth.era || bare.protocolVersion !== berth.protocolVersion)
    differences.push(
      `era: bare ${bare.era ?? '?'} ${bare.protocolVersion ?? '?'}, Berth ${berth.era ?? '?'} ${berth.protocolVersion ?? '?'}`,
    );
  differences.push(...compareTools(bare.tools, berth.tools), ...compareCalls(bare.call, berth.call, masks));
  return differences.length === 0 ? { kind: 'same' } : { kind: 'different', differences };
}
