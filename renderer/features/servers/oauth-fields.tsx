import clsx from 'clsx';
import { Collapsible } from 'radix-ui';
import { useState } from 'react';
import { Field } from '../../ui/controls';
import { Segmented } from '../../ui/segmented';
import { ChevronRightIcon } from '../../ui/icons';
import type { ShownErrors } from './server-form-model';
import { hasOAuthSettings, type ClientAuthKind, type OAuthFormValues } from './server-form-oauth';
import { useT, type Translate } from '../../i18n/use-t';
import type { MessageId } from '../../i18n/message-ids';

interface OAuthFieldsProps {
  values: OAuthFormValues;
  onChange: (values: OAuthFormValues) => void;
  errors: ShownErrors;
}

/** The OAuth keys of ShownErrors: a failed submit opens the section when one of them is set. */
export const OAUTH_FIELDS: ReadonlySet<string> = new Set(
  Object.keys({
    'oauth.grant': true,
    'oauth.clientId': true,
    'oauth.clientSecret': true,
    'oauth.privateKey': true,
    'oauth.scope': true,
    'oauth.issuer': true,
    'oauth.assertionFile': true,
  }),
);

// The form's key of the client authentication choice (an identifier, not words).
const CLIENT_AUTH = 'clientAuth';

/**
 * "Sign-in (OAuth)" for a remote server, folded away: most servers need
 * nothing here (Berth registers itself and the person signs in in the
 * browser). Open it for a client registered by hand, a machine-to-machine
 * client (client credentials), fixed scopes, or to pin the authorization
 * server the credentials may go to.
 */
