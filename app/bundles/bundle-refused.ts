import { HostError } from '../../shared/result';

/** A bundle Berth will not open or install; the message is the reason, shown to the person as is. */
export class BundleRefused extends HostError {
  constructor(message: string) {
    super('INVALID_INPUT', message);
    this.name = 'BundleRefused';
  }
}
