import type { AppUiPermission } from '../../../shared/domain/app-ui';
import { Button } from '../../ui/controls';
import { ShieldIcon } from '../../ui/icons';
import { T } from '../../i18n/t';
import type { MessageId } from '../../i18n/message-ids';
import { useT, type Translate } from '../../i18n/use-t';

const PERMISSION_WORDS: Record<AppUiPermission, MessageId> = {
  camera: 'apps.permission.camera',
  microphone: 'apps.permission.microphone',
  geolocation: 'apps.permission.geolocation',
  clipboardWrite: 'apps.permission.clipboard',
};

/** "camera, microphone and your location" */
function permissionWords(permissions: readonly AppUiPermission[], t: Translate): string {
  const words = permissions.map((p) => t(PERMISSION_WORDS[p]));
  const last = words.at(-1) ?? '';
  return words.length <= 1
    ? last
    : t('apps.permission.list', { first: words.slice(0, -1).join(t('apps.permission.separator')), last });
}

/** What the resource declares it needs, asked once on the card; the app runs without it until the person allows. */
export function PermissionAsk({
  permissions,
  onAllow,
  onDismiss,
}: {
  permissions: readonly AppUiPermission[];
  onAllow: () => void;
  onDismiss: () => void;
}) {
  const t = useT();
  return (
    <div className="app-permission-ask" role="group" aria-label={t('apps.permission.label')}>
      <ShieldIcon />
      <span>
        <T
          id="apps.permission.asks"
          values={{ permissions: permissionWords(permissions, t) }}
          components={{ strong: <strong /> }}
        />
      </span>
      <div className="spacer" />
      <Button size="sm" variant="primary" onClick={onAllow}>
        {t('apps.permission.allow')}
      </Button>
      <Button size="sm" variant="ghost" onClick={onDismiss}>
        {t('apps.permission.notNow')}
      </Button>
    </div>
  );
}
