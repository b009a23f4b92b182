import type { BundleField } from '../../../shared/contract/bundles';
import { Field } from '../../ui/controls';
import { Switch } from '../../ui/switch';
import { fieldHint, type FieldDraft, type Drafts } from './bundle-model';
import { useT } from '../../i18n/use-t';

interface SettingsProps {
  fields: readonly BundleField[];
  drafts: Drafts;
  /** The host's review problems, by `values.<key>`. */
  problems: ReadonlyMap<string, string>;
  onChange: (key: string, draft: FieldDraft) => void;
}

/** The bundle's `user_config` as a form: text, numbers, switches, paths, lists; sensitive values as password fields. */
export function BundleSettings({ fields, drafts, problems, onChange }: SettingsProps) {
  const t = useT();
  if (fields.length === 0) return <p className="muted">{t('bundles.settings.none')}</p>;
  return (
    <>
      {fields.map((field) => {
        const draft = drafts[field.key];
        const label = field.required ? t('bundles.settings.required', { title: field.title }) : field.title;
        return (
          <Field key={field.key} label={label} hint={fieldHint(field, t)} error={problems.get(`values.${field.key}`)}>
            {({ id, describedBy, invalid }) =>
              field.type === 'boolean' ? (
                <Switch
                  id={id}
                  label={field.title}
                  describedBy={describedBy}
                  checked={draft === true}
                  onCheckedChange={(checked) => onChange(field.key, checked)}
                />
              ) : field.multiple ? (
                <textarea
                  id={id}
                  className="input mono"
                  rows={3}
                  value={typeof draft === 'string' ? draft : ''}
                  aria-describedby={describedBy}
                  aria-invalid={invalid}
                  onChange={(event) => onChange(field.key, event.target.value)}
                />
              ) : (
                <input
                  id={id}
                  className={field.type === 'directory' || field.type === 'file' ? 'input mono' : 'input'}
                  type={field.sensitive ? 'password' : field.type === 'number' ? 'number' : 'text'}
                  autoComplete="off"
                  spellCheck={false}
                  min={field.min}
                  max={field.max}
                  value={typeof draft === 'string' ? draft : ''}
                  aria-describedby={describedBy}
                  aria-invalid={invalid}
                  onChange={(event) => onChange(field.key, event.target.value)}
                />
              )
            }
          </Field>
        );
      })}
    </>
  );
}
