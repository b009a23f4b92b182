import { HostError } from '../../shared/result';
import { providerError } from '../../shared/domain/provider-errors';
import { baseUrlCredentialsProblem } from '../../shared/domain/providers';
import { AnthropicProvider } from './llm-provider';
import type { LlmProvider, LlmResponse, LlmStreamRequest } from './llm-provider';
import type { SettingsStore } from '../settings/settings-store';

/** What a person sees when chat or sampling needs a key that is not there. */
export const NO_API_KEY = providerError('provider-errors.no-api-key', {});
export const NO_API_KEY_MESSAGE = NO_API_KEY.text;

/**
 * Anthropic clients built lazily from the current settings (key and base
 * URL), rebuilt when either changes, so a key entered in Settings applies to
 * the next request without a restart.
 */
export class AnthropicAccess {
  private chat: { signature: string; provider: AnthropicProvider } | undefined;

  constructor(private readonly settings: Pick<SettingsStore, 'apiKey' | 'baseURL'>) {}

  /** False when there is no key: chat and sampling cannot run. */
  get ready(): boolean {
    return this.settings.apiKey() !== undefined;
  }

  /** NOT_READY with a clear message when there is no key. */
  assertReady(): void {
    if (!this.ready) throw HostError.coded('NOT_READY', NO_API_KEY);
  }

  /** A provider that resolves the real one at each call (chat and sampling). */
  readonly provider: LlmProvider = {
    stream: (request: LlmStreamRequest): Promise<LlmResponse> => this.chatProvider().stream(request),
  };

  /** The SDK client of the current key and base URL (the models endpoint); NOT_READY without a key. */
  client(): AnthropicProvider['client'] {
    return this.chatProvider().client;
  }

  private chatProvider(): AnthropicProvider {
    const { apiKey, baseURL, signature } = this.current();
    if (this.chat?.signature !== signature) {
      this.chat = {
        signature,
        provider: new AnthropicProvider({ apiKey, ...(baseURL !== undefined ? { baseURL } : {}) }),
      };
    }
    return this.chat.provider;
  }

  private current(): { apiKey: string; baseURL: string | undefined; signature: string } {
    const apiKey = this.settings.apiKey();
    if (apiKey === undefined) throw HostError.coded('NOT_READY', NO_API_KEY);
    const baseURL = this.settings.baseURL();
    if (baseURL !== undefined && baseUrlCredentialsProblem(baseURL) !== undefined)
      throw HostError.coded('INVALID_INPUT', providerError('provider-errors.anthropic-base-url-credentials', {}));
    // NUL cannot occur in either value, so the pair is unambiguous.
    return { apiKey, baseURL, signature: `${apiKey}\u0000${baseURL ?? ''}` };
  }
}
