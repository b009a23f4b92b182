import { mkdtemp, readFile, readdir, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeAnthropic } from '../../../e2e/fake-llm/fake-anthropic';
import { promptTokens } from '../../../shared/domain/chat-usage';
import { ChatEngine } from '../chat-engine';
import { ChatEventLog, ScriptedGate } from '../chat-test-support';
import { ConversationStore } from '../conversation-store';
import { AnthropicProvider } from '../../providers/llm-provider';
import type { LlmProvider, LlmStreamRequest } from '../../providers/llm-provider';
import { TOKEN_CALIBRATION_FILE, TokenCalibrationFile } from './token-calibration';
import { TokenEstimator, partsTotal, rawRequestParts } from '../../providers/token-estimate';

const MODEL = 'claude-sonnet-5';
const prose = (words: number) =>
  Array.from({ length: words }, (_, index) => ['the', 'context', 'window', 'fills', 'slowly,'][index % 5]).join(' ');
const request = (words: number): LlmStreamRequest => ({
  model: MODEL,
  maxTokens: 100,
  messages: [{ role: 'user', content: prose(words) }],
});

describe('the token estimate’s correction across runs', () => {
  let dir: string;
  let stateDir: string;
  let warnings: string[];
  const open = () => TokenCalibrationFile.open({ stateDir, warn: (message) => warnings.push(message), now: () => 7 });

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'berth-calibration-'));
    stateDir = join(dir, 'state');
    warnings = [];
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  /** An estimator as ChatService builds it: starting from the file, saving to it after each correction. */
  async function estimator(): Promise<{ tokens: TokenEstimator; file: TokenCalibrationFile }> {
    const file = await open();
    return { file, tokens: new TokenEstimator({ factors: file.factors, onCorrected: (f) => void file.save(f) }) };
  }

  it('a correction learnt in one run is where the next run starts', async () => {
    const first = await estimator();
    expect(first.tokens.calibrated(MODEL)).toBe(false);
    first.tokens.observe(MODEL, request(200), 330);
    first.tokens.observe('local:m', request(200), 120);
    await first.file.flush();
    const learnt = first.tokens.factor(MODEL);

    const next = await estimator();
    expect(next.tokens.calibrated(MODEL)).toBe(true);
    expect(next.tokens.factor(MODEL)).toBe(learnt);
    expect(next.tokens.factor('local:m')).toBe(first.tokens.factor('local:m'));
    expect(next.tokens.request(MODEL, request(500))).toBe(first.tokens.request(MODEL, request(500)));
    expect(warnings).toEqual([]);
  });

  it('an unusable file is moved aside with a warning that says what happens; the estimate starts over and saves again', async () => {
    await mkdir(stateDir, { recursive: true });
    const path = join(stateDir, TOKEN_CALIBRATION_FILE);
    await writeFile(path, JSON.stringify({ version: 1, factors: { [MODEL]: 40 } }));
    const { tokens, file } = await estimator();
    expect(tokens.calibrated(MODEL)).toBe(false);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(`moved it to ${path}.corrupt-7`);
    expect(warnings[0]).toContain('learnt again from the next replies');
    expect(await readdir(stateDir)).toContain(`${TOKEN_CALIBRATION_FILE}.corrupt-7`);
    // Nothing lost: the moved file is as it was.
    expect(JSON.parse(await readFile(`${path}.corrupt-7`, 'utf8'))).toEqual({ version: 1, factors: { [MODEL]: 40 } });

    tokens.observe(MODEL, request(200), 330);
    await file.flush();
    expect(JSON.parse(await readFile(path, 'utf8'))).toEqual({
      version: 1,
      factors: { [MODEL]: tokens.factor(MODEL) },
    });
  });

  it('after a restart the engine’s first estimate agrees with the provider within 5% (the bare rule of thumb does not)', async () => {
    const fake = await FakeAnthropic.start({ apiKey: 'k', fallback: { text: prose(120) } });
    const store = await ConversationStore.open({ dir });
    try {
      const provider = new AnthropicProvider({ apiKey: 'k', baseURL: fake.url, maxRetries: 0 });
      /** One run of Berth: an engine whose estimator starts from the file; each request's estimate is kept. */
      const run = async () => {
        const { tokens, file } = await estimator();
        const estimates: number[] = [];
        const recording: LlmProvider = {
          stream: (sent) => {
            estimates.push(tokens.request(MODEL, sent), partsTotal(rawRequestParts(sent)));
            return provider.stream(sent);
          },
        };
        const chat = new ChatEngine({
          provider: recording,
          tokens,
          store,
          tools: () => [],
          gate: new ScriptedGate(),
          runner: { callTool: async () => ({ content: [] }) },
          onEvent: new ChatEventLog().onEvent,
          system: () => 'You are Berth’s assistant. Answer briefly.',
        });
        const conversation = await store.create({ model: MODEL });
        await (
          await chat.send(conversation.id, prose(300))
        ).done;
        await file.flush();
        const reply = (await store.get(conversation.id)).messages.find((message) => message.role === 'assistant');
        const reported = promptTokens(reply?.usage ?? { inputTokens: 0, outputTokens: 0 });
        const [estimate = 0, plain = 0] = estimates;
        return { off: Math.abs(estimate - reported) / reported, plainOff: Math.abs(plain - reported) / reported };
      };
      const first = await run();
      expect(first.plainOff).toBeGreaterThan(0.05);
      const afterRestart = await run();
      expect(afterRestart.off).toBeLessThan(0.05);
    } finally {
      await store.flushIndex();
      await fake.close();
    }
  });
});
