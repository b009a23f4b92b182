import { Trans } from '@lingui/react';
import type { ReactElement } from 'react';
import type { MessageId } from './message-ids';
import type { MessageValues } from './use-t';

/**
 * Lingui decodes `\uXXXX` escapes in a formatted message, values included, which would turn a name shown
 * escaped (`\u202E`) back into the control character: a string value with a backslash goes in as an
 * element, which Lingui places without reading.
 */
function keptAsText(values: MessageValues): Record<string, MessageValues[string] | ReactElement> {
  const kept: Record<string, MessageValues[string] | ReactElement> = {};
  for (const [name, value] of Object.entries(values)) {
    kept[name] = typeof value === 'string' && value.includes('\\') ? <>{value}</> : value;
  }
  return kept;
}

/**
 * A message with markup: the catalog says where it goes (`Read <link>the guide</link> first`),
 * the component gives the elements (`components={{ link: <a href=… /> }}`), so translators move
 * the link with the words. Plain text needs no <T>: use useT().
 */
export function T({
  id,
  values,
  components,
}: {
  id: MessageId;
  values?: MessageValues;
  components?: Record<string, ReactElement>;
}) {
  return (
    <Trans
      id={id}
      {...(values !== undefined ? { values: keptAsText(values) } : {})}
      {...(components !== undefined ? { components } : {})}
    />
  );
}
