// The fake Anthropic API's models endpoint (`GET /v1/models`, `GET /v1/models/{id}`),
// answering as the real one does: ModelInfo objects newest first, pages of
// `limit` (default 20, 1–1000) after `after_id` or before `before_id`, with
// `has_more`, `first_id` and `last_id`; a 400 invalid_request_error for a bad
// limit or an unknown cursor, a 404 not_found_error for an unknown model.

/** A model the fake lists. */
export interface FakeAnthropicModel {
  id: string;
  display_name: string;
  /** RFC 3339; the list is sorted by it, newest first. */
  created_at: string;
  max_input_tokens?: number;
  /** `capabilities.image_input.supported` (default true, as for every current Claude). */
  image_input?: boolean;
  line?: 'haiku' | 'sonnet' | 'opus' | 'fable' | 'mythos' | null;
  /**
   * `capabilities.thinking`: `adaptive` (adaptive thinking and the effort levels, as Claude 4.6 and later), `enabled`
   * (extended thinking with a budget only) or `none` (the default: a model a test lists says nothing of thinking).
   */
  thinking?: 'adaptive' | 'enabled' | 'none';
  /** `capabilities.context_management`: server-side compaction (`compact_20260112`) and clearing tool uses. Default no. */
  compaction?: boolean;
}

/** What the fake lists when a test gives no models: Berth's defaults and two more. */
export const DEFAULT_FAKE_ANTHROPIC_MODELS: readonly FakeAnthropicModel[] = [
  {
    id: 'claude-fable-5-1',
    display_name: 'Claude Fable 5.1',
    created_at: '2026-09-01T00:00:00Z',
    max_input_tokens: 200_000,
    line: 'fable',
    thinking: 'adaptive',
    compaction: true,
  },
  {
    id: 'claude-opus-5',
    display_name: 'Claude Opus 5',
    created_at: '2026-06-01T00:00:00Z',
    max_input_tokens: 200_000,
    line: 'opus',
    thinking: 'adaptive',
    compaction: true,
  },
  {
    id: 'claude-sonnet-5',
    display_name: 'Claude Sonnet 5',
    created_at: '2026-05-01T00:00:00Z',
    max_input_tokens: 200_000,
    line: 'sonnet',
    thinking: 'adaptive',
    compaction: true,
  },
  {
    id: 'claude-sonnet-4-5-20250929',
    display_name: 'Claude Sonnet 4.5',
    created_at: '2025-09-29T00:00:00Z',
    max_input_tokens: 200_000,
    line: 'sonnet',
    thinking: 'enabled',
  },
  {
    id: 'claude-haiku-4-5',
    display_name: 'Claude Haiku 4.5',
    created_at: '2025-10-01T00:00:00Z',
    max_input_tokens: 200_000,
    line: 'haiku',
    thinking: 'enabled',
  },
  {
    id: 'claude-3-haiku-20240307',
    display_name: 'Claude Haiku 3',
    created_at: '2024-03-07T00:00:00Z',
    max_input_tokens: 200_000,
    line: 'haiku',
    thinking: 'none',
  },
];

const supported = (value: boolean) => ({ supported: value });

/** `capabilities` as the API sends them: every known key present (models.d.ts ModelCapabilities). */
function capabilitiesJson(model: FakeAnthropicModel): Record<string, unknown> {
  const thinking = model.thinking ?? 'none';
  const adaptive = thinking === 'adaptive';
  const compaction = model.compaction === true;
  return {
    batch: supported(true),
    citations: supported(true),
    code_execution: supported(false),
    context_management: {
      supported: compaction,
      clear_thinking_20251015: compaction ? supported(true) : null,
      clear_tool_uses_20250919: compaction ? supported(true) : null,
      compact_20260112: compaction ? supported(true) : null,
    },
    effort: {
      supported: adaptive,
      low: supported(adaptive),
      medium: supported(adaptive),
      high: supported(adaptive),
      max: supported(adaptive),
      xhigh: null,
    },
    image_input: supported(model.image_input ?? true),
    pdf_input: supported(true),
    server_tools: { supported: false, code_execution: supported(false), web_search: supported(false) },
    structured_outputs: supported(true),
    thinking: {
      supported: thinking !== 'none',
      types: {
        adaptive: supported(adaptive),
        // Current models take both; `enabled` alone is an older one's extended thinking.
        enabled: supported(thinking !== 'none'),
        disabled: supported(true),
        between_tools: supported(false),
      },
    },
  };
}

/** One ModelInfo as the API sends it. */
export function modelInfoJson(model: FakeAnthropicModel): Record<string, unknown> {
  return {
    type: 'model',
    id: model.id,
    display_name: model.display_name,
    created_at: model.created_at,
    capabilities: capabilitiesJson(model),
    lifecycle: 'active',
    line: model.line ?? null,
    max_input_tokens: model.max_input_tokens ?? null,
    max_tokens: 64_000,
    deprecated_at: null,
    retires_at: null,
  };
}

export type ModelsAnswer =
  { status: 200; body: Record<string, unknown> } | { status: 400 | 404; type: string; message: string };

/** `GET /v1/models?…`: one page, or the API's 400 for a bad query. */
export function listModelsPage(
  all: readonly FakeAnthropicModel[],
  query: URLSearchParams,
  maxPageSize = 1000,
): ModelsAnswer {
  const models = [...all].sort((a, b) => b.created_at.localeCompare(a.created_at));
  const rawLimit = query.get('limit');
  const limit = rawLimit === null ? 20 : Number(rawLimit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000)
    return { status: 400, type: 'invalid_request_error', message: 'limit: Input should be between 1 and 1000' };
  const pageSize = Math.min(limit, maxPageSize);
  const after = query.get('after_id');
  const before = query.get('before_id');
  let page: FakeAnthropicModel[];
  let more: boolean;
  if (before !== null) {
    const end = models.findIndex((m) => m.id === before);
    if (end === -1)
      return { status: 400, type: 'invalid_request_error', message: `before_id: unknown model id '${before}'` };
    const start = Math.max(0, end - pageSize);
    page = models.slice(start, end);
    more = start > 0;
  } else {
    const start = after === null ? 0 : models.findIndex((m) => m.id === after) + 1;
    if (start === 0 && after !== null)
      return { status: 400, type: 'invalid_request_error', message: `after_id: unknown model id '${after}'` };
    page = models.slice(start, start + pageSize);
    more = start + pageSize < models.length;
  }
  return {
    status: 200,
    body: {
      data: page.map(modelInfoJson),
      has_more: more,
      first_id: page[0]?.id ?? null,
      last_id: page.at(-1)?.id ?? null,
    },
  };
}

/** `GET /v1/models/{id}`. */
export function retrieveModel(all: readonly FakeAnthropicModel[], id: string): ModelsAnswer {
  const model = all.find((m) => m.id === id);
  return model === undefined
    ? { status: 404, type: 'not_found_error', message: `model: ${id}` }
    : { status: 200, body: modelInfoJson(model) };
}
