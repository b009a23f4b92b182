/**
 * Runs the fake Anthropic API as its own process, for e2e tests that start
 * Berth separately:
 *
 *   node --import tsx e2e/fake-llm/cli.ts [--port N] [--api-key KEY] [--fallback-text TEXT]
 *     [--context-window TOKENS]
 *
 * Prints `FAKE_ANTHROPIC_URL=http://127.0.0.1:PORT` once listening; script it
 * with `POST /__fake/script`. SIGTERM/SIGINT close it.
 */
import { parseArgs } from 'node:util';
import { FakeAnthropic } from './fake-anthropic';
import { errorMessage } from '../../shared/error-message';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '0' },
      'api-key': { type: 'string' },
      'fallback-text': { type: 'string' },
      'context-window': { type: 'string' },
    },
    strict: true,
  });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new Error(`--port must be a port number, got '${values.port ?? ''}'`);
  const fallbackText = values['fallback-text'];
  const window = values['context-window'] === undefined ? undefined : Number(values['context-window']);
  if (window !== undefined && (!Number.isInteger(window) || window < 1))
    throw new Error(`--context-window must be a whole number of tokens, got '${values['context-window'] ?? ''}'`);
  const fake = await FakeAnthropic.start({
    port,
    ...(values['api-key'] !== undefined ? { apiKey: values['api-key'] } : {}),
    ...(fallbackText !== undefined ? { fallback: { text: fallbackText } } : {}),
    ...(window !== undefined ? { contextWindow: window } : {}),
  });
  process.stdout.write(`FAKE_ANTHROPIC_URL=${fake.url}\n`);
  const shutdown = (): void => {
    void fake.close().then(() => process.exit(0));
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
}

main().catch((error: unknown) => {
  process.stderr.write(`fake-anthropic: ${errorMessage(error)}\n`);
  process.exit(1);
});
