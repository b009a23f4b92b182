import type { TopicName } from '../../shared/contract';
import type { ServerConfig } from '../../shared/domain/server';
import type { Result } from '../../shared/result';
import type { HostEventListener } from './host-types';
import { installConsoleRedaction } from '../logs/console-redaction';
import { configSecrets } from '../secrets/secret-forms';
import { RedactingSecretStore, SecretRedactor } from '../secrets/secret-redactor';
import type { SecretStore } from '../secrets/secret-store';

/** Options of {@linkcode Redaction}. */
export interface RedactionOptions {
  /** The host's environment: ANTHROPIC_API_KEY there is a secret too. */
  env: Record<string, string | undefined>;
  /** A line the MCP SDK printed on the console, redacted, for the host-wide log. */
  sdkLine: (level: 'warning' | 'error', text: string) => void;
}

/** Answers that carry nothing to redact, or are redacted already (log entries). */
const UNREDACTED_RESULTS: ReadonlySet<string> = new Set(['logs.query']);
const UNREDACTED_TOPICS: ReadonlySet<TopicName> = new Set(['logs.appended']);

/**
 * The host's one redaction of secrets (secret-redactor.ts): it learns every
 * value the secret store hands out or takes in (servers' secret values,
 * OAuth tokens and client secrets, the API key), the secrets a server is
 * started with, and ANTHROPIC_API_KEY; and it masks them, with their derived
 * forms, in what the renderer receives (events, answers, errors), in what the
 * log hub keeps and writes, and on the console.
 */
export class Redaction {
  readonly redactor = new SecretRedactor();
  private readonly uninstallConsole: () => void;

  constructor(options: RedactionOptions) {
    this.redactor.set('env:ANTHROPIC_API_KEY', [options.env.ANTHROPIC_API_KEY]);
    this.uninstallConsole = installConsoleRedaction({ redact: (text) => this.redact(text), sdkLine: options.sdkLine });
  }

  redact(text: string): string {
    return this.redactor.redact(text);
  }

  /** The store every host module uses, so each secret it holds is known before it can leak. */
  store(inner: SecretStore): SecretStore {
    return new RedactingSecretStore(inner, this.redactor);
  }

  /** A server is about to start with these (resolved) values, plain ones still in config.json included. */
  serverResolved(name: string, config: ServerConfig): void {
    this.redactor.set(`server:${name}`, configSecrets(config));
  }

  /** A renderer-facing subscriber, seeing every event payload redacted. */
  listener(listener: HostEventListener): HostEventListener {
    return (topic, payload) =>
      listener(topic, UNREDACTED_TOPICS.has(topic) ? payload : this.redactor.redactDeep(payload));
  }

  /** An answer to the renderer, failure message included, redacted. */
  result(method: unknown, result: Result<unknown>): Result<unknown> {
    if (!result.ok) {
      const message = this.redact(result.message);
      // The coded twin carries the same facts (a detail, a URL): they are masked the same way.
      const { hostMessage } = result;
      return hostMessage === undefined
        ? { ...result, message }
        : { ...result, message, hostMessage: this.redactor.redactDeep(hostMessage) };
    }
    return typeof method === 'string' && UNREDACTED_RESULTS.has(method)
      ? result
      : { ...result, value: this.redactor.redactDeep(result.value) };
  }

  close(): void {
    this.uninstallConsole();
  }
}
