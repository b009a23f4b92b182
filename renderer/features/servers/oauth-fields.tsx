import clsx from 'clsx';
import { Collapsible } from 'radix-ui';
import { useState } from 'react';
import { Field } from '../../ui/controls';
import { Segmented } from '../../ui/segmented';
import { ChevronRightIcon } from '../../ui/icons';
import type { FormErrors } from './server-form-model';
import { hasOAuthSettings, type ClientAuthKind, type OAuthFormValues } from './server-form-oauth';

interface OAuthFieldsProps {
  values: OAuthFormValues;
  onChange: (values: OAuthFormValues) => void;
  errors: FormErrors;
}

/** The OAuth keys of FormErrors: a failed submit opens the section when one of them is set. */
export const OAUTH_FIELDS = new Set([
  'oauth.grant',
  'oauth.clientId',
  'oauth.clientSecret',
  'oauth.privateKey',
  'oauth.scope',
  'oauth.issuer',
  'oauth.assertionFile',
]);

/**
 * "Sign-in (OAuth)" for a remote server, folded away: most servers need
 * nothing here (Berth registers itself and the person signs in in the
 * browser). Open it for a client registered by hand, a machine-to-machine
 * client (client credentials), fixed scopes, or to pin the authorization
 * server the credentials may go to.
 */
export function OAuthFields({ values, onChange, errors }: OAuthFieldsProps) {
  const hasErrors = Object.keys(errors).some((key) => OAUTH_FIELDS.has(key));
  const [open, setOpen] = useState(() => hasOAuthSettings(values));
  const set = <K extends keyof OAuthFormValues>(key: K, value: OAuthFormValues[K]) =>
    onChange({ ...values, [key]: value });
  const machine = values.grant === 'client_credentials';
  const workload = values.grant === 'jwt_bearer';
  const useKey = machine && values.clientAuth === 'key';
  // A secret, a key or an identity token: something an authorization server of the MCP server's choosing must not receive.
  const credential = machine || workload || values.clientSecret !== '';
  const text = (
    key: 'clientId' | 'scope' | 'issuer' | 'assertionFile',
    label: string,
    hint: string,
    placeholder: string,
  ) => (
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
          Sign-in (OAuth): {summary(values)}
        </button>
      </Collapsible.Trigger>
      <Collapsible.Content className="advanced-body">
        <div className="field">
          <span className="field-label" id="oauth-grant-label">
            How Berth gets access
          </span>
          <Segmented
            value={values.grant}
            options={GRANTS}
            aria-labelledby="oauth-grant-label"
            onChange={(grant) => set('grant', grant)}
          />
          <p className="field-hint">{GRANT_HINTS[values.grant]}</p>
        </div>
        {text(
          'clientId',
          'Client ID',
          machine || workload
            ? 'The client ID the authorization server issued for this use.'
            : 'Optional. Leave empty and Berth registers itself with the authorization server; enter one if the server’s owner registered Berth by hand.',
          machine || workload ? 'my-client-id' : 'registered automatically',
        )}
        {machine ? (
          <div className="field">
            <span className="field-label" id="oauth-auth-label">
              The client proves itself with
            </span>
            <Segmented
              value={values.clientAuth}
              options={CLIENT_AUTHS}
              aria-labelledby="oauth-auth-label"
              onChange={(auth) => set('clientAuth', auth)}
            />
          </div>
        ) : null}
        {workload
          ? text(
              'assertionFile',
              'Identity token file',
              'The file your platform keeps the workload’s identity token (a JWT) in, e.g. a Kubernetes projected token. Read again for every token request.',
              '/var/run/secrets/tokens/mcp',
            )
          : null}
        {workload ? null : useKey ? (
          <Field
            label="Private key"
            error={errors['oauth.privateKey']}
            hint="PEM (RSA, EC or Ed25519). Kept in Berth’s secret store, never in config.json; Berth signs a short-lived assertion with it."
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
                placeholder="-----BEGIN PRIVATE KEY-----"
                onChange={(e) => set('privateKey', e.target.value)}
              />
            )}
          </Field>
        ) : (
          <Field
            label="Client secret"
            error={errors['oauth.clientSecret']}
            hint={
              machine
                ? 'Kept in Berth’s secret store, never in config.json.'
                : 'Only for a client registered with a secret. Kept in Berth’s secret store, never in config.json.'
            }
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
        {text(
          'scope',
          'Scopes',
          'Optional, space-separated. Used when the server does not say which scopes it needs.',
          'e.g. read write',
        )}
        {text(
          'issuer',
          'Authorization server',
          credential
            ? 'Its issuer URL: the client’s credentials go to no other authorization server, whatever the MCP server names. Left empty, the first successful sign-in pins the one used and any other is refused after that; enter it to be sure from the start.'
            : 'Optional: its issuer URL. With it, Berth sends the client ID to no other authorization server, whatever the MCP server names.',
          credential ? 'pinned on first successful use' : 'https://auth.example.com',
        )}
      </Collapsible.Content>
    </Collapsible.Root>
  );
}

const GRANTS: ReadonlyArray<{ value: OAuthFormValues['grant']; label: string }> = [
  { value: 'authorization_code', label: 'You sign in' },
  { value: 'client_credentials', label: 'Client credentials' },
  { value: 'jwt_bearer', label: 'Workload identity' },
];

const CLIENT_AUTHS: ReadonlyArray<{ value: ClientAuthKind; label: string }> = [
  { value: 'secret', label: 'Client secret' },
  { value: 'key', label: 'Private key (JWT)' },
];

const GRANT_HINTS: Record<OAuthFormValues['grant'], string> = {
  authorization_code: 'You sign in with the server’s account in your browser when the server asks for it.',
  client_credentials:
    'No person signs in: Berth gets tokens as the client below (the OAuth client_credentials grant), for servers set up for machine access.',
  jwt_bearer:
    'No person and no secret: the identity token your platform issues to this machine is traded for access (workload identity, the RFC 7523 JWT-bearer grant).',
};

/** What the folded section says about itself. */
function summary(values: OAuthFormValues): string {
  if (values.grant === 'jwt_bearer') return 'workload identity';
  if (values.grant === 'client_credentials')
    return values.clientId.trim() === '' ? 'client credentials' : `client credentials as ${values.clientId.trim()}`;
  return values.clientId.trim() === '' ? 'automatic' : `you sign in, client ${values.clientId.trim()}`;
}
