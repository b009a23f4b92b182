// @vitest-environment jsdom
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { renderWithBerth } from '../../test-support/render-with-berth';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { SECRET_MASK } from '../../../shared/domain';
import { OAuthFields } from './oauth-fields';
import { emptyOAuthValues, type OAuthFormValues } from './server-form-oauth';

afterEach(cleanup);

let latest: OAuthFormValues | undefined;

function Harness({ initial, errors = {} }: { initial: OAuthFormValues; errors?: Record<string, string> }) {
  const [values, setValues] = useState(initial);
  latest = values;
  return <OAuthFields values={values} onChange={setValues} errors={errors} />;
}

describe('OAuthFields', () => {
  it('starts folded with "automatic" when nothing is set, and opens with the keyboard', () => {
    renderWithBerth(<Harness initial={emptyOAuthValues()} />);
    const trigger = screen.getByRole('button', { name: 'Sign-in (OAuth): automatic' });
    expect(screen.queryByLabelText('Client ID')).toBeNull();
    trigger.focus();
    fireEvent.click(trigger);
    expect(screen.getByLabelText('Client ID')).toBeTruthy();
    expect(screen.getByLabelText('Client secret')).toBeTruthy();
    expect(screen.queryByLabelText('Private key')).toBeNull();
  });

  it('client credentials: choose between a secret and a private key', () => {
    renderWithBerth(
      <Harness
        initial={{ ...emptyOAuthValues(), grant: 'client_credentials', clientId: 'ci', clientSecret: SECRET_MASK }}
      />,
    );
    expect(screen.getByRole('button', { name: 'Sign-in (OAuth): client credentials as ci' })).toBeTruthy();
    expect((screen.getByLabelText('Client secret') as HTMLInputElement).type).toBe('password');
    fireEvent.click(screen.getByRole('radio', { name: 'Private key (JWT)' }));
    fireEvent.change(screen.getByLabelText('Private key'), { target: { value: '-----BEGIN PRIVATE KEY-----' } });
    expect(latest).toMatchObject({ clientAuth: 'key', privateKey: '-----BEGIN PRIVATE KEY-----' });
    fireEvent.click(screen.getByRole('radio', { name: 'Workload identity' }));
    expect(screen.queryByLabelText('Client secret')).toBeNull();
    fireEvent.change(screen.getByLabelText('Identity token file'), { target: { value: '/run/token' } });
    expect(latest).toMatchObject({ grant: 'jwt_bearer', assertionFile: '/run/token' });
    fireEvent.click(screen.getByRole('radio', { name: 'You sign in' }));
    expect(screen.queryByLabelText('Private key')).toBeNull();
    expect(screen.getByText(/You sign in with the server’s account in your browser/)).toBeTruthy();
  });

  it('shows the pinned authorization server of a confidential client, and says an empty one is pinned on first use', () => {
    renderWithBerth(
      <Harness
        initial={{
          ...emptyOAuthValues(),
          grant: 'client_credentials',
          clientId: 'ci',
          clientSecret: SECRET_MASK,
          issuer: 'https://auth.example.com',
        }}
      />,
    );
    const issuer = screen.getByLabelText('Authorization server') as HTMLInputElement;
    expect(issuer.value).toBe('https://auth.example.com');
    fireEvent.change(issuer, { target: { value: '' } });
    expect(issuer.placeholder).toBe('pinned on first successful use');
    expect(screen.getByText(/the first successful sign-in pins the one used and any other is refused/)).toBeTruthy();
  });

  it('opens itself to show an error under its field', () => {
    renderWithBerth(
      <Harness
        initial={emptyOAuthValues()}
        errors={{ 'oauth.clientId': 'A client secret needs the client ID it belongs to' }}
      />,
    );
    expect(screen.getByRole('alert').textContent).toBe('A client secret needs the client ID it belongs to');
  });
});