export function OAuthFields({ values, onChange, errors }: OAuthFieldsProps) {
  const t = useT();
  const hasErrors = Object.keys(errors).some((key) => OAUTH_FIELDS.has(key));
  const [open, setOpen] = useState(() => hasOAuthSettings(values));
  const set = <K extends keyof OAuthFormValues>(key: K, value: OAuthFormValues[K]) =>
    onChange({ ...values, [key]: value });
  const machine = values.grant === 'client_credentials';
  const workload = values.grant === 'jwt_bearer';
  const useKey = machine && values.clientAuth === 'key';
  // A secret, a key or an identity token: something an authorization server of the MCP server's choosing must not receive.
  const credential = machine || workload || values.clientSecret !== '';
  const text = ({
    key,
    label,
    hint,
    placeholder,
  }: {
    key: 'clientId' | 'scope' | 'issuer' | 'assertionFile';
    label: string;
    hint: string;
    placeholder: string;
  }) => (
    <Field label={label} error={errors[`oauth.${key}`]} hint={hint}>
      {({ id, describedBy, invalid }) => (
        <input
          id={id}
          className="input mono"
          value={values[key]}
          aria-describedby={describedBy}
          aria-invalid={invalid}
          spellCheck={false}
          autoComplete="off"
          placeholder={placeholder}
          onChange={(e) => set(key, e.target.value)}
        />
      )}
    </Field>
  );

  return (
    <Collapsible.Root open={open || hasErrors} onOpenChange={setOpen} className="advanced">
      <Collapsible.Trigger asChild>
        <button type="button" className={clsx('advanced-trigger', (open || hasErrors) && 'open')}>
          <ChevronRightIcon />
          {t('servers.oauth.trigger', { summary: summary(values, t) })}
        </button>
      </Collapsible.Trigger>
      <Collapsible.Content className="advanced-body">
        <div className="field">
          <span className="field-label" id="oauth-grant-label">
            {t('servers.oauth.howAccess')}
          </span>
          <Segmented
            value={values.grant}
            options={GRANTS.map((grant) => ({ value: grant.value, label: t(grant.id) }))}
            aria-labelledby="oauth-grant-label"
            onChange={(grant) => set('grant', grant)}
          />
          <p className="field-hint">{grantHint(values.grant, t)}</p>
        </div>
        {text({
          key: 'clientId',
          label: t('servers.oauth.clientId'),
          hint: t(machine || workload ? 'servers.oauth.clientIdHintMachine' : 'servers.oauth.clientIdHint'),
          placeholder: t(
            machine || workload ? 'servers.oauth.clientIdPlaceholderMachine' : 'servers.oauth.clientIdPlaceholder',
          ),
        })}
        {machine ? (
          <div className="field">
            <span className="field-label" id="oauth-auth-label">
              {t('servers.oauth.provesWith')}
            </span>
            <Segmented
              value={values.clientAuth}
              options={CLIENT_AUTHS.map((auth) => ({ value: auth.value, label: t(auth.id) }))}
              aria-labelledby="oauth-auth-label"
              onChange={(auth) => set(CLIENT_AUTH, auth)}
            />
          </div>
        ) : null}
        {workload
          ? text({
              key: 'assertionFile',
              label: t('servers.oauth.assertionFile'),
              hint: t('servers.oauth.assertionFileHint'),
              placeholder: '/var/run/secrets/tokens/mcp',
            })
          : null}
        {workload ? null : useKey ? (
          <Field
            label={t('servers.oauth.privateKey')}
            error={errors['oauth.privateKey']}
            hint={t('servers.oauth.privateKeyHint')}
          >
            {({ id, describedBy, invalid }) => (
              <textarea
                id={id}
                className="input mono"
                rows={4}
                value={values.privateKey}
                aria-describedby={describedBy}
                aria-invalid={invalid}
                spellCheck={false}
                placeholder={t('servers.oauth.privateKeyPlaceholder')}
                onChange={(e) => set('privateKey', e.target.value)}
              />
            )}
          </Field>
        ) : (
          <Field
            label={t('servers.oauth.clientSecret')}
            error={errors['oauth.clientSecret']}
            hint={t(machine ? 'servers.oauth.clientSecretHintMachine' : 'servers.oauth.clientSecretHint')}
          >
            {({ id, describedBy, invalid }) => (
              <input
                id={id}
                className="input mono"
                type="password"
                value={values.clientSecret}
                aria-describedby={describedBy}
                aria-invalid={invalid}
                autoComplete="off"
                onChange={(e) => set('clientSecret', e.target.value)}
              />
            )}
          </Field>
        )}
        {text({
          key: 'scope',
          label: t('servers.oauth.scopes'),
          hint: t('servers.oauth.scopesHint'),
          placeholder: t('servers.oauth.scopesPlaceholder'),
        })}
        {text({
          key: 'issuer',
          label: t('servers.oauth.issuer'),
          hint: t(credential ? 'servers.oauth.issuerHintCredential' : 'servers.oauth.issuerHint'),
          placeholder: t(credential ? 'servers.oauth.issuerPlaceholderCredential' : 'servers.oauth.issuerPlaceholder'),
        })}
      </Collapsible.Content>
    </Collapsible.Root>
  );
}

const GRANTS: ReadonlyArray<{ value: OAuthFormValues['grant']; id: MessageId }> = [
  { value: 'authorization_code', id: 'servers.oauth.grantYou' },
  { value: 'client_credentials', id: 'servers.oauth.grantClient' },
  { value: 'jwt_bearer', id: 'servers.oauth.grantWorkload' },
];

const CLIENT_AUTHS: ReadonlyArray<{ value: ClientAuthKind; id: MessageId }> = [
  { value: 'secret', id: 'servers.oauth.authSecret' },
  { value: 'key', id: 'servers.oauth.authKey' },
];

function grantHint(grant: OAuthFormValues['grant'], t: Translate): string {
  return {
    authorization_code: t('servers.oauth.hintYou'),
    client_credentials: t('servers.oauth.hintClient'),
    jwt_bearer: t('servers.oauth.hintWorkload'),
  }[grant];
}

/** What the folded section says about itself. */
function summary(values: OAuthFormValues, t: Translate): string {
  const client = values.clientId.trim();
  if (values.grant === 'jwt_bearer') return t('servers.oauth.summaryWorkload');
  if (values.grant === 'client_credentials')
    return client === '' ? t('servers.oauth.summaryClient') : t('servers.oauth.summaryClientAs', { client });
  return client === '' ? t('servers.oauth.summaryAuto') : t('servers.oauth.summaryYouAs', { client });
}
