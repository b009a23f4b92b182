import type { ElicitationField, StringField } from '../../../shared/elicitation';
import { Field } from '../../ui/controls';
import { toggleOption, type FormState } from './elicitation-model';
import { formatNumber } from '../../i18n/format';
import { useT, type Translate } from '../../i18n/use-t';

const INPUT_TYPE: Record<NonNullable<StringField['format']>, string> = {
  email: 'email',
  uri: 'url',
  date: 'date',
  'date-time': 'datetime-local',
};

const PLACEHOLDER: Partial<Record<NonNullable<StringField['format']>, string>> = {
  email: 'name@example.com',
  uri: 'https://',
};

function hintFor(t: Translate, field: ElicitationField): string | undefined {
  const parts: string[] = [];
  if (field.description) parts.push(field.description);
  const n = (value: number | undefined) => (value === undefined ? '' : formatNumber(value));
  if (field.kind === 'string') {
    const limits = { min: n(field.minLength), max: n(field.maxLength) };
    if (field.minLength !== undefined && field.maxLength !== undefined)
      parts.push(t('pending.field.lengthRange', limits));
    else if (field.minLength !== undefined) parts.push(t('pending.field.lengthMin', limits));
    else if (field.maxLength !== undefined) parts.push(t('pending.field.lengthMax', limits));
    if (field.format === 'date-time') parts.push(t('pending.field.localTime'));
  }
  if (field.kind === 'number') {
    const limits = { integer: field.integer ? 'yes' : 'no', min: n(field.minimum), max: n(field.maximum) };
    if (field.minimum !== undefined && field.maximum !== undefined) parts.push(t('pending.field.numberRange', limits));
    else if (field.minimum !== undefined) parts.push(t('pending.field.numberMin', limits));
    else if (field.maximum !== undefined) parts.push(t('pending.field.numberMax', limits));
  }
  if (field.kind === 'multi-select') {
    const limits = { min: n(field.minItems), max: n(field.maxItems) };
    if (field.minItems !== undefined && field.maxItems !== undefined)
      parts.push(t('pending.field.chooseRange', limits));
    else if (field.minItems !== undefined) parts.push(t('pending.field.chooseMin', limits));
    else if (field.maxItems !== undefined) parts.push(t('pending.field.chooseMax', limits));
  }
  return parts.length > 0 ? parts.join(' ') : undefined;
}

function Label({ field }: { field: ElicitationField }) {
  const t = useT();
  return (
    <>
      {field.label}
      {field.required ? (
        <span className="required-mark" aria-label={t('pending.field.required')}>
          {' '}
          *
        </span>
      ) : null}
    </>
  );
}

/** One elicitation field as the right HTML control, with its hint and error. */
export function ElicitationFieldInput({
  field,
  value,
  error,
  onChange,
}: {
  field: ElicitationField;
  value: FormState[string] | undefined;
  error: string | undefined;
  onChange: (value: FormState[string]) => void;
}) {
  const t = useT();
  const hint = hintFor(t, field);
  const text = typeof value === 'string' ? value : '';
  if (field.kind === 'boolean') {
    return (
      <div className={error ? 'field field-invalid' : 'field'}>
        <label className="check-field">
          <input
            type="checkbox"
            name={field.name}
            checked={value === true}
            aria-invalid={Boolean(error)}
            onChange={(e) => onChange(e.target.checked)}
          />
          <span>
            <strong>
              <Label field={field} />
            </strong>
            {hint ? <span className="field-hint">{hint}</span> : null}
          </span>
        </label>
        {error ? (
          <p className="field-error" role="alert">
            {error}
          </p>
        ) : null}
      </div>
    );
  }
  if (field.kind === 'multi-select') {
    const chosen = Array.isArray(value) ? value : [];
    return (
      <fieldset
        className={error ? 'field check-group field-invalid' : 'field check-group'}
        aria-invalid={Boolean(error)}
      >
        <legend className="field-label">
          <Label field={field} />
        </legend>
        {hint ? <p className="field-hint">{hint}</p> : null}
        <div className="check-options">
          {field.options.map((option) => (
            <label key={option.value} className="check-inline">
              <input
                type="checkbox"
                name={`${field.name}.${option.value}`}
                checked={chosen.includes(option.value)}
                onChange={(e) => onChange(toggleOption(field, chosen, option.value, e.target.checked))}
              />
              {option.label}
            </label>
          ))}
        </div>
        {error ? (
          <p className="field-error" role="alert">
            {error}
          </p>
        ) : null}
      </fieldset>
    );
  }
  return (
    <Field label={<Label field={field} />} hint={hint} error={error}>
      {({ id, describedBy, invalid }) => {
        const common = {
          id,
          name: field.name,
          'aria-describedby': describedBy,
          'aria-invalid': invalid,
          'aria-required': field.required,
        };
        if (field.kind === 'select') {
          return (
            <select {...common} className="input select-input" value={text} onChange={(e) => onChange(e.target.value)}>
              <option value="">{t(field.required ? 'pending.field.choose' : 'pending.field.none')}</option>
              {field.options.map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label}
                </option>
              ))}
            </select>
          );
        }
        if (field.kind === 'number') {
          return (
            <input
              {...common}
              className="input"
              type="number"
              inputMode={field.integer ? 'numeric' : 'decimal'}
              step={field.integer ? 1 : 'any'}
              min={field.minimum}
              max={field.maximum}
              value={text}
              onChange={(e) => onChange(e.target.value)}
            />
          );
        }
        return (
          <input
            {...common}
            className="input"
            type={field.format ? INPUT_TYPE[field.format] : 'text'}
            placeholder={field.format ? PLACEHOLDER[field.format] : undefined}
            minLength={field.minLength}
            maxLength={field.maxLength}
            value={text}
            onChange={(e) => onChange(e.target.value)}
          />
        );
      }}
    </Field>
  );
}
