import type { CodedText } from '../../shared/domain/host-wording';
import { HostError } from '../../shared/result';

/** A bundle Berth will not open or install; the words (shared/domain/bundle-errors.ts) are the reason, shown to the person. */
export class BundleRefused extends HostError {
  constructor(words: CodedText) {
    super('INVALID_INPUT', words.text, undefined, words.hostMessage);
    this.name = 'BundleRefused';
  }
}
