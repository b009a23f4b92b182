import { useMemo, useState, type ReactNode } from 'react';
import { classifyAddress } from '../../../shared/domain/address-class';
import {
  checkDraft,
  choiceShowingErrors,
  newListRow,
  type DraftErrors,
  type SandboxChoice,
  type SandboxDraft,
} from './sandbox-draft';
import { SandboxEditor } from './sandbox-editor';
import { draftPolicyLines } from './sandbox-words';
import { useSandbox } from './use-sandbox';
import type { MessageId } from '../../i18n/message-ids';
import { translate, useT } from '../../i18n/use-t';

/** A domain the review fills in, and why (said next to the list, in the person's language). */
export interface SuggestedDomain {
  domain: string;
  why: string;
}

const PACKAGE_HOSTS: Record<string, Array<{ domain: string; why: MessageId }>> = {
  npm: [{ domain: 'registry.npmjs.org', why: 'sandbox.review.why.npm' }],
  pypi: [
    { domain: 'pypi.org', why: 'sandbox.review.why.pypi' },
    { domain: 'files.pythonhosted.org', why: 'sandbox.review.why.pythonhosted' },
  ],
};

/**
 * The network a server arriving from the registry or a bundle declares it
 * needs: its package registry (the runner fetches the package at the first
 * start) and the hosts of the http(s) addresses in its arguments and
 * environment (a bundle's settings, a registry entry's defaults). Filled in
 * for review, never allowed unseen; an address on this computer, its network
 * or a metadata service is never filled in (the entry chose it, not the person).
 */
export function declaredDomains({
  registryType,
  args = [],
  env = {},
}: {
  registryType?: string | undefined;
  args?: readonly string[] | undefined;
  env?: Readonly<Record<string, string>> | undefined;
}): SuggestedDomain[] {
  // Worded when the review opens (it is called while rendering it), in the language active then.
  const found: SuggestedDomain[] = (registryType === undefined ? [] : (PACKAGE_HOSTS[registryType] ?? [])).map(
    ({ domain, why }) => ({ domain, why: translate(why) }),
  );
  for (const text of [...args, ...Object.entries(env).map(([key, value]) => `${key}=${value}`)]) {
    for (const match of text.matchAll(/https?:\/\/[^\s"'<>]+/g)) {
      try {
        const url = new URL(match[0]);
        const host = url.host.toLowerCase();
        if (classifyAddress(url.hostname) !== 'public') continue;
        if (host !== '' && !found.some((s) => s.domain === host))
          found.push({ domain: host, why: translate('sandbox.review.whySettings', { origin: url.origin }) });
      } catch {
        // Not an address after all: nothing to suggest.
      }
    }
  }
  return found;
}

export interface ReviewSandbox {
  section: ReactNode;
  /** The choice to install with, or false after marking what is wrong. */
  check(): SandboxChoice | false;
}

/** How the host says the review's sandbox starts: off, with the reason, for a server the OS sandbox cannot hold (a container). */
export interface ReviewSandboxDefault {
  enabled: boolean;
  reason?: string | undefined;
}

/**
 * The sandbox part of an install review: on by default where the platform
 * has it (an installed server is code from elsewhere), the declared domains
 * filled in, and the person may turn it off or change the lists before
 * anything is saved. A container starts off, the reason said in words.
 */
export function useReviewSandbox(suggested: readonly SuggestedDomain[], initial?: ReviewSandboxDefault): ReviewSandbox {
  const t = useT();
  const support = useSandbox((s) => s.support);
  const [draft, setDraft] = useState<SandboxDraft | null>(null);
  const [errors, setErrors] = useState<DraftErrors>({});
  const key = suggested.map((s) => s.domain).join(' ');
  // Rows keep their ids across renders (and across a review that suggests the same domains again).
  const suggestedRows = useMemo(() => suggested.map((s) => newListRow(s.domain)), [key]);
  // Until the person touches it, it follows the host's answer about support (it may come after the review opened);
  // before that answer it is on: an install pressed meanwhile is sandboxed, or refused in words where it cannot be.
  const offByDefault = initial?.enabled === false;
  const shown = draft ?? {
    enabled: offByDefault ? false : (support?.available ?? true),
    folders: [],
    domains: offByDefault ? [] : suggestedRows,
  };
  const lines = draftPolicyLines(
    undefined,
    shown.folders.map((row) => row.value),
    shown.domains.map((row) => row.value),
  );
  const section = (
    <section className="sandbox-review" aria-labelledby="sandbox-review-title">
      <h3 id="sandbox-review-title" className="bundle-section-title">
        {t('sandbox.fact.label')}
      </h3>
      <SandboxEditor
        draft={shown}
        onChange={(next) => setDraft(next)}
        errors={errors}
        support={support}
        lines={lines}
        rootsUnknown
        offNote={offByDefault ? t('sandbox.review.offContainer') : undefined}
        note={
          offByDefault && initial.reason !== undefined ? (
            <p className="field-hint" data-testid="sandbox-default-reason">
              {initial.reason}
            </p>
          ) : suggested.length > 0 ? (
            <p className="field-hint" data-testid="sandbox-suggested">
              {t('sandbox.review.suggested', {
                list: suggested
                  .map((s) => t('sandbox.review.suggestedItem', { domain: s.domain, why: s.why }))
                  .join('; '),
              })}
            </p>
          ) : null
        }
      />
    </section>
  );
  return {
    section,
    check() {
      return choiceShowingErrors(checkDraft(shown), setErrors);
    },
  };
}
