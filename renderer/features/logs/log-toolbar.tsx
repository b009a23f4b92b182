import { DropdownMenu, ToggleGroup } from 'radix-ui';
import { useShallow } from 'zustand/react/shallow';
import { LOG_LEVELS, LOG_SOURCES, type LogLevel, type LogSource } from '../../../shared/domain';
import { useBerth } from '../../store';
import { Button, WithTooltip } from '../../ui/controls';
import { ChevronDownIcon, SearchIcon } from '../../ui/icons';
import { useT } from '../../i18n/use-t';
import type { MessageId } from '../../i18n/message-ids';

const SOURCE_LABELS: Record<LogSource, { label: MessageId; show: MessageId; hint: MessageId }> = {
  stderr: { label: 'logs.source.stderr', show: 'logs.source.stderr-show', hint: 'logs.source.stderr-hint' },
  notification: {
    label: 'logs.source.notification',
    show: 'logs.source.notification-show',
    hint: 'logs.source.notification-hint',
  },
  trace: { label: 'logs.source.trace', show: 'logs.source.trace-show', hint: 'logs.source.trace-hint' },
  host: { label: 'logs.source.host', show: 'logs.source.host-show', hint: 'logs.source.host-hint' },
  app: { label: 'logs.source.app', show: 'logs.source.app-show', hint: 'logs.source.app-hint' },
};

export function ServerPicker({
  value,
  onChange,
}: {
  value: string | undefined;
  onChange: (server: string | undefined) => void;
}) {
  const names = useBerth(useShallow((s) => Object.keys(s.servers).sort((a, b) => a.localeCompare(b))));
  const t = useT();
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger asChild>
        <Button
          size="sm"
          aria-label={value ? t('logs.toolbar.server', { server: value }) : t('logs.toolbar.serverAll')}
          className="picker"
        >
          {value ?? t('logs.toolbar.allServers')} <ChevronDownIcon />
        </Button>
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className="menu" align="start" sideOffset={4}>
          <DropdownMenu.RadioGroup value={value ?? ''} onValueChange={(v) => onChange(v === '' ? undefined : v)}>
            <DropdownMenu.RadioItem value="" className="menu-item">
              <DropdownMenu.ItemIndicator className="menu-indicator">●</DropdownMenu.ItemIndicator>
              {t('logs.toolbar.allServers')}
            </DropdownMenu.RadioItem>
            {names.length > 0 ? <DropdownMenu.Separator className="menu-separator" /> : null}
            {names.map((name) => (
              <DropdownMenu.RadioItem key={name} value={name} className="menu-item">
                <DropdownMenu.ItemIndicator className="menu-indicator">●</DropdownMenu.ItemIndicator>
                {name}
              </DropdownMenu.RadioItem>
            ))}
          </DropdownMenu.RadioGroup>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}

export function SourceToggles({
  value,
  onChange,
}: {
  value: readonly LogSource[];
  onChange: (sources: LogSource[]) => void;
}) {
  const t = useT();
  return (
    <ToggleGroup.Root
      type="multiple"
      className="toggle-group"
      aria-label={t('logs.toolbar.sources')}
      value={[...value]}
      // An empty selection would hide everything with no visible reason; keep at least one source.
      onValueChange={(next) => next.length > 0 && onChange(LOG_SOURCES.filter((s) => next.includes(s)))}
    >
      {LOG_SOURCES.map((source) => (
        <WithTooltip key={source} content={t(SOURCE_LABELS[source].hint)}>
          <ToggleGroup.Item
            value={source}
            className={`toggle-chip tag-${source}`}
            aria-label={t(SOURCE_LABELS[source].show)}
          >
            {t(SOURCE_LABELS[source].label)}
          </ToggleGroup.Item>
        </WithTooltip>
      ))}
    </ToggleGroup.Root>
  );
}

export function LevelPicker({
  value,
  onChange,
}: {
  value: LogLevel | undefined;
  onChange: (level: LogLevel | undefined) => void;
}) {
  const t = useT();
  const shown = value ? `${value}+` : t('logs.toolbar.anyLevel');
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger asChild>
        {/* The name holds the visible words ("Any level", "warning+"), so a voice command naming them finds the button. */}
        <Button size="sm" aria-label={t('logs.toolbar.minLevel', { level: shown })} className="picker">
          {shown} <ChevronDownIcon />
        </Button>
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className="menu" align="start" sideOffset={4}>
          <DropdownMenu.Label className="menu-label">{t('logs.toolbar.levelMenu')}</DropdownMenu.Label>
          <DropdownMenu.RadioGroup
            value={value ?? ''}
            onValueChange={(v) => onChange(v === '' ? undefined : (v as LogLevel))}
          >
            <DropdownMenu.RadioItem value="" className="menu-item">
              <DropdownMenu.ItemIndicator className="menu-indicator">●</DropdownMenu.ItemIndicator>
              {t('logs.toolbar.anyLevel')}
            </DropdownMenu.RadioItem>
            {LOG_LEVELS.map((level) => (
              <DropdownMenu.RadioItem key={level} value={level} className="menu-item">
                <DropdownMenu.ItemIndicator className="menu-indicator">●</DropdownMenu.ItemIndicator>
                <span className={`log-level lvl-${level}`}>{level}</span>
              </DropdownMenu.RadioItem>
            ))}
          </DropdownMenu.RadioGroup>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}

export function SearchBox({ value, onChange }: { value: string; onChange: (text: string) => void }) {
  const t = useT();
  return (
    <label className="search">
      <SearchIcon />
      <input
        type="search"
        className="search-input"
        placeholder={t('logs.toolbar.search')}
        aria-label={t('logs.toolbar.search')}
        value={value}
        spellCheck={false}
        onChange={(e) => onChange(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape' && value !== '') {
            e.preventDefault();
            onChange('');
          }
        }}
      />
    </label>
  );
}
