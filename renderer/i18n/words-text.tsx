import { HostMessageText } from './host-message';
import { T } from './t';
import { useT } from './use-t';
import { plainValues, type Words } from './words';

/** The words as an element, with the catalog's markup (a host message's `<code>`), re-worded on a switch. */
export function WordsText({ words: said }: { words: Words }) {
  const t = useT();
  if ('verbatim' in said) return <>{said.verbatim}</>;
  if ('hostMessage' in said) return <HostMessageText message={said.hostMessage} fallback={said.fallback} />;
  return <T id={said.id} {...(said.values === undefined ? {} : { values: plainValues(said.values, t) })} />;
}
