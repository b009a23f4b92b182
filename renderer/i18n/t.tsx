import { Trans } from '@lingui/react';
import type { ReactElement } from 'react';
import type { MessageId } from './message-ids';
import type { MessageValues } from './use-t';

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
      {...(values !== undefined ? { values } : {})}
      {...(components !== undefined ? { components } : {})}
    />
  );
}
