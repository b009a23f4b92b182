import { useEffect, useState } from 'react';
import type { SkillCatalog } from '../../../shared/domain/skills';
import { useBerth } from '../../store';

/** Every ready server's skills, kept current from `skills.changed`; an error when the first read failed. */
export function useSkillCatalog(): { catalog: SkillCatalog | undefined; error: string | undefined } {
  const transport = useBerth((s) => s.appsTransport);
  const [catalog, setCatalog] = useState<SkillCatalog>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    let current = true;
    const off = transport.on('skills.changed', (payload) => {
      setCatalog(payload);
      setError(undefined);
    });
    void transport.call('skills.list', {}).then((result) => {
      if (!current) return;
      if (result.ok) setCatalog((seen) => seen ?? result.value);
      else setError(result.message);
    });
    return () => {
      current = false;
      off();
    };
  }, [transport]);
  return { catalog, error };
}

export const formatBytes = (bytes: number): string =>
  bytes < 1024 ? `${bytes} B` : bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** What each state means for the person, in a few words. */
export const STATE_LABELS = {
  available: { chip: 'Not yet approved', tone: 'neutral', hint: 'Asks you the first time it is loaded.' },
  approved: { chip: 'Approved', tone: 'success', hint: 'You allowed this exact version; it loads without asking.' },
  changed: { chip: 'Changed since approved', tone: 'warning', hint: 'The server changed it after you allowed it: loading it asks again.' },
  refused: { chip: 'Refused by Berth', tone: 'danger', hint: '' },
} as const;
