import type { HostMessage } from '../../shared/domain/host-message';
import { isNamedField, keyInWords } from '../../shared/domain/bridge-fields';
import { translate } from './use-t';

/**
 * A bridge refusal names the field it is about by its schema key (`field: 'text'`); the person reads the
 * field's name in their language ("The message"), worded as the message is, so a language switch follows.
 */
export function withFieldWords(code: string, params: HostMessage['params']): HostMessage['params'] {
  const key = params?.field;
  if (params === undefined || typeof key !== 'string' || !code.startsWith('bridge-errors.')) return params;
  const field =
    key === ''
      ? translate('bridge-errors.field.entered')
      : isNamedField(key)
        ? translate(`bridge-errors.field.${key}`)
        : translate('bridge-errors.field.named', { name: keyInWords(key) });
  return { ...params, field };
}
