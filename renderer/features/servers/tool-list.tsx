import clsx from 'clsx';
import { Collapsible } from 'radix-ui';
import { useState } from 'react';
import type { ToolInfo } from '../../../shared/domain';
import { Chip } from '../../ui/controls';
import { ChevronRightIcon } from '../../ui/icons';
import { SchemaTable } from './schema-table';
import { List, Row } from '../../ui/list';
import { translate, useT, type Translate } from '../../i18n/use-t';

const HINTS: { key: string; tone: 'success' | 'danger' | 'neutral' | 'warning' }[] = [
  { key: 'readOnlyHint', tone: 'success' },
  { key: 'destructiveHint', tone: 'danger' },
  { key: 'idempotentHint', tone: 'neutral' },
  { key: 'openWorldHint', tone: 'warning' },
];

/** Each hint's words when the server says true, and when it says false. */
function hintWords(t: Translate): Record<string, [yes: string, no: string]> {
  return {
    readOnlyHint: [t('servers.hint.readOnly'), t('servers.hint.writes')],
    destructiveHint: [t('servers.hint.destructive'), t('servers.hint.notDestructive')],
    idempotentHint: [t('servers.hint.idempotent'), t('servers.hint.notIdempotent')],
    openWorldHint: [t('servers.hint.openWorld'), t('servers.hint.closedWorld')],
  };
}

/** The hints a server gave about a tool, as chips; only hints it actually stated. `t` from the caller's useT() follows a language switch. */
export function annotationChips(
  annotations: Record<string, unknown> | undefined,
  t: Translate = translate,
): { label: string; tone: 'success' | 'danger' | 'neutral' | 'warning' }[] {
  if (!annotations) return [];
  const words = hintWords(t);
  const chips: { label: string; tone: 'success' | 'danger' | 'neutral' | 'warning' }[] = [];
  for (const hint of HINTS) {
    const value = annotations[hint.key];
    const [yes, no] = words[hint.key]!;
    if (value === true) chips.push({ label: yes, tone: hint.tone });
    else if (value === false) chips.push({ label: no, tone: 'neutral' });
  }
  return chips;
}

export function ToolList({ tools }: { tools: ToolInfo[] }) {
  const t = useT();
  return (
    <List look="cards" aria-label={t('servers.tools.label')}>
      {tools.map((tool) => (
        <ToolItem key={tool.name} tool={tool} />
      ))}
    </List>
  );
}

function ToolItem({ tool }: { tool: ToolInfo }) {
  const t = useT();
  const [open, setOpen] = useState(false);
  const chips = annotationChips(tool.annotations, t);
  const title = tool.title ?? (typeof tool.annotations?.title === 'string' ? tool.annotations.title : undefined);
  return (
    <Row className={clsx('tool', open && 'open')} data-tool={tool.name}>
      <Collapsible.Root open={open} onOpenChange={setOpen}>
        <Collapsible.Trigger className="tool-trigger">
          <ChevronRightIcon />
          <span className="tool-heading">
            <span className="tool-name">{tool.name}</span>
            {title && title !== tool.name ? <span className="tool-title">{title}</span> : null}
            {tool.listedName !== undefined ? (
              <Chip
                tone="warning"
                title={t('servers.tools.renamedTitle', { name: tool.listedName, renamed: tool.name })}
              >
                {t('servers.tools.renamed', { name: tool.listedName })}
              </Chip>
            ) : null}
            {tool.repeats !== undefined ? (
              <Chip tone="neutral">{t('servers.tools.repeatedChip', { times: tool.repeats + 1 })}</Chip>
            ) : null}
          </span>
        </Collapsible.Trigger>
        {tool.description ? <p className={clsx('tool-description', !open && 'clamped')}>{tool.description}</p> : null}
        {chips.length > 0 ? (
          <div className="tool-claims" title={t('servers.tools.claimsTitle')}>
            <span className="claims-label">{t('servers.tools.claimsLabel')}</span>
            {chips.map((chip) => (
              <Chip key={chip.label} tone={chip.tone}>
                {chip.label}
              </Chip>
            ))}
          </div>
        ) : null}
        <Collapsible.Content className="tool-body">
          <SchemaTable schema={tool.inputSchema} label={t('servers.tools.input')} />
          {tool.outputSchema ? (
            <SchemaTable schema={tool.outputSchema} label={t('servers.tools.structuredOutput')} />
          ) : null}
        </Collapsible.Content>
      </Collapsible.Root>
    </Row>
  );
}
