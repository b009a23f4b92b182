/**
 * Runs the fake OpenAI-compatible server as its own process, for e2e tests
 * that start Berth separately:
 *
 *   node --import tsx e2e/fake-llm/openai-cli.ts [--port N] [--api-key KEY]
 *     [--model ID]... [--model-without-tools ID]... [--fallback-text TEXT]
 *
 * Prints `FAKE_OPENAI_URL=http://127.0.0.1:PORT/v1` once listening; script it
 * with `POST /__fake/script`. SIGTERM/SIGINT close it.
 */
import { parseArgs } from 'node:util';
import { FakeOpenAi } from './fake-openai';
import { errorMessage } from '../../shared/error-message';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '0' },
      'api-key': { type: 'string' },
      model: { type: 'string', multiple: true },
      'model-without-tools': { type: 'string', multiple: true },
      'fallback-text': { type: 'string' },
    },
    strict: true,
  });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new Error(`--port must be a port number, got '${values.port ?? ''}'`);
  const fallbackText = values['fallback-text'];
  const withoutTools = values['model-without-tools'] ?? [];
  const fake = await FakeOpenAi.start({
    port,
    ...(values['api-key'] !== undefined ? { apiKey: values['api-key'] } : {}),
    ...(values.model !== undefined ? { models: [...values.model, ...withoutTools] } : {}),
    ...(withoutTools.length > 0 ? { modelsWithoutTools: withoutTools } : {}),
    ...(fallbackText !== undefined ? { fallback: { text: fallbackText } } : {}),
  });
  process.stdout.write(`FAKE_OPENAI_URL=${fake.url}\n`);
  const shutdown = (): void => {
    void fake.close().then(() => process.exit(0));
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
}

main().catch((error: unknown) => {
  process.stderr.write(`fake-openai: ${errorMessage(error)}\n`);
  process.exit(1);
});
